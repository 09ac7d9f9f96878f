/**
 * Input checks and rules shared by every run store, so that the memory,
 * SQLite and PostgreSQL stores accept, reject and normalise exactly the same
 * values. Everything here is pure.
 */
import { RuntimeError } from "../errors.js";
import type { AdmitRunInput, CreateThreadInput, FinishRunInput, RunListQuery, ThreadPatch } from "./run-store.js";
import type { CancelAction, RunStatus, ThreadStatus } from "./types.js";

/** `error` of a `pending` run that an `interrupt`/`rollback` admission superseded. */
export const SUPERSEDED_RUN_ERROR = "Cancelled by newer run";

/** Page size when a query gives no `limit` (LangGraph's default). */
const DEFAULT_PAGE_LIMIT = 10;

/** Largest accepted `limit`. */
const MAX_PAGE_LIMIT = 1000;

const RUN_STATUSES: ReadonlySet<string> = new Set<RunStatus>([
  "pending",
  "running",
  "success",
  "error",
  "timeout",
  "interrupted",
]);
const THREAD_STATUSES: ReadonlySet<string> = new Set<ThreadStatus>(["idle", "busy", "interrupted", "error"]);
const STRATEGIES: ReadonlySet<string> = new Set(["reject", "interrupt", "rollback", "enqueue"]);
const DISCONNECT_MODES: ReadonlySet<string> = new Set(["cancel", "continue"]);
const CANCEL_ACTIONS: ReadonlySet<string> = new Set<CancelAction>(["interrupt", "rollback"]);

function invalid(message: string, details?: Record<string, unknown>): RuntimeError {
  return new RuntimeError("INVALID_ARGUMENT", message, details === undefined ? undefined : { details });
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * A string PostgreSQL can store as `text` and `jsonb`: no NUL character and no
 * lone UTF-16 surrogate (both are rejected by PostgreSQL, so the memory store
 * rejects them too).
 */
function isStorableString(value: string): boolean {
  return !value.includes("\u0000") && !LONE_SURROGATE.test(value);
}

/**
 * Checks a thread, run or owner id: a non-empty storable string.
 *
 * @throws RuntimeError `INVALID_ARGUMENT` naming `field` and the value.
 */
export function checkId(value: unknown, field: string): string {
  if (typeof value !== "string" || value.length === 0 || !isStorableString(value)) {
    throw invalid(
      `${field} must be a non-empty string without NUL characters, got ${JSON.stringify(value) ?? String(value)}`,
      { field },
    );
  }
  return value;
}

function checkStorableJson(value: unknown, field: string, path: string): void {
  if (typeof value === "string") {
    if (!isStorableString(value))
      throw invalid(`${field} contains a string with a NUL character or a lone surrogate at ${path}`, { field, path });
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, i) => checkStorableJson(item, field, `${path}[${i}]`));
    return;
  }
  if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      if (!isStorableString(key))
        throw invalid(`${field} has a key with a NUL character or a lone surrogate at ${path}`, { field, path });
      checkStorableJson(item, field, `${path}.${key}`);
    }
  }
}

/**
 * Normalises a JSON object the way storing it as `jsonb` would: a JSON round
 * trip (drops `undefined`, turns `Date`s into strings, ...). The result shares
 * nothing with the input, so later caller mutations cannot reach the store.
 *
 * @throws RuntimeError `INVALID_ARGUMENT` when `value` is not a plain JSON
 *   object, cannot be serialised (cycles, BigInt) or holds an unstorable string.
 */
export function toJsonObject(value: unknown, field: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw invalid(
      `${field} must be a JSON object, got ${value === null ? "null" : Array.isArray(value) ? "an array" : typeof value}`,
      { field },
    );
  }
  let text: string;
  try {
    text = JSON.stringify(value);
  } catch (cause) {
    throw new RuntimeError("INVALID_ARGUMENT", `${field} is not JSON-serialisable: ${(cause as Error).message}`, {
      cause,
      details: { field },
    });
  }
  const parsed = JSON.parse(text) as unknown;
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw invalid(`${field} must serialise to a JSON object`, { field });
  }
  checkStorableJson(parsed, field, field);
  return parsed as Record<string, unknown>;
}

/** @throws RuntimeError `INVALID_ARGUMENT` for an unknown run status. */
function checkRunStatus(value: unknown, field: string): RunStatus {
  if (typeof value !== "string" || !RUN_STATUSES.has(value))
    throw invalid(`${field} must be a run status, got ${JSON.stringify(value) ?? String(value)}`, { field });
  return value as RunStatus;
}

/** @throws RuntimeError `INVALID_ARGUMENT` for an unknown thread status. */
export function checkThreadStatus(value: unknown, field: string): ThreadStatus {
  if (typeof value !== "string" || !THREAD_STATUSES.has(value))
    throw invalid(`${field} must be a thread status, got ${JSON.stringify(value) ?? String(value)}`, { field });
  return value as ThreadStatus;
}

/** @throws RuntimeError `INVALID_ARGUMENT` for an unknown cancel action. */
export function checkCancelAction(value: unknown): CancelAction {
  if (typeof value !== "string" || !CANCEL_ACTIONS.has(value))
    throw invalid(`cancel action must be "interrupt" or "rollback", got ${JSON.stringify(value) ?? String(value)}`);
  return value as CancelAction;
}

/** A {@link CreateThreadInput} after validation, defaults applied. */
export interface CheckedCreateThreadInput {
  threadId: string;
  metadata: Record<string, unknown>;
  ifExists: "raise" | "do_nothing";
}

/**
 * Validates a thread creation.
 *
 * @throws RuntimeError `INVALID_ARGUMENT` naming the first bad field.
 */
export function checkCreateThreadInput(input: CreateThreadInput): CheckedCreateThreadInput {
  const threadId = checkId(input.threadId, "threadId");
  const metadata = input.metadata === undefined ? {} : toJsonObject(input.metadata, "metadata");
  const ifExists = input.ifExists ?? "raise";
  if (ifExists !== "raise" && ifExists !== "do_nothing")
    throw invalid(`ifExists must be "raise" or "do_nothing", got ${JSON.stringify(ifExists)}`);
  return { threadId, metadata, ifExists };
}

/**
 * Validates a thread update; what is undefined is kept.
 *
 * @throws RuntimeError `INVALID_ARGUMENT` naming the first bad field.
 */
export function checkThreadPatch(patch: ThreadPatch): {
  metadata: Record<string, unknown> | undefined;
  status: ThreadStatus | undefined;
} {
  const metadata = patch.metadata === undefined ? undefined : toJsonObject(patch.metadata, "metadata");
  const status = patch.status === undefined ? undefined : checkThreadStatus(patch.status, "status");
  return { metadata, status };
}

/**
 * Validates the ids of an owner change (`expectedOwnerId` null: the run has no owner yet).
 *
 * @throws RuntimeError `INVALID_ARGUMENT` naming the first bad id.
 */
export function checkOwnerChange(runId: string, expectedOwnerId: string | null, ownerId: string): void {
  checkId(runId, "runId");
  if (expectedOwnerId !== null) checkId(expectedOwnerId, "expectedOwnerId");
  checkId(ownerId, "ownerId");
}

/** An {@link AdmitRunInput} after validation, with metadata and kwargs normalised. */
export type CheckedAdmitRunInput = Omit<AdmitRunInput, "threadMetadata" | "threadMetadataUpdate"> & {
  threadMetadata: Record<string, unknown>;
  threadMetadataUpdate: Record<string, unknown> | undefined;
};

/**
 * Validates an admission before anything is read or written.
 *
 * @throws RuntimeError `INVALID_ARGUMENT` naming the first bad field.
 */
export function checkAdmitRunInput(input: AdmitRunInput): CheckedAdmitRunInput {
  if (typeof input !== "object" || input === null) throw invalid("admitRun input must be an object");
  const pick = <T extends string>(value: unknown, allowed: ReadonlySet<string>, field: string): T => {
    if (typeof value !== "string" || !allowed.has(value)) {
      throw invalid(
        `${field} must be one of ${[...allowed].join(", ")}, got ${JSON.stringify(value) ?? String(value)}`,
        { field },
      );
    }
    return value as T;
  };
  return {
    runId: checkId(input.runId, "runId"),
    threadId: checkId(input.threadId, "threadId"),
    assistantId: checkId(input.assistantId, "assistantId"),
    multitaskStrategy: pick(input.multitaskStrategy, STRATEGIES, "multitaskStrategy"),
    onDisconnect: pick(input.onDisconnect, DISCONNECT_MODES, "onDisconnect"),
    metadata: toJsonObject(input.metadata, "metadata"),
    kwargs: toJsonObject(input.kwargs, "kwargs") as unknown as AdmitRunInput["kwargs"],
    ownerId: checkId(input.ownerId, "ownerId"),
    ifNotExists: pick(input.ifNotExists, new Set(["create", "reject"]), "ifNotExists"),
    threadMetadata: input.threadMetadata === undefined ? {} : toJsonObject(input.threadMetadata, "threadMetadata"),
    threadMetadataUpdate:
      input.threadMetadataUpdate === undefined
        ? undefined
        : toJsonObject(input.threadMetadataUpdate, "threadMetadataUpdate"),
  };
}

/** A {@link FinishRunInput} after validation; `undefined` error/stopReason mean "keep the stored value". */
export interface CheckedFinishRunInput {
  status: FinishRunInput["status"];
  error: string | null | undefined;
  stopReason: string | null | undefined;
  /** Keys to set in the run's metadata; `undefined`: none. */
  metadata: Record<string, unknown> | undefined;
  threadStatus: ThreadStatus;
  expectStatus: RunStatus[];
}

function optionalText(value: unknown, field: string): string | null | undefined {
  if (value === undefined || value === null) return value;
  if (typeof value !== "string" || !isStorableString(value))
    throw invalid(`${field} must be a string without NUL characters or null`, { field });
  return value;
}

/**
 * Validates a terminal update.
 *
 * @throws RuntimeError `INVALID_ARGUMENT` when `status` is not terminal, or a field is malformed.
 */
export function checkFinishRunInput(input: FinishRunInput): CheckedFinishRunInput {
  if (typeof input !== "object" || input === null) throw invalid("finishRun input must be an object");
  const status = checkRunStatus(input.status, "status");
  if (status === "pending" || status === "running")
    throw invalid(`finishRun status must be terminal, got "${status}"`, { field: "status" });
  const expect = input.expectStatus ?? ["pending", "running"];
  if (!Array.isArray(expect)) throw invalid("expectStatus must be an array of run statuses", { field: "expectStatus" });
  return {
    status,
    error: optionalText(input.error, "error"),
    stopReason: optionalText(input.stopReason, "stopReason"),
    metadata: input.metadata === undefined ? undefined : toJsonObject(input.metadata, "metadata"),
    threadStatus: checkThreadStatus(input.threadStatus, "threadStatus"),
    expectStatus: expect.map((s, i) => checkRunStatus(s, `expectStatus[${i}]`)),
  };
}

/**
 * Validates `limit`/`offset` and applies the defaults (10 and 0).
 *
 * @throws RuntimeError `INVALID_ARGUMENT` when `limit` is outside 1..1000 or
 *   `offset` is negative or not an integer.
 */
export function checkPage(query: { limit?: number; offset?: number }): { limit: number; offset: number } {
  const limit = query.limit ?? DEFAULT_PAGE_LIMIT;
  const offset = query.offset ?? 0;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_LIMIT) {
    throw invalid(`limit must be an integer from 1 to ${MAX_PAGE_LIMIT}, got ${String(limit)}`, { field: "limit" });
  }
  if (!Number.isSafeInteger(offset) || offset < 0)
    throw invalid(`offset must be a non-negative integer, got ${String(offset)}`, { field: "offset" });
  return { limit, offset };
}

/** Validates a {@link RunListQuery}; `status` undefined means every status. */
export function checkRunListQuery(query: RunListQuery | undefined): {
  status: RunStatus | undefined;
  limit: number;
  offset: number;
} {
  const q = query ?? {};
  return { status: q.status === undefined ? undefined : checkRunStatus(q.status, "status"), ...checkPage(q) };
}

/**
 * Validates a retention cutoff.
 *
 * @throws RuntimeError `INVALID_ARGUMENT` for anything but a valid `Date`.
 */
export function checkCutoff(value: unknown): Date {
  if (Object.prototype.toString.call(value) !== "[object Date]" || Number.isNaN((value as Date).getTime()))
    throw invalid(`endedBefore must be a valid Date, got ${String(value)}`, { field: "endedBefore" });
  return value as Date;
}

/**
 * The thread status after one of its runs ended: `busy` while another run on the
 * thread is still active, else what the caller asked for.
 */
export function threadStatusAfterRun(otherRunActive: boolean, requested: ThreadStatus): ThreadStatus {
  return otherRunActive ? "busy" : requested;
}
