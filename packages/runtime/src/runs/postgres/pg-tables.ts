/**
 * The tables of a `PostgresRunStore` and the statements its operations share.
 *
 * Cross-process atomicity comes from one rule: every operation that changes
 * which runs of a thread are active, or starts one, first locks the thread row
 * (`SELECT ... FOR UPDATE`, {@link PgTables.lockThread} or
 * {@link PgTables.lockThreadOfRun}) and only then reads and writes that
 * thread's runs. Locks are always taken thread first, run second, so these
 * transactions cannot deadlock one another.
 */
import type { Logger } from "../../logger.js";
import type { ThreadStatus } from "../types.js";
import type { ThreadRow } from "../sql-rows.js";
import { one, type PgDatabase, type Queryable } from "./pg-database.js";
import { quoteSchema } from "./schema.js";

/** SQL list of the active run statuses. */
export const ACTIVE = "('pending', 'running')";
/** SQL list of the terminal run statuses. */
export const TERMINAL = "('success', 'error', 'timeout', 'interrupted')";

/** What the store's thread and run operations share. */
export interface PgStoreParts {
  readonly db: PgDatabase;
  readonly tables: PgTables;
  readonly logger: Logger;
  /** The store's clock as an ISO-8601 string. */
  now(): string;
}

/** The schema-qualified tables, and the statements shared by the operations. */
export class PgTables {
  /** `schema.threads`, quoted. */
  readonly threads: string;
  /** `schema.runs`, quoted. */
  readonly runs: string;

  /**
   * @param schema - a lowercase identifier
   * @throws RuntimeError `CONFIG_INVALID` for an unsafe schema name.
   */
  constructor(schema: string) {
    const s = quoteSchema(schema);
    this.threads = `${s}.threads`;
    this.runs = `${s}.runs`;
  }

  /** Inserts an idle thread unless the id is taken; returns the new row or undefined. */
  async insertThread(
    c: Queryable,
    threadId: string,
    metadataJson: string,
    now: string,
  ): Promise<ThreadRow | undefined> {
    return one<ThreadRow>(
      c,
      `INSERT INTO ${this.threads} (thread_id, status, metadata, created_at, updated_at)
       VALUES ($1, 'idle', $2::jsonb, $3::timestamptz, $3::timestamptz)
       ON CONFLICT (thread_id) DO NOTHING RETURNING *`,
      [threadId, metadataJson, now],
    );
  }

  /** Locks the thread row until commit; false when the thread does not exist. */
  async lockThread(c: Queryable, threadId: string): Promise<boolean> {
    const { rowCount } = await c.query(`SELECT 1 FROM ${this.threads} WHERE thread_id = $1 FOR UPDATE`, [threadId]);
    return rowCount === 1;
  }

  /** Locks the thread row of a run (a run never changes thread); its id, or null when the run is missing. */
  async lockThreadOfRun(c: Queryable, runId: string): Promise<string | null> {
    const row = await one<{ thread_id: string }>(
      c,
      `SELECT t.thread_id FROM ${this.threads} t WHERE t.thread_id = (SELECT r.thread_id FROM ${this.runs} r WHERE r.run_id = $1) FOR UPDATE OF t`,
      [runId],
    );
    return row?.thread_id ?? null;
  }

  /** Ids of the thread's active runs, oldest first. */
  async activeRunIds(c: Queryable, threadId: string): Promise<string[]> {
    const { rows } = await c.query<{ run_id: string }>(
      `SELECT run_id FROM ${this.runs} WHERE thread_id = $1 AND status IN ${ACTIVE} ORDER BY seq`,
      [threadId],
    );
    return rows.map((r) => r.run_id);
  }

  /** After a run ended (under the thread lock): busy while another run is active, else `requested`. */
  async settleThread(c: Queryable, threadId: string, requested: ThreadStatus, now: string): Promise<void> {
    await c.query(
      `UPDATE ${this.threads}
       SET status = CASE WHEN EXISTS (SELECT 1 FROM ${this.runs} WHERE thread_id = $1 AND status IN ${ACTIVE}) THEN 'busy' ELSE $2::text END,
           updated_at = $3::timestamptz
       WHERE thread_id = $1`,
      [threadId, requested, now],
    );
  }
}
