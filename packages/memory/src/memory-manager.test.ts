import { InMemoryStore } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { StoreMemoryBackend } from "./backend/store-memory-backend.js";
import { MemoryManager } from "./memory-manager.js";

const scope = { userId: "alice" };
const manager = (maxFacts: number) =>
  new MemoryManager({ backend: new StoreMemoryBackend({ store: new InMemoryStore() }), settings: { maxFacts } });

describe("MemoryManager: max_facts", () => {
  it("keeps the highest-confidence facts when a write goes over max_facts", async () => {
    const m = manager(3);
    for (const [content, confidence] of [
      ["a", 0.6],
      ["b", 0.9],
      ["c", 0.7],
    ] as const)
      await m.addFact(scope, { content, confidence });
    await m.addFact(scope, { content: "d", confidence: 0.8 });
    expect((await m.get(scope)).facts.map((f) => f.content)).toEqual(["b", "d", "c"]);
  });

  it("refuses with DeerFlow's text a fact the policy would evict at once, storing nothing", async () => {
    const m = manager(2);
    await m.addFact(scope, { content: "a", confidence: 0.9 });
    await m.addFact(scope, { content: "b", confidence: 0.8 });
    await expect(m.addFact(scope, { content: "weak", confidence: 0.5 })).rejects.toMatchObject({
      code: "FACT_EVICTED",
      message: "Fact was not stored because the configured memory.max_facts capacity policy evicted it",
    });
    expect((await m.get(scope)).facts.map((f) => f.content)).toEqual(["a", "b"]);
  });

  it("trims an import to max_facts", async () => {
    const m = manager(2);
    const source = manager(10);
    for (const [i, c] of [0.5, 0.9, 0.7].entries()) await source.addFact(scope, { content: `f${i}`, confidence: c });
    const imported = await m.importMemory(scope, await source.get(scope));
    expect(imported.facts.map((f) => f.confidence)).toEqual([0.9, 0.7]);
  });

  it("applies a write plan: summaries, removals, updates, adds (a duplicate skipped), then eviction", async () => {
    const m = manager(2);
    const old = await m.addFact(scope, { content: "old", confidence: 0.9 });
    const kept = await m.addFact(scope, { content: "kept", confidence: 0.8 });
    const result = await m.applyPlan(scope, {
      summaries: { user: { topOfMind: "Shipping v2." } },
      remove: [old.id, "fact_gone"],
      update: [{ id: kept.id, patch: { confirmationCount: 1 } }],
      add: [
        { content: "KEPT", confidence: 0.95 },
        { content: "new strong", confidence: 0.95 },
        { content: "new weak", confidence: 0.75 },
      ],
      rejected: [],
    });
    expect(result.removed).toEqual([old.id]);
    expect(result.added.map((f) => f.content)).toEqual(["new strong", "new weak"]);
    expect(result.evicted).toHaveLength(1);
    const doc = await m.get(scope);
    expect(doc.facts.map((f) => f.content)).toEqual(["new strong", "kept"]);
    expect(doc.user.topOfMind.summary).toBe("Shipping v2.");
  });

  it("rejects out-of-range settings", () => {
    expect(() => manager(0)).toThrow(/maxFacts/);
  });
});
