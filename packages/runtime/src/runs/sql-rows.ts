/**
 * Mapping of `threads` / `runs` SQL rows (PostgreSQL and SQLite) to records. Tolerates pools whose type
 * parsers were changed globally (timestamps or jsonb arriving as strings).
 */
import type {
  RunKwargs,
  RunRecord,
  ThreadRecord,
  CancelAction,
  DisconnectMode,
  MultitaskStrategy,
  RunStatus,
  ThreadStatus,
} from "./types.js";

/** A `threads` row as returned by `SELECT *`. */
export interface ThreadRow {
  thread_id: string;
  status: string;
  metadata: unknown;
  created_at: Date | string;
  updated_at: Date | string;
}

/** A `runs` row as returned by `SELECT *`. */
export interface RunRow {
  run_id: string;
  thread_id: string;
  /** bigint, as a string. */
  seq: string;
  assistant_id: string;
  status: string;
  multitask_strategy: string;
  on_disconnect: string;
  metadata: unknown;
  kwargs: unknown;
  created_at: Date | string;
  updated_at: Date | string;
  started_at: Date | string | null;
  ended_at: Date | string | null;
  error: string | null;
  stop_reason: string | null;
  owner_id: string | null;
  cancel_action: string | null;
}

/** A timestamptz as an ISO-8601 UTC string. */
export function isoTimestamp(value: Date | string): string {
  return (typeof value === "string" ? new Date(value) : value).toISOString();
}

/** {@link isoTimestamp}, keeping null. */
export function isoOrNull(value: Date | string | null): string | null {
  return value === null ? null : isoTimestamp(value);
}

/** A JSON column (`jsonb` arrives parsed, SQLite text does not) as a value. */
export function json<T>(value: unknown): T {
  return (typeof value === "string" ? JSON.parse(value) : value) as T;
}

/** Maps a `threads` row. */
export function toThreadRecord(row: ThreadRow): ThreadRecord {
  return {
    threadId: row.thread_id,
    status: row.status as ThreadStatus,
    metadata: json<Record<string, unknown>>(row.metadata),
    createdAt: isoTimestamp(row.created_at),
    updatedAt: isoTimestamp(row.updated_at),
  };
}

/** Maps a `runs` row (the internal `seq` is dropped). */
export function toRunRecord(row: RunRow): RunRecord {
  return {
    runId: row.run_id,
    threadId: row.thread_id,
    assistantId: row.assistant_id,
    status: row.status as RunStatus,
    multitaskStrategy: row.multitask_strategy as MultitaskStrategy,
    onDisconnect: row.on_disconnect as DisconnectMode,
    metadata: json<Record<string, unknown>>(row.metadata),
    kwargs: json<RunKwargs>(row.kwargs),
    createdAt: isoTimestamp(row.created_at),
    updatedAt: isoTimestamp(row.updated_at),
    startedAt: isoOrNull(row.started_at),
    endedAt: isoOrNull(row.ended_at),
    error: row.error,
    stopReason: row.stop_reason,
    ownerId: row.owner_id,
    cancelAction: row.cancel_action as CancelAction | null,
  };
}

/** Orders rows by creation (`seq` is a bigint string, so compare as BigInt). */
export function bySeq(a: RunRow, b: RunRow): number {
  const d = BigInt(a.seq) - BigInt(b.seq);
  return d < 0n ? -1 : d > 0n ? 1 : 0;
}
