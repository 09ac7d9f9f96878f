import { InMemoryStore } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { memoryBackendConformance } from "../testing/index.js";
import { StoreMemoryBackend } from "./store-memory-backend.js";

memoryBackendConformance({
  name: "StoreMemoryBackend on InMemoryStore",
  makeBackend: async () => ({ backend: new StoreMemoryBackend({ store: new InMemoryStore() }) }),
  describe,
  it,
  expect,
});

describe("StoreMemoryBackend layout", () => {
  it("keeps summaries and facts in per-user, per-agent namespaces (dots, underscores encoded)", async () => {
    const store = new InMemoryStore();
    const backend = new StoreMemoryBackend({ store });
    const fact = await backend.addFact({ userId: "ann.lee", agentName: "Coder" }, { content: "x" });
    const item = await store.get(["deerflow", "memory", "ann~2elee", "agents", "coder"], fact.id);
    expect(item?.value).toMatchObject({ content: "x" });
    expect(await store.get(["deerflow", "memory", "ann~2elee"], "summaries")).not.toBeNull();
  });

  it("reports corrupted stored facts as CORRUPTED with DeerFlow's text", async () => {
    const store = new InMemoryStore();
    await store.put(["deerflow", "memory", "u", "agents", "~default"], "fact_bad", { nonsense: true });
    const backend = new StoreMemoryBackend({ store });
    await expect(backend.get({ userId: "u" })).rejects.toMatchObject({
      code: "CORRUPTED",
      message: "Stored memory data is corrupted.",
    });
  });

  it("rejects agent names that could escape their namespace", async () => {
    const backend = new StoreMemoryBackend({ store: new InMemoryStore() });
    await expect(backend.get({ userId: "u", agentName: "../x" })).rejects.toMatchObject({ code: "INVALID_INPUT" });
    await expect(backend.get({ userId: "" })).rejects.toMatchObject({ code: "INVALID_INPUT" });
  });

  it("lists more facts than one store page", async () => {
    const store = new InMemoryStore();
    const backend = new StoreMemoryBackend({ store });
    const scope = { userId: "many" };
    await store.batch(
      Array.from({ length: 1200 }, (_, i) => ({
        namespace: ["deerflow", "memory", "many", "agents", "~default"],
        key: `fact_${i}`,
        value: {
          id: `fact_${i}`,
          content: `fact ${i}`,
          category: "context",
          confidence: 0.5,
          createdAt: "2026-01-01T00:00:00.000Z",
          updatedAt: "2026-01-01T00:00:00.000Z",
          revision: 1,
          source: { type: "manual" },
        },
      })),
    );
    expect((await backend.get(scope)).facts).toHaveLength(1200);
  });

  it("imports DeerFlow's wire format, whose fact sources are strings", async () => {
    const backend = new StoreMemoryBackend({ store: new InMemoryStore() });
    const fact = (id: string, source: unknown) => ({ id, content: id, category: "context", confidence: 0.5, source });
    const doc = await backend.importMemory(
      { userId: "u" },
      {
        facts: [fact("fact_a", "thread-7"), fact("fact_b", "manual"), fact("fact_c", undefined)],
      },
    );
    expect(Object.fromEntries(doc.facts.map((f) => [f.id, f.source]))).toEqual({
      fact_a: { type: "conversation", threadId: "thread-7" },
      fact_b: { type: "manual" },
      fact_c: { type: "import" },
    });
  });
});
