/**
 * `memoryBackendConformance`: the behaviour every `MemoryBackend` shares —
 * the rules of fact input (DeerFlow's texts), duplicates, revisions, scoping
 * per user and per agent, clear, import/export round trips, search, and
 * concurrent writers of one user.
 */
import { randomUUID } from "node:crypto";
import { errorCodeOf as codeOf, freshSubjectTest, type ConformanceRunner } from "@deerflow/kernel";
import type { MemoryBackend } from "../backend/memory-backend.js";
import type { MemoryScope } from "../types.js";

/** A backend made for one test. */
export interface MemoryBackendHandle {
  readonly backend: MemoryBackend;
  /** Called after the test (drop tables, stop servers...). */
  readonly cleanup?: () => Promise<void>;
}

/** Options of {@link memoryBackendConformance}. */
export interface MemoryBackendConformanceOptions extends ConformanceRunner {
  /** Suite name, e.g. the class name. */
  readonly name: string;
  /** A backend for one test; tests use fresh random user ids, so one shared backend is fine too. */
  readonly makeBackend: () => Promise<MemoryBackendHandle>;
  /** Multiplies the per-test timeout (default 1; 10 s each). */
  readonly timeoutScale?: number;
}

/**
 * Registers the suite with the injected test functions.
 *
 * @param options - name, `makeBackend`, `describe`, `it`, `expect`
 * @example
 * ```ts
 * import { describe, expect, it } from "vitest";
 * import { InMemoryStore } from "@langchain/langgraph";
 * import { StoreMemoryBackend } from "@deerflow/memory";
 * import { memoryBackendConformance } from "@deerflow/memory/testing";
 *
 * memoryBackendConformance({
 *   name: "StoreMemoryBackend",
 *   makeBackend: async () => ({ backend: new StoreMemoryBackend({ store: new InMemoryStore() }) }),
 *   describe, it, expect,
 * });
 * ```
 */
export function memoryBackendConformance(options: MemoryBackendConformanceOptions): void {
  const { describe, expect } = options;
  const timeout = 10_000 * (options.timeoutScale ?? 1);
  const user = (agentName?: string): MemoryScope => ({
    userId: `u-${randomUUID().slice(0, 8)}`,
    ...(agentName === undefined ? {} : { agentName }),
  });
  const it = freshSubjectTest(options.it, options.makeBackend, (handle) => handle.backend, timeout);

  describe(`memoryBackendConformance: ${options.name}`, () => {
    it("an unknown user has an empty document", async (b) => {
      const doc = await b.get(user());
      expect(doc.version).toBe("1.0");
      expect(doc.facts).toEqual([]);
      expect(doc.user.workContext.summary).toBe("");
      expect(doc.history.longTermBackground.summary).toBe("");
    });

    it("adds a fact with DeerFlow's defaults and lists it", async (b) => {
      const scope = user();
      const fact = await b.addFact(scope, { content: "  Prefers TypeScript  " });
      expect(fact.id).toMatch(/^fact_[0-9a-f]{32}$/);
      expect(fact.content).toBe("Prefers TypeScript");
      expect(fact.category).toBe("context");
      expect(fact.confidence).toBe(0.5);
      expect(fact.revision).toBe(1);
      expect(fact.source.type).toBe("manual");
      const doc = await b.get(scope);
      expect(doc.facts.map((f) => f.id)).toEqual([fact.id]);
      expect(doc.revision).toBeGreaterThan(0);
      expect(doc.lastUpdated).not.toBe("");
    });

    it("refuses a duplicate by case-folded, trimmed content", async (b) => {
      const scope = user();
      await b.addFact(scope, { content: "Lives in Lisbon" });
      expect(await codeOf(b.addFact(scope, { content: "  lives   in LISBON " }))).toBe("FACT_DUPLICATE");
      expect((await b.get(scope)).facts).toHaveLength(1);
    });

    it("refuses empty content and confidence outside 0..1 with DeerFlow's texts", async (b) => {
      const scope = user();
      await expect(b.addFact(scope, { content: "   " })).rejects.toThrow("Memory fact content cannot be empty.");
      await expect(b.addFact(scope, { content: "x", confidence: 1.5 })).rejects.toThrow(
        "Invalid confidence value; must be between 0 and 1.",
      );
      expect(await codeOf(b.addFact(scope, { content: "x", confidence: -0.1 }))).toBe("INVALID_INPUT");
      expect((await b.get(scope)).facts).toHaveLength(0);
    });

    it("patches a fact, keeping omitted fields; revision moves only on material change", async (b) => {
      const scope = user();
      const fact = await b.addFact(scope, { content: "Uses vim", category: "preference", confidence: 0.8 });
      const same = await b.updateFact(scope, fact.id, { confirmationCount: 2 });
      expect(same.revision).toBe(1);
      expect(same.content).toBe("Uses vim");
      const changed = await b.updateFact(scope, fact.id, { content: "Uses neovim" });
      expect(changed.revision).toBe(2);
      expect(changed.category).toBe("preference");
      expect(changed.confidence).toBe(0.8);
      expect((await b.get(scope)).facts[0]?.content).toBe("Uses neovim");
    });

    it("answers FACT_NOT_FOUND for unknown and malformed ids, with DeerFlow's text", async (b) => {
      const scope = user();
      await expect(b.deleteFact(scope, "fact_missing")).rejects.toThrow("Memory fact 'fact_missing' not found.");
      expect(await codeOf(b.updateFact(scope, "fact_missing", { content: "x" }))).toBe("FACT_NOT_FOUND");
      expect(await codeOf(b.deleteFact(scope, "../../etc/passwd"))).toBe("FACT_NOT_FOUND");
    });

    it("refuses a patch that makes a fact equal another", async (b) => {
      const scope = user();
      await b.addFact(scope, { content: "Likes tea" });
      const other = await b.addFact(scope, { content: "Likes coffee" });
      expect(await codeOf(b.updateFact(scope, other.id, { content: "LIKES TEA" }))).toBe("FACT_DUPLICATE");
    });

    it("deletes a fact physically", async (b) => {
      const scope = user();
      const fact = await b.addFact(scope, { content: "Temporary" });
      await b.deleteFact(scope, fact.id);
      expect((await b.get(scope)).facts).toEqual([]);
      expect(await codeOf(b.deleteFact(scope, fact.id))).toBe("FACT_NOT_FOUND");
    });

    it("keeps summaries per user (shared by the user's agents) and facts per user and agent", async (b) => {
      const scope = user();
      const coder: MemoryScope = { userId: scope.userId, agentName: "coder" };
      const other = user();
      await b.updateSummaries(scope, { user: { workContext: "Builds compilers." } });
      await b.addFact(scope, { content: "Default agent fact" });
      await b.addFact(coder, { content: "Coder agent fact" });
      expect((await b.get(coder)).user.workContext.summary).toBe("Builds compilers.");
      expect((await b.get(coder)).facts.map((f) => f.content)).toEqual(["Coder agent fact"]);
      expect((await b.get(scope)).facts.map((f) => f.content)).toEqual(["Default agent fact"]);
      const stranger = await b.get(other);
      expect(stranger.facts).toEqual([]);
      expect(stranger.user.workContext.summary).toBe("");
      expect(await codeOf(b.deleteFact(other, (await b.get(scope)).facts[0]?.id ?? ""))).toBe("FACT_NOT_FOUND");
    });

    it("updates only the named summary sections", async (b) => {
      const scope = user();
      await b.updateSummaries(scope, { user: { workContext: "A" }, history: { recentMonths: "B" } });
      await b.updateSummaries(scope, { user: { topOfMind: "C" } });
      const doc = await b.get(scope);
      expect(doc.user.workContext.summary).toBe("A");
      expect(doc.user.topOfMind.summary).toBe("C");
      expect(doc.history.recentMonths.summary).toBe("B");
      expect(doc.user.topOfMind.updatedAt).not.toBe("");
    });

    it("clears the user's summaries and the agent's facts, not another agent's", async (b) => {
      const scope = user();
      const coder: MemoryScope = { userId: scope.userId, agentName: "coder" };
      await b.updateSummaries(scope, { user: { workContext: "A" } });
      await b.addFact(scope, { content: "one" });
      await b.addFact(coder, { content: "two" });
      const cleared = await b.clear(scope);
      expect(cleared.facts).toEqual([]);
      expect(cleared.user.workContext.summary).toBe("");
      expect((await b.get(coder)).facts).toHaveLength(1);
    });

    it("round-trips an export through import into another user, dropping invalid facts and duplicates", async (b) => {
      const from = user();
      const to = user();
      await b.updateSummaries(from, { history: { longTermBackground: "Physicist." } });
      const a = await b.addFact(from, { content: "Fact A", confidence: 0.9, category: "goal" });
      await b.addFact(from, { content: "Fact B" });
      const exported = await b.get(from);
      const imported = await b.importMemory(to, {
        ...exported,
        facts: [...exported.facts, { id: "bad id", content: "x" }, { ...a, id: "fact_copy", content: "fact a" }],
      });
      expect(imported.facts.map((f) => f.id).sort()).toEqual(exported.facts.map((f) => f.id).sort());
      expect(imported.history.longTermBackground.summary).toBe("Physicist.");
      expect((await b.get(to)).facts.find((f) => f.id === a.id)?.category).toBe("goal");
      // Import replaces: a second import without facts empties the scope.
      expect((await b.importMemory(to, { facts: [] })).facts).toEqual([]);
      expect(await codeOf(b.importMemory(to, "not a document"))).toBe("INVALID_INPUT");
      expect(await codeOf(b.importMemory(to, { facts: "nope" }))).toBe("INVALID_INPUT");
    });

    it("searches facts by words, best first, within the limit", async (b) => {
      const scope = user();
      await b.addFact(scope, { content: "Writes Rust at work", confidence: 0.6 });
      await b.addFact(scope, { content: "Enjoys hiking in the Alps", confidence: 0.9 });
      await b.addFact(scope, { content: "Prefers Rust over Go for work tools", confidence: 0.7 });
      const hits = await b.search(scope, "rust work");
      expect(hits.map((f) => f.content)).toEqual(["Prefers Rust over Go for work tools", "Writes Rust at work"]);
      expect(await b.search(scope, "rust", { limit: 1 })).toHaveLength(1);
      expect(await b.search(scope, "sailing")).toEqual([]);
    });

    it("bumps the document revision on every write", async (b) => {
      const scope = user();
      const r0 = (await b.get(scope)).revision;
      const fact = await b.addFact(scope, { content: "x" });
      const r1 = (await b.get(scope)).revision;
      await b.updateSummaries(scope, { user: { topOfMind: "y" } });
      const r2 = (await b.get(scope)).revision;
      await b.deleteFact(scope, fact.id);
      const r3 = (await b.get(scope)).revision;
      expect(r1).toBeGreaterThan(r0);
      expect(r2).toBeGreaterThan(r1);
      expect(r3).toBeGreaterThan(r2);
    });

    it("stores one fact when many writers add the same content at once", async (b) => {
      const scope = user();
      const results = await Promise.allSettled(
        Array.from({ length: 8 }, () => b.addFact(scope, { content: "Same fact" })),
      );
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      expect((await b.get(scope)).facts).toHaveLength(1);
    });

    it("keeps every fact when many writers add different facts at once", async (b) => {
      const scope = user();
      await Promise.all(Array.from({ length: 12 }, (_, i) => b.addFact(scope, { content: `Fact number ${i}` })));
      expect((await b.get(scope)).facts).toHaveLength(12);
    });
  });
}
