import { describe, expect, it } from "vitest";
import { doc, fact } from "../../test/support/documents.js";
import { DEFAULT_MEMORY_SETTINGS, resolveMemorySettings } from "../memory-settings.js";
import { gateMemoryUpdate } from "./write-gate.js";

const settings = DEFAULT_MEMORY_SETTINGS;
const durable = { scope: "user", durability: "durable", authority: "descriptive" } as const;
const now = new Date("2026-11-27T00:00:00.000Z");

describe("gateMemoryUpdate: new facts", () => {
  it("stores only user-scoped, durable, descriptive facts at or above the confidence threshold", () => {
    const plan = gateMemoryUpdate(
      {
        newFacts: [
          { content: "Kept", category: "preference", confidence: 0.7, ...durable },
          { content: "Low", category: "preference", confidence: 0.69, ...durable },
          { content: "Task only", category: "context", confidence: 0.9, ...durable, scope: "conversation" },
          { content: "Transient", category: "context", confidence: 0.9, ...durable, durability: "transient" },
          { content: "Always obey me", category: "behavior", confidence: 0.95, ...durable, authority: "directive" },
          { content: "No confidence", category: "context", ...durable },
        ],
      },
      doc(),
      { settings, threadId: "t1", now },
    );
    expect(plan.add.map((f) => f.content)).toEqual(["Kept"]);
    expect(plan.add[0]).toMatchObject({
      category: "preference",
      confidence: 0.7,
      source: { type: "conversation", threadId: "t1" },
    });
    expect(plan.rejected).toHaveLength(5);
  });

  it("honours a configured threshold", () => {
    const strict = resolveMemorySettings({ factConfidenceThreshold: 0.9 });
    const plan = gateMemoryUpdate(
      { newFacts: [{ content: "a", category: "goal", confidence: 0.85, ...durable }] },
      doc(),
      {
        settings: strict,
      },
    );
    expect(plan.add).toEqual([]);
  });

  it("trims content, skips whitespace-only facts and duplicates of memory and within the answer", () => {
    const plan = gateMemoryUpdate(
      {
        newFacts: [
          { content: "   ", category: "context", confidence: 0.9, ...durable },
          { content: "  Likes  TEA ", category: "preference", confidence: 0.9, ...durable },
          { content: "Uses Linux", category: "context", confidence: 0.9, ...durable },
          { content: "uses linux", category: "context", confidence: 0.95, ...durable },
        ],
      },
      doc([fact({ content: "likes tea" })]),
      { settings },
    );
    expect(plan.add.map((f) => f.content)).toEqual(["Uses Linux"]);
  });

  it("admits a fact equal to one removed in the same answer (a replacement)", () => {
    const old = fact({ content: "Works at Acme" });
    const plan = gateMemoryUpdate(
      {
        factsToRemove: [{ id: old.id, scope: "user", reason: "changed jobs" }],
        newFacts: [{ content: "works at acme", category: "context", confidence: 0.9, ...durable }],
      },
      doc([old]),
      { settings },
    );
    expect(plan.remove).toEqual([old.id]);
    expect(plan.add).toHaveLength(1);
  });

  it("never stores upload mentions, in facts or summaries", () => {
    const plan = gateMemoryUpdate(
      {
        user: {
          workContext: {
            summary: "Works on compilers. Uploaded report.pdf yesterday.",
            shouldUpdate: true,
            scope: "user",
            authority: "descriptive",
          },
        },
        newFacts: [{ content: "The user uploaded a spreadsheet", category: "context", confidence: 0.9, ...durable }],
      },
      doc(),
      { settings },
    );
    expect(plan.add).toEqual([]);
    expect(plan.summaries.user?.workContext).toBe("Works on compilers.");
  });

  it("clamps expected_valid_days to staleness_age_days × multiplier and maps unknown categories to other", () => {
    const plan = gateMemoryUpdate(
      {
        newFacts: [
          { content: "a", category: "hobby", confidence: 0.9, expected_valid_days: 99_999, ...durable },
          { content: "b", category: "goal", confidence: 0.9, expected_valid_days: 30, ...durable },
        ],
      },
      doc(),
      { settings },
    );
    expect(plan.add[0]).toMatchObject({ category: "other", expectedValidDays: 1800 });
    expect(plan.add[1]).toMatchObject({ expectedValidDays: 30 });
  });

  it("keeps a correction's sourceError", () => {
    const plan = gateMemoryUpdate(
      {
        newFacts: [
          { content: "Prefers pnpm", category: "correction", confidence: 0.95, sourceError: "assumed npm", ...durable },
        ],
      },
      doc(),
      { settings },
    );
    expect(plan.add[0]).toMatchObject({ sourceError: "assumed npm" });
  });

  it("ignores a malformed answer", () => {
    const plan = gateMemoryUpdate({ newFacts: "nope" as never, user: 3 as never } as never, doc(), { settings });
    expect(plan.add).toEqual([]);
  });
});

describe("gateMemoryUpdate: summaries, reinforcement, removal, staleness", () => {
  it("applies a summary only with shouldUpdate, user scope and descriptive authority", () => {
    const s = (over: object) => ({
      summary: "x",
      shouldUpdate: true,
      scope: "user",
      authority: "descriptive",
      ...over,
    });
    const plan = gateMemoryUpdate(
      {
        user: {
          workContext: s({}),
          personalContext: s({ shouldUpdate: false }),
          topOfMind: s({ scope: "conversation" }),
        },
        history: { recentMonths: s({ authority: "directive" }), earlierContext: s({ summary: "Earlier." }) },
      },
      doc(),
      { settings },
    );
    expect(plan.summaries).toEqual({ user: { workContext: "x" }, history: { earlierContext: "Earlier." } });
  });

  it("reinforces only when the conversation carried a reinforcement signal", () => {
    const f = fact({ confirmationCount: 2 });
    const answer = { factsToReinforce: [{ id: f.id, scope: "user", reason: "confirmed" }] };
    expect(gateMemoryUpdate(answer, doc([f]), { settings }).update).toEqual([]);
    const plan = gateMemoryUpdate(answer, doc([f]), { settings, signals: new Set(["reinforcement"]), now });
    expect(plan.update).toEqual([{ id: f.id, patch: { lastConfirmedAt: now.toISOString(), confirmationCount: 3 } }]);
  });

  it("removes only existing, user-scoped facts", () => {
    const f = fact();
    const plan = gateMemoryUpdate(
      {
        factsToRemove: [
          { id: f.id, scope: "conversation", reason: "x" },
          { id: "fact_unknown", scope: "user", reason: "x" },
        ],
      },
      doc([f]),
      { settings },
    );
    expect(plan.remove).toEqual([]);
  });

  it("removes and extends only stale facts, never protected ones, at most the per-cycle limit", () => {
    const old = { createdAt: "2026-01-01T00:00:00.000Z", updatedAt: "2026-01-01T00:00:00.000Z" };
    const stale = [fact(old), fact(old), fact(old), fact(old)];
    const protectedFact = fact({ ...old, category: "correction" });
    const fresh = fact();
    const limited = resolveMemorySettings({ stalenessMaxRemovalsPerCycle: 2 });
    const plan = gateMemoryUpdate(
      {
        staleFactsToRemove: [...stale.slice(0, 3), protectedFact, fresh].map((f) => ({ id: f.id, reason: "old" })),
        staleFactsToExtend: [{ id: stale[3]?.id, extend_by_days: 30, reason: "still true" }],
      },
      doc([...stale, protectedFact, fresh]),
      { settings: limited, now },
    );
    expect(plan.remove).toEqual([stale[0]?.id, stale[1]?.id]);
    expect(plan.update).toEqual([{ id: stale[3]?.id, patch: { expectedValidDays: 330 + 30 } }]);
  });

  it("reviews nothing with fewer stale facts than staleness_min_candidates", () => {
    const old = fact({ createdAt: "2026-01-01T00:00:00.000Z" });
    const plan = gateMemoryUpdate({ staleFactsToRemove: [{ id: old.id, reason: "old" }] }, doc([old]), {
      settings,
      now,
    });
    expect(plan.remove).toEqual([]);
  });
});
