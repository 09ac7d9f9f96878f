/**
 * The write gate (DeerFlow's `update_memory` rules): what of a model's
 * `memory_update` answer may change memory. Pure: it reads the current
 * document and returns a plan; `MemoryManager.applyPlan` writes it.
 *
 * - a summary only with `shouldUpdate`, `scope: user`, `authority: descriptive`
 * - a new fact only with `scope: user`, `durability: durable`, `authority: descriptive`
 *   and `confidence ≥ fact_confidence_threshold`; content trimmed, empty skipped,
 *   duplicates (case-folded, against memory and within the answer) skipped,
 *   upload mentions never stored, `expected_valid_days` clamped
 * - a reinforcement only when the conversation carried a reinforcement signal
 * - removals only of existing facts labelled `scope: user`; stale removals and
 *   extensions only of facts that are stale, at most `staleness_max_removals_per_cycle`
 */
import { factKey } from "../facts/fact-rules.js";
import type { MemorySettings } from "../memory-settings.js";
import {
  FACT_CATEGORIES,
  HISTORY_SECTIONS,
  USER_SECTIONS,
  type FactCategory,
  type FactPatch,
  type MemoryDocument,
  type NewFact,
  type SummaryUpdate,
} from "../types.js";
import type { MemoryUpdateResult, SectionUpdateResult } from "./memory-update-result.js";
import { mentionsUpload, stripUploadSentences } from "./upload-mentions.js";
import { daysSince, maxValidDays, staleCandidates } from "./staleness.js";

/** Signals detected in a conversation (they change what the gate admits). */
export type MemorySignal = "correction" | "reinforcement";

/** A fact change of the plan. */
export interface PlannedUpdate {
  readonly id: string;
  readonly patch: FactPatch;
}

/** What may be written. */
export interface MemoryWritePlan {
  readonly summaries: SummaryUpdate;
  readonly add: readonly NewFact[];
  readonly remove: readonly string[];
  readonly update: readonly PlannedUpdate[];
  /** What was refused and why (for logs and tests). */
  readonly rejected: readonly { readonly what: string; readonly reason: string }[];
}

/** Context of {@link gateMemoryUpdate}. */
export interface WriteGateContext {
  readonly settings: MemorySettings;
  readonly signals?: ReadonlySet<MemorySignal>;
  /** The conversation the facts come from. */
  readonly threadId?: string;
  readonly now?: Date;
}

const text = (v: unknown): string => (typeof v === "string" ? v : "");

function sectionText(result: SectionUpdateResult | undefined): string | undefined {
  if (result === undefined || result === null || typeof result !== "object") return undefined;
  if (result.shouldUpdate !== true || result.scope !== "user" || result.authority !== "descriptive") return undefined;
  if (typeof result.summary !== "string") return undefined;
  const summary = stripUploadSentences(result.summary);
  return summary === "" ? undefined : summary;
}

/**
 * @param result - the model's answer (any shape; malformed parts are ignored)
 * @param current - the scope's memory before the update
 * @param context - settings, detected signals, thread, clock
 * @returns the plan
 */
export function gateMemoryUpdate(
  result: MemoryUpdateResult,
  current: MemoryDocument,
  context: WriteGateContext,
): MemoryWritePlan {
  const { settings } = context;
  const now = context.now ?? new Date();
  const rejected: { what: string; reason: string }[] = [];
  const reject = (what: string, reason: string): void => void rejected.push({ what, reason });

  const user: Partial<Record<(typeof USER_SECTIONS)[number], string>> = {};
  for (const k of USER_SECTIONS) {
    const t = sectionText(result.user?.[k]);
    if (t !== undefined) user[k] = t;
  }
  const history: Partial<Record<(typeof HISTORY_SECTIONS)[number], string>> = {};
  for (const k of HISTORY_SECTIONS) {
    const t = sectionText(result.history?.[k]);
    if (t !== undefined) history[k] = t;
  }

  const existing = new Map(current.facts.map((f) => [f.id, f]));
  const stale = new Set(staleCandidates(current.facts, settings, now).map((f) => f.id));

  const remove = new Set<string>();
  for (const r of result.factsToRemove ?? []) {
    const id = text(r?.id);
    if (!existing.has(id)) reject(id, "unknown fact");
    else if (r.scope !== "user") reject(id, "removal not user-scoped");
    else remove.add(id);
  }
  let staleRemovals = 0;
  for (const r of result.staleFactsToRemove ?? []) {
    const id = text(r?.id);
    if (!stale.has(id)) reject(id, "not stale");
    else if (staleRemovals >= settings.stalenessMaxRemovalsPerCycle) reject(id, "stale removals per cycle reached");
    else if (!remove.has(id)) {
      remove.add(id);
      staleRemovals++;
    }
  }

  const update: PlannedUpdate[] = [];
  const nowIso = now.toISOString();
  if (context.signals?.has("reinforcement") === true) {
    for (const r of result.factsToReinforce ?? []) {
      const fact = existing.get(text(r?.id));
      if (fact === undefined || remove.has(fact.id)) continue;
      update.push({
        id: fact.id,
        patch: { lastConfirmedAt: nowIso, confirmationCount: (fact.confirmationCount ?? 0) + 1 },
      });
    }
  } else if ((result.factsToReinforce ?? []).length > 0) reject("factsToReinforce", "no reinforcement signal");
  const maxDays = maxValidDays(settings);
  for (const r of result.staleFactsToExtend ?? []) {
    const fact = existing.get(text(r?.id));
    const by = r?.extend_by_days;
    if (fact === undefined || !stale.has(fact.id) || remove.has(fact.id)) continue;
    if (typeof by !== "number" || !Number.isInteger(by) || by < 1) continue;
    const extend = Math.min(by, settings.stalenessMaxExtensionDays);
    const days = Math.min(daysSince(fact.lastConfirmedAt ?? fact.createdAt, now) + extend, maxDays);
    update.push({ id: fact.id, patch: { expectedValidDays: Math.max(1, days) } });
  }

  const seen = new Set(current.facts.filter((f) => !remove.has(f.id)).map((f) => factKey(f.content)));
  const add: NewFact[] = [];
  for (const f of result.newFacts ?? []) {
    const content = text(f?.content).trim();
    if (content === "") {
      reject("", "empty content");
      continue;
    }
    if (f.scope !== "user" || f.durability !== "durable" || f.authority !== "descriptive") {
      reject(content, "not a user-scoped, durable, descriptive fact");
      continue;
    }
    const confidence = typeof f.confidence === "number" ? f.confidence : Number.NaN;
    if (!(confidence >= settings.factConfidenceThreshold && confidence <= 1)) {
      reject(content, "below the confidence threshold");
      continue;
    }
    if (mentionsUpload(content)) {
      reject(content, "mentions an upload");
      continue;
    }
    const key = factKey(content);
    if (seen.has(key)) {
      reject(content, "duplicate");
      continue;
    }
    seen.add(key);
    const category: FactCategory = FACT_CATEGORIES.includes(f.category as FactCategory)
      ? (f.category as FactCategory)
      : "other";
    const days = f.expected_valid_days;
    const sourceError = text(f.sourceError).trim();
    add.push({
      content,
      category,
      confidence,
      source:
        context.threadId === undefined
          ? { type: "conversation" }
          : { type: "conversation", threadId: context.threadId },
      ...(typeof days === "number" && Number.isInteger(days) && days >= 1
        ? { expectedValidDays: Math.min(days, maxDays) }
        : {}),
      ...(sourceError === "" ? {} : { sourceError }),
    });
  }
  return { summaries: { user, history }, add, remove: [...remove], update, rejected };
}
