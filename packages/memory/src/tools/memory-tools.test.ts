import type { StructuredToolInterface, ToolRunnableConfig } from "@langchain/core/tools";
import { InMemoryStore } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { StoreMemoryBackend } from "../backend/store-memory-backend.js";
import { MemoryManager } from "../memory-manager.js";
import { createMemoryTools } from "./memory-tools.js";

const setup = () => {
  const manager = new MemoryManager({
    backend: new StoreMemoryBackend({ store: new InMemoryStore() }),
    settings: { maxFacts: 2 },
  });
  const tools = Object.fromEntries(createMemoryTools({ manager }).map((t) => [t.name, t]));
  return { manager, tools };
};
const alice = { configurable: { user_id: "alice" } };
const call = async (
  tool: StructuredToolInterface | undefined,
  args: Record<string, unknown>,
  config: ToolRunnableConfig = alice,
): Promise<Record<string, unknown>> => JSON.parse(String(await tool?.invoke(args, config))) as Record<string, unknown>;

describe("createMemoryTools", () => {
  it("adds, searches, updates and deletes facts in the run's scope", async () => {
    const { manager, tools } = setup();
    const added = await call(tools["memory_add"], { content: "Prefers dark mode", category: "preference" });
    const id = (added["fact"] as { id: string }).id;
    expect(await call(tools["memory_search"], { query: "dark" })).toEqual({
      facts: [{ id, content: "Prefers dark mode", category: "preference", confidence: 0.8 }],
    });
    await call(tools["memory_update"], { id, confidence: 0.95 });
    expect((await manager.get({ userId: "alice" })).facts[0]?.confidence).toBe(0.95);
    expect(await call(tools["memory_delete"], { id })).toEqual({ deleted: id });
    expect((await manager.get({ userId: "alice" })).facts).toEqual([]);
  });

  it("answers refusals as a JSON error the model can read", async () => {
    const { tools } = setup();
    await call(tools["memory_add"], { content: "x" });
    expect(await call(tools["memory_add"], { content: "X" })).toEqual({
      error: "A fact with the same content already exists.",
    });
    expect(await call(tools["memory_delete"], { id: "fact_nope" })).toEqual({
      error: "Memory fact 'fact_nope' not found.",
    });
    expect(await call(tools["memory_search"], { query: "x" }, {})).toEqual({
      error: "Memory is not available in this run (no user).",
    });
  });

  it("never reaches another user's memory", async () => {
    const { manager, tools } = setup();
    const bobs = await manager.addFact({ userId: "bob" }, { content: "Bob's secret" });
    expect(await call(tools["memory_search"], { query: "secret" })).toEqual({ facts: [] });
    expect(await call(tools["memory_delete"], { id: bobs.id })).toEqual({
      error: `Memory fact '${bobs.id}' not found.`,
    });
  });
});
