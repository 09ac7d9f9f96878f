/**
 * Helpers over {@link MemoryDocument}: the empty document, the scope's agent
 * bucket, reading stored summaries, and text search scoring.
 */
import { MemoryError, MEMORY_ERROR_TEXT } from "./errors.js";
import {
  HISTORY_SECTIONS,
  USER_SECTIONS,
  type MemoryFact,
  type MemoryScope,
  type MemorySection,
  type MemorySummaries,
  type SummaryUpdate,
} from "./types.js";

/** The bucket of the default lead agent's facts (DeerFlow). */
export const DEFAULT_AGENT_BUCKET = "__default__";

const AGENT_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/**
 * @param scope - user and agent
 * @returns the agent's bucket name: lower-cased name, or `__default__`
 * @throws MemoryError `INVALID_INPUT` for an empty user or an agent name outside `[A-Za-z0-9_-]`
 */
export function agentBucketOf(scope: MemoryScope): string {
  if (typeof scope.userId !== "string" || scope.userId === "")
    throw new MemoryError("INVALID_INPUT", "A memory scope needs a user id.");
  if (scope.agentName === undefined || scope.agentName === "") return DEFAULT_AGENT_BUCKET;
  if (!AGENT_NAME.test(scope.agentName))
    throw new MemoryError("INVALID_INPUT", `Invalid agent name ${JSON.stringify(scope.agentName)}.`);
  return scope.agentName.toLowerCase();
}

const EMPTY_SECTION: MemorySection = { summary: "", updatedAt: "" };

/** Summaries with every section empty. */
export function emptySummaries(): MemorySummaries {
  return {
    user: Object.fromEntries(USER_SECTIONS.map((k) => [k, EMPTY_SECTION])) as MemorySummaries["user"],
    history: Object.fromEntries(HISTORY_SECTIONS.map((k) => [k, EMPTY_SECTION])) as MemorySummaries["history"],
  };
}

function readSection(value: unknown): MemorySection {
  if (value === undefined || value === null) return EMPTY_SECTION;
  const v = value as Record<string, unknown>;
  if (typeof v !== "object" || typeof v["summary"] !== "string")
    throw new MemoryError("CORRUPTED", MEMORY_ERROR_TEXT.corrupted);
  return { summary: v["summary"], updatedAt: typeof v["updatedAt"] === "string" ? v["updatedAt"] : "" };
}

/**
 * Reads summaries from a stored or imported value.
 *
 * @param value - `{ user: {...}, history: {...} }` (missing sections are empty)
 * @returns the summaries
 * @throws MemoryError `CORRUPTED` when a section is not `{ summary: string }`
 */
export function readSummaries(value: unknown): MemorySummaries {
  const v = (typeof value === "object" && value !== null ? value : {}) as Record<string, Record<string, unknown>>;
  const user = v["user"] ?? {};
  const history = v["history"] ?? {};
  return {
    user: Object.fromEntries(USER_SECTIONS.map((k) => [k, readSection(user[k])])) as MemorySummaries["user"],
    history: Object.fromEntries(
      HISTORY_SECTIONS.map((k) => [k, readSection(history[k])]),
    ) as MemorySummaries["history"],
  };
}

/**
 * @param summaries - current summaries
 * @param update - sections to replace
 * @param now - ISO time
 * @returns the new summaries
 */
export function applySummaryUpdate(summaries: MemorySummaries, update: SummaryUpdate, now: string): MemorySummaries {
  const user = { ...summaries.user };
  const history = { ...summaries.history };
  for (const k of USER_SECTIONS) {
    const text = update.user?.[k];
    if (typeof text === "string") user[k] = { summary: text.trim(), updatedAt: now };
  }
  for (const k of HISTORY_SECTIONS) {
    const text = update.history?.[k];
    if (typeof text === "string") history[k] = { summary: text.trim(), updatedAt: now };
  }
  return { user, history };
}

/** Facts by confidence, highest first (newer first on ties). */
export function byConfidence(a: MemoryFact, b: MemoryFact): number {
  // ISO times compare as strings; localeCompare would cost a collator call per comparison.
  return b.confidence - a.confidence || (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0);
}

const terms = (text: string): string[] =>
  text
    .toLocaleLowerCase("en-US")
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t.length > 1);

/**
 * Text search over facts: the share of the query's words a fact contains, then confidence.
 *
 * @param facts - candidates
 * @param query - words to find (an empty query lists by confidence)
 * @param limit - most results
 * @returns matching facts, best first
 */
export function searchFacts(facts: readonly MemoryFact[], query: string, limit: number): MemoryFact[] {
  const wanted = [...new Set(terms(query))];
  if (wanted.length === 0) return [...facts].sort(byConfidence).slice(0, limit);
  const scored = facts.flatMap((fact) => {
    const have = new Set(terms(`${fact.content} ${fact.category}`));
    const hits = wanted.filter((w) => have.has(w) || [...have].some((h) => h.startsWith(w))).length;
    return hits === 0 ? [] : [{ fact, score: hits / wanted.length }];
  });
  return scored
    .sort((a, b) => b.score - a.score || byConfidence(a.fact, b.fact))
    .slice(0, limit)
    .map((s) => s.fact);
}
