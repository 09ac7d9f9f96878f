/**
 * The memory data model (DeerFlow §4.2): per user, six summary sections; per
 * user and agent, facts. Field names are DeerFlow's JSON (camelCase, as its
 * `memory.json` and `/api/memory` responses), except `expectedValidDays`
 * (`expected_valid_days` on DeerFlow's wire; the server maps it).
 */

/** Fact categories; `other` carries a `categoryExtension`. */
export const FACT_CATEGORIES = [
  "preference",
  "knowledge",
  "context",
  "behavior",
  "goal",
  "correction",
  "other",
] as const;

/** One of {@link FACT_CATEGORIES}. */
export type FactCategory = (typeof FACT_CATEGORIES)[number];

/** Where a fact came from. */
export type FactSourceType = "conversation" | "manual" | "consolidation" | "import" | "unknown";

/** A durable fact about the user, scoped to one agent. */
export interface MemoryFact {
  /** `fact_<32 hex>`; charset `[A-Za-z0-9_-]`. */
  readonly id: string;
  readonly content: string;
  readonly category: FactCategory;
  /** With category `other`: the model's own label. */
  readonly categoryExtension?: string;
  /** 0..1. */
  readonly confidence: number;
  /** ISO 8601. */
  readonly createdAt: string;
  readonly updatedAt: string;
  /** +1 only when the content, category or confidence changes. */
  readonly revision: number;
  readonly source: { readonly type: FactSourceType; readonly threadId?: string };
  /** For corrections: what the agent got wrong (injected as `(avoid: …)`). */
  readonly sourceError?: string;
  readonly lastConfirmedAt?: string;
  readonly confirmationCount?: number;
  /** How long the fact is expected to hold; drives the staleness review. */
  readonly expectedValidDays?: number;
}

/** One summary section. */
export interface MemorySection {
  readonly summary: string;
  /** ISO 8601, or "" when never written. */
  readonly updatedAt: string;
}

/** Names of the user sections. */
export const USER_SECTIONS = ["workContext", "personalContext", "topOfMind"] as const;
/** Names of the history sections. */
export const HISTORY_SECTIONS = ["recentMonths", "earlierContext", "longTermBackground"] as const;

export type UserSectionName = (typeof USER_SECTIONS)[number];
export type HistorySectionName = (typeof HISTORY_SECTIONS)[number];

/** The user's summaries (shared by every agent of the user). */
export interface MemorySummaries {
  readonly user: Readonly<Record<UserSectionName, MemorySection>>;
  readonly history: Readonly<Record<HistorySectionName, MemorySection>>;
}

/** A user's memory as one agent sees it: the summaries and that agent's facts. */
export interface MemoryDocument extends MemorySummaries {
  readonly version: "1.0";
  /** Bumped on every write of the user's memory (optimistic concurrency). */
  readonly revision: number;
  /** ISO 8601 of the last write, or "" for a memory never written. */
  readonly lastUpdated: string;
  readonly facts: readonly MemoryFact[];
}

/** Whose memory: a user, and one agent's bucket of facts. */
export interface MemoryScope {
  readonly userId: string;
  /** The agent's name; absent = the default lead agent (bucket `__default__`). */
  readonly agentName?: string;
}

/** A fact to add. */
export interface NewFact {
  readonly content: string;
  /** Default `context`. */
  readonly category?: FactCategory;
  readonly categoryExtension?: string;
  /** Default 0.5. */
  readonly confidence?: number;
  /** Default `{ type: "manual" }`. */
  readonly source?: MemoryFact["source"];
  readonly sourceError?: string;
  readonly expectedValidDays?: number;
}

/** Changes to a fact; omitted fields are kept. */
export interface FactPatch {
  readonly content?: string;
  readonly category?: FactCategory;
  readonly confidence?: number;
  readonly lastConfirmedAt?: string;
  readonly confirmationCount?: number;
  readonly expectedValidDays?: number;
}

/** Summary sections to replace (each a new summary text). */
export interface SummaryUpdate {
  readonly user?: Partial<Record<UserSectionName, string>>;
  readonly history?: Partial<Record<HistorySectionName, string>>;
}
