/** The rows of `SqliteRunStore` and the statements its operations share. */
import type { Logger } from "../../logger.js";
import type { RunRow, ThreadRow } from "../sql-rows.js";
import { threadStatusAfterRun } from "../store-input.js";
import type { ThreadStatus } from "../types.js";
import type { SqliteDatabase } from "./sqlite-database.js";
import { THREAD_FILTER_SQL, threadFilterParams, type ThreadFilter } from "./thread-filter.js";

/** SQL list of the active run statuses. */
export const ACTIVE = "('pending', 'running')";
/** SQL list of the terminal run statuses. */
export const TERMINAL = "('success', 'error', 'timeout', 'interrupted')";

/**
 * Run columns in the shape of the PostgreSQL row (`seq` as a string), so both
 * stores share the mapping. The alias shadows the column in ORDER BY: order by
 * a qualified `r.seq`, never a bare `seq` (that would sort text).
 */
export const RUN = `run_id, thread_id, CAST(seq AS TEXT) AS seq, assistant_id, status, multitask_strategy, on_disconnect, metadata, kwargs,
  created_at, updated_at, started_at, ended_at, error, stop_reason, owner_id, cancel_action`;

/** What the store's thread and run operations share. */
export interface SqliteStoreParts {
  readonly db: SqliteDatabase;
  readonly tables: SqliteTables;
  readonly logger: Logger;
  /** The store's clock as an ISO-8601 string. */
  now(): string;
}

/** Reads and writes of rows that several operations need; called inside their transaction. */
export class SqliteTables {
  constructor(private readonly db: SqliteDatabase) {}

  threadRow(threadId: string): ThreadRow | undefined {
    return this.db.get<ThreadRow>(`SELECT * FROM threads WHERE thread_id = ?`, threadId);
  }

  runRow(runId: string): RunRow | undefined {
    return this.db.get<RunRow>(`SELECT ${RUN} FROM runs WHERE run_id = ?`, runId);
  }

  /** Every thread passing the SQL narrowing of `filter`, in no particular order. */
  candidates(filter: ThreadFilter): IterableIterator<ThreadRow> {
    return this.db
      .prepare(`SELECT * FROM threads t WHERE ${THREAD_FILTER_SQL}`)
      .iterate(threadFilterParams(filter)) as IterableIterator<ThreadRow>;
  }

  insertThread(threadId: string, metadataJson: string, now: string): ThreadRow {
    return this.db.get<ThreadRow>(
      `INSERT INTO threads (thread_id, status, metadata, created_at, updated_at) VALUES (?, 'idle', ?, ?, ?) RETURNING *`,
      threadId,
      metadataJson,
      now,
      now,
    )!;
  }

  /** Ids of the thread's active runs, oldest first. */
  activeRunIds(threadId: string): string[] {
    return this.db
      .all<{ run_id: string }>(
        `SELECT run_id FROM runs WHERE thread_id = ? AND status IN ${ACTIVE} ORDER BY seq`,
        threadId,
      )
      .map((r) => r.run_id);
  }

  /** After a run ended (inside the transaction): busy while another run is active, else `requested`. */
  settleThread(threadId: string, requested: ThreadStatus, now: string): void {
    const status = threadStatusAfterRun(this.activeRunIds(threadId).length > 0, requested);
    this.db.run(`UPDATE threads SET status = ?, updated_at = ? WHERE thread_id = ?`, status, now, threadId);
  }
}
