/**
 * `PostgresRunStore`: the run store shared by every instance of a deployment.
 *
 * Cross-process atomicity comes from one rule: every operation that changes
 * which runs of a thread are active, or starts one, first locks the thread row
 * (`SELECT ... FOR UPDATE`) and only then reads and writes that thread's runs.
 * Locks are always taken thread first, run second, so these transactions
 * cannot deadlock one another; PostgreSQL's own deadlock and serialization
 * aborts are retried anyway.
 */
import pg from "pg";
import type { Pool, PoolClient, PoolConfig, QueryResultRow } from "pg";
import { RuntimeError } from "../../errors.js";
import { silentLogger, type Logger } from "../../logger.js";
import type {
  AdmitRunInput,
  AdmitRunResult,
  FinishRunInput,
  RunListQuery,
  RunStore,
  ThreadSearchQuery,
  TryStartOutcome,
} from "../run-store.js";
import {
  checkAdmitRunInput,
  checkCancelAction,
  checkCutoff,
  checkFinishRunInput,
  checkId,
  checkRunListQuery,
  checkThreadStatus,
  runIdTaken,
  SUPERSEDED_RUN_ERROR,
  threadAlreadyActive,
  threadHasActiveRuns,
  threadNotFound,
  runStillActive,
  toJsonObject,
} from "../store-input.js";
import { checkThreadFilter, checkThreadSearch, type CheckedThreadSearch, type ThreadSortField } from "../thread-search.js";
import type { CancelAction, RunRecord, ThreadRecord, ThreadStatus } from "../types.js";
import { isConflict, isConnectionError, isUniqueViolation, toStoreError } from "./pg-errors.js";
import { bySeq, toRunRecord, toThreadRecord, type RunRow, type ThreadRow } from "../sql-rows.js";
import { DEFAULT_SCHEMA, migrate, quoteSchema } from "./schema.js";

/** Where the store gets its connections. */
export type PostgresRunStoreConnection =
  /** A pool owned by the caller: `close()` leaves it open; attach your own `error` listener. */
  | { pool: Pool; connectionString?: never; poolConfig?: never }
  /** A pool created (and closed) by the store. */
  | { connectionString: string; pool?: never; poolConfig?: Omit<PoolConfig, "connectionString"> };

/** Options of {@link PostgresRunStore}. */
export type PostgresRunStoreOptions = PostgresRunStoreConnection & {
  /** Schema holding the tables; a lowercase identifier. Default `"deerflow"`. */
  schema?: string;
  logger?: Logger;
  /**
   * Clock for the timestamps the store writes. Default: this process's clock.
   * Creation order never depends on it (a database sequence orders runs).
   */
  now?: () => Date;
  /** Attempts per operation for deadlocks, serialization failures and dropped connections. Default 5. */
  maxAttempts?: number;
};

const ACTIVE = "('pending', 'running')";
const TERMINAL = "('success', 'error', 'timeout', 'interrupted')";

const SORT_COLUMNS: Record<ThreadSortField, string> = {
  // COLLATE "C": code point order whatever the database's collation, like the memory store.
  threadId: `thread_id COLLATE "C"`,
  status: `status COLLATE "C"`,
  createdAt: "created_at",
  updatedAt: "updated_at",
};

type Queryable = Pick<PoolClient, "query">;

/**
 * A {@link RunStore} on PostgreSQL (`pg`), safe to share between many server
 * instances. Call {@link PostgresRunStore.setup} once per process before use.
 *
 * @example
 * ```ts
 * const store = new PostgresRunStore({ connectionString: process.env.DATABASE_URL!, schema: "deerflow" });
 * await store.setup();
 * const { run, superseded } = await store.admitRun({ ...input, multitaskStrategy: "interrupt" });
 * ```
 */
export class PostgresRunStore implements RunStore {
  /** The schema holding the tables. */
  readonly schema: string;
  private readonly pool: Pool;
  private readonly ownsPool: boolean;
  private readonly logger: Logger;
  private readonly clock: () => Date;
  private readonly maxAttempts: number;
  private readonly threads: string;
  private readonly runs: string;
  private closed = false;

  /**
   * @param options - a pool or a connection string, plus schema, logger, clock.
   * @throws RuntimeError `CONFIG_INVALID` for an unsafe schema name, both or neither of
   *   `pool` / `connectionString`, or a bad `maxAttempts`.
   */
  constructor(options: PostgresRunStoreOptions) {
    if (typeof options !== "object" || options === null) throw new RuntimeError("CONFIG_INVALID", "PostgresRunStore needs options with a pool or a connectionString");
    const hasPool = options.pool !== undefined;
    const hasUrl = options.connectionString !== undefined;
    if (hasPool === hasUrl) throw new RuntimeError("CONFIG_INVALID", "PostgresRunStore needs exactly one of `pool` and `connectionString`");
    if (hasUrl && (typeof options.connectionString !== "string" || options.connectionString.length === 0)) {
      throw new RuntimeError("CONFIG_INVALID", "PostgresRunStore connectionString must be a non-empty string");
    }
    this.schema = options.schema ?? DEFAULT_SCHEMA;
    const s = quoteSchema(this.schema);
    this.threads = `${s}.threads`;
    this.runs = `${s}.runs`;
    const maxAttempts = options.maxAttempts ?? 5;
    if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new RuntimeError("CONFIG_INVALID", `PostgresRunStore maxAttempts must be a positive integer, got ${String(maxAttempts)}`);
    this.maxAttempts = maxAttempts;
    this.logger = options.logger ?? silentLogger;
    this.clock = options.now ?? (() => new Date());
    if (options.pool !== undefined) {
      this.pool = options.pool;
      this.ownsPool = false;
    } else {
      this.pool = new pg.Pool({ connectionTimeoutMillis: 10_000, ...options.poolConfig, connectionString: options.connectionString });
      this.ownsPool = true;
      // An idle client whose server went away emits `error` on the pool; without a listener that would crash the process.
      this.pool.on("error", (err) => this.logger.warn({ err: err.message, schema: this.schema }, "idle PostgreSQL connection of the run store failed"));
    }
  }

  /**
   * Creates the schema and tables or migrates them to the current version.
   * Idempotent and safe to call from many processes at once.
   *
   * @throws RuntimeError `STORE_UNAVAILABLE` when the database cannot be reached or refuses the DDL.
   */
  async setup(): Promise<void> {
    await this.transaction("setup", (c) => migrate(c, this.schema, this.logger));
  }

  // -- threads ----------------------------------------------------------------

  /** {@inheritDoc RunStore.createThread} */
  async createThread(input: { threadId: string; metadata?: Record<string, unknown>; ifExists?: "raise" | "do_nothing" }): Promise<ThreadRecord> {
    const threadId = checkId(input.threadId, "threadId");
    const metadata = JSON.stringify(input.metadata === undefined ? {} : toJsonObject(input.metadata, "metadata"));
    const ifExists = input.ifExists ?? "raise";
    if (ifExists !== "raise" && ifExists !== "do_nothing") throw new RuntimeError("INVALID_ARGUMENT", `ifExists must be "raise" or "do_nothing", got ${JSON.stringify(ifExists)}`);
    return this.transaction("createThread", async (c) => {
      // A concurrent delete can remove the conflicting row between the two statements; then insert again.
      for (let i = 0; i < 3; i++) {
        const inserted = await this.insertThread(c, threadId, metadata);
        if (inserted) return toThreadRecord(inserted);
        if (ifExists === "raise") throw new RuntimeError("THREAD_EXISTS", `Thread ${threadId} already exists`, { details: { threadId } });
        const existing = await one<ThreadRow>(c, `SELECT * FROM ${this.threads} WHERE thread_id = $1`, [threadId]);
        if (existing) return toThreadRecord(existing);
      }
      throw new RuntimeError("STORE_UNAVAILABLE", `Thread ${threadId} was deleted and recreated concurrently; try again`, { details: { threadId } });
    });
  }

  /** {@inheritDoc RunStore.getThread} */
  async getThread(threadId: string): Promise<ThreadRecord | null> {
    checkId(threadId, "threadId");
    const rows = await this.read<ThreadRow>("getThread", `SELECT * FROM ${this.threads} WHERE thread_id = $1`, [threadId]);
    return rows[0] ? toThreadRecord(rows[0]) : null;
  }

  /** {@inheritDoc RunStore.updateThread} */
  async updateThread(threadId: string, patch: { metadata?: Record<string, unknown>; status?: ThreadStatus }): Promise<ThreadRecord> {
    checkId(threadId, "threadId");
    const metadata = patch.metadata === undefined ? null : JSON.stringify(toJsonObject(patch.metadata, "metadata"));
    const status = patch.status === undefined ? null : checkThreadStatus(patch.status, "status");
    return this.transaction("updateThread", async (c) => {
      const row = await one<ThreadRow>(
        c,
        // jsonb `||` on two objects is exactly a shallow merge.
        `UPDATE ${this.threads} SET metadata = CASE WHEN $2::jsonb IS NULL THEN metadata ELSE metadata || $2::jsonb END,
           status = coalesce($3::text, status), updated_at = $4::timestamptz
         WHERE thread_id = $1 RETURNING *`,
        [threadId, metadata, status, this.now()],
      );
      if (!row) throw threadNotFound(threadId);
      return toThreadRecord(row);
    });
  }

  /** {@inheritDoc RunStore.searchThreads} */
  async searchThreads(query?: ThreadSearchQuery): Promise<ThreadRecord[]> {
    const q = checkThreadSearch(query);
    const params: unknown[] = [];
    const where = threadWhere(q, params);
    const dir = q.sortOrder === "asc" ? "ASC" : "DESC";
    params.push(q.limit, q.offset);
    const rows = await this.read<ThreadRow>(
      "searchThreads",
      `SELECT * FROM ${this.threads} ${where}
       ORDER BY ${SORT_COLUMNS[q.sortBy]} ${dir}, thread_id COLLATE "C" ${dir}
       LIMIT $${params.length - 1} OFFSET $${params.length}`,
      params,
    );
    return rows.map(toThreadRecord);
  }

  /** {@inheritDoc RunStore.countThreads} */
  async countThreads(query?: Omit<ThreadSearchQuery, "limit" | "offset" | "sortBy" | "sortOrder">): Promise<number> {
    const filter = checkThreadFilter(query);
    const params: unknown[] = [];
    const rows = await this.read<{ count: number }>("countThreads", `SELECT count(*)::int AS count FROM ${this.threads} ${threadWhere(filter, params)}`, params);
    return rows[0]?.count ?? 0;
  }

  /** {@inheritDoc RunStore.deleteThread} */
  async deleteThread(threadId: string): Promise<boolean> {
    checkId(threadId, "threadId");
    return this.transaction("deleteThread", async (c) => {
      if (!(await this.lockThread(c, threadId))) return false;
      const activeRunIds = await this.activeRunIds(c, threadId);
      if (activeRunIds.length > 0) {
        throw threadHasActiveRuns(threadId, activeRunIds);
      }
      await c.query(`DELETE FROM ${this.threads} WHERE thread_id = $1`, [threadId]);
      return true;
    });
  }

  // -- runs -------------------------------------------------------------------

  /** {@inheritDoc RunStore.admitRun} */
  async admitRun(input: AdmitRunInput): Promise<AdmitRunResult> {
    const run = checkAdmitRunInput(input);
    return this.transaction("admitRun", async (c) => {
      let locked = false;
      // Retried because a concurrent deleteThread can win between our insert and our lock.
      for (let i = 0; i < 3 && !locked; i++) {
        if (run.ifNotExists === "create") await this.insertThread(c, run.threadId, JSON.stringify(run.threadMetadata));
        locked = await this.lockThread(c, run.threadId);
        if (run.ifNotExists === "reject") break;
      }
      if (!locked) throw threadNotFound(run.threadId);
      const now = this.now();

      let superseded: RunRecord[] = [];
      if (run.multitaskStrategy === "reject") {
        const activeRunIds = await this.activeRunIds(c, run.threadId);
        if (activeRunIds.length > 0) {
          throw threadAlreadyActive(run.threadId, activeRunIds);
        }
      } else if (run.multitaskStrategy === "interrupt" || run.multitaskStrategy === "rollback") {
        // SET expressions see the old row: pending runs end now, running ones get the first cancel request.
        const { rows } = await c.query<RunRow>(
          `UPDATE ${this.runs} SET
             status = CASE WHEN status = 'pending' THEN 'interrupted' ELSE status END,
             error = CASE WHEN status = 'pending' THEN $2 ELSE error END,
             ended_at = CASE WHEN status = 'pending' THEN $3::timestamptz ELSE ended_at END,
             cancel_action = CASE WHEN status = 'running' THEN coalesce(cancel_action, $4) ELSE cancel_action END,
             updated_at = CASE WHEN status = 'pending' OR cancel_action IS NULL THEN $3::timestamptz ELSE updated_at END
           WHERE thread_id = $1 AND status IN ${ACTIVE}
           RETURNING *`,
          [run.threadId, SUPERSEDED_RUN_ERROR, now, run.multitaskStrategy],
        );
        superseded = rows.sort(bySeq).map(toRunRecord);
      }

      let inserted: RunRow;
      try {
        inserted = (
          await c.query<RunRow>(
            `INSERT INTO ${this.runs} (run_id, thread_id, assistant_id, status, multitask_strategy, on_disconnect,
               metadata, kwargs, created_at, updated_at, owner_id)
             VALUES ($1, $2, $3, 'pending', $4, $5, $6::jsonb, $7::jsonb, $8::timestamptz, $8::timestamptz, $9)
             RETURNING *`,
            [run.runId, run.threadId, run.assistantId, run.multitaskStrategy, run.onDisconnect, JSON.stringify(run.metadata), JSON.stringify(run.kwargs), now, run.ownerId],
          )
        ).rows[0]!;
      } catch (err) {
        if (isUniqueViolation(err, "runs_pkey")) throw runIdTaken(run.runId);
        throw err;
      }
      const thread = await one<ThreadRow>(c, `UPDATE ${this.threads} SET status = 'busy', updated_at = $2::timestamptz WHERE thread_id = $1 RETURNING *`, [run.threadId, now]);
      this.logger.debug({ runId: run.runId, threadId: run.threadId, superseded: superseded.length }, "run admitted");
      return { run: toRunRecord(inserted), superseded, thread: toThreadRecord(thread!) };
    });
  }

  /** {@inheritDoc RunStore.getRun} */
  async getRun(runId: string): Promise<RunRecord | null> {
    checkId(runId, "runId");
    const rows = await this.read<RunRow>("getRun", `SELECT * FROM ${this.runs} WHERE run_id = $1`, [runId]);
    return rows[0] ? toRunRecord(rows[0]) : null;
  }

  /** {@inheritDoc RunStore.listRuns} */
  async listRuns(threadId: string, query?: RunListQuery): Promise<RunRecord[]> {
    checkId(threadId, "threadId");
    const { status, limit, offset } = checkRunListQuery(query);
    const rows = await this.read<RunRow>(
      "listRuns",
      `SELECT * FROM ${this.runs} WHERE thread_id = $1 AND ($2::text IS NULL OR status = $2::text)
       ORDER BY seq DESC LIMIT $3 OFFSET $4`,
      [threadId, status ?? null, limit, offset],
    );
    return rows.map(toRunRecord);
  }

  /** {@inheritDoc RunStore.listActiveRuns} */
  async listActiveRuns(query?: { ownerId?: string }): Promise<RunRecord[]> {
    const ownerId = query?.ownerId === undefined ? null : checkId(query.ownerId, "ownerId");
    const rows = await this.read<RunRow>(
      "listActiveRuns",
      `SELECT * FROM ${this.runs} WHERE status IN ${ACTIVE} AND ($1::text IS NULL OR owner_id = $1::text) ORDER BY seq`,
      [ownerId],
    );
    return rows.map(toRunRecord);
  }

  /** {@inheritDoc RunStore.tryStartRun} */
  async tryStartRun(runId: string): Promise<TryStartOutcome> {
    checkId(runId, "runId");
    return this.transaction("tryStartRun", async (c): Promise<TryStartOutcome> => {
      if (!(await this.lockThreadOfRun(c, runId))) return { outcome: "missing" };
      const row = await one<RunRow & { blocked_by: string | null }>(
        c,
        `SELECT r.*, (SELECT b.run_id FROM ${this.runs} b
                       WHERE b.thread_id = r.thread_id AND b.status IN ${ACTIVE} AND b.seq < r.seq
                       ORDER BY b.seq LIMIT 1) AS blocked_by
         FROM ${this.runs} r WHERE r.run_id = $1`,
        [runId],
      );
      if (!row) return { outcome: "missing" };
      if (row.status !== "pending" || row.cancel_action !== null) return { outcome: "cancelled", run: toRunRecord(row) };
      if (row.blocked_by !== null) return { outcome: "blocked", run: toRunRecord(row), blockedBy: row.blocked_by };
      const now = this.now();
      const started = await one<RunRow>(
        c,
        `UPDATE ${this.runs} SET status = 'running', started_at = $2::timestamptz, updated_at = $2::timestamptz WHERE run_id = $1 RETURNING *`,
        [runId, now],
      );
      return { outcome: "started", run: toRunRecord(started!) };
    });
  }

  /** {@inheritDoc RunStore.finishRun} */
  async finishRun(runId: string, input: FinishRunInput): Promise<RunRecord | null> {
    checkId(runId, "runId");
    const update = checkFinishRunInput(input);
    return this.transaction("finishRun", async (c) => {
      const threadId = await this.lockThreadOfRun(c, runId);
      if (!threadId) return null;
      const now = this.now();
      const params: unknown[] = [runId, update.expectStatus, update.status, now];
      const sets = ["status = $3", "ended_at = $4::timestamptz", "updated_at = $4::timestamptz"];
      // `undefined` keeps the stored value; null clears it.
      if (update.error !== undefined) sets.push(`error = $${params.push(update.error)}`);
      if (update.stopReason !== undefined) sets.push(`stop_reason = $${params.push(update.stopReason)}`);
      const row = await one<RunRow>(c, `UPDATE ${this.runs} SET ${sets.join(", ")} WHERE run_id = $1 AND status = ANY($2::text[]) RETURNING *`, params);
      if (!row) return null;
      await this.settleThread(c, threadId, update.threadStatus, now);
      return toRunRecord(row);
    });
  }

  /** {@inheritDoc RunStore.requestCancel} */
  async requestCancel(runId: string, action: CancelAction): Promise<RunRecord | null> {
    checkId(runId, "runId");
    checkCancelAction(action);
    return this.transaction("requestCancel", async (c) => {
      const threadId = await this.lockThreadOfRun(c, runId);
      if (!threadId) return null;
      const row = await one<RunRow>(c, `SELECT * FROM ${this.runs} WHERE run_id = $1`, [runId]);
      if (!row) return null;
      const now = this.now();
      if (row.status === "pending") {
        const ended = await one<RunRow>(
          c,
          `UPDATE ${this.runs} SET status = 'interrupted', ended_at = $2::timestamptz, updated_at = $2::timestamptz WHERE run_id = $1 RETURNING *`,
          [runId, now],
        );
        await this.settleThread(c, threadId, "idle", now);
        return toRunRecord(ended!);
      }
      if (row.status === "running" && row.cancel_action === null) {
        const requested = await one<RunRow>(c, `UPDATE ${this.runs} SET cancel_action = $2, updated_at = $3::timestamptz WHERE run_id = $1 RETURNING *`, [runId, action, now]);
        return toRunRecord(requested!);
      }
      return toRunRecord(row);
    });
  }

  /** {@inheritDoc RunStore.setOwner} */
  async setOwner(runId: string, expectedOwnerId: string | null, ownerId: string): Promise<boolean> {
    checkId(runId, "runId");
    if (expectedOwnerId !== null) checkId(expectedOwnerId, "expectedOwnerId");
    checkId(ownerId, "ownerId");
    return this.transaction("setOwner", async (c) => {
      const result = await c.query(
        `UPDATE ${this.runs} SET owner_id = $3, updated_at = $4::timestamptz WHERE run_id = $1 AND owner_id IS NOT DISTINCT FROM $2::text`,
        [runId, expectedOwnerId, ownerId, this.now()],
      );
      return result.rowCount === 1;
    });
  }

  /** {@inheritDoc RunStore.deleteRun} */
  async deleteRun(runId: string): Promise<boolean> {
    checkId(runId, "runId");
    return this.transaction("deleteRun", async (c) => {
      const row = await one<{ status: string; thread_id: string }>(c, `SELECT status, thread_id FROM ${this.runs} WHERE run_id = $1 FOR UPDATE`, [runId]);
      if (!row) return false;
      if (row.status === "pending" || row.status === "running") {
        throw runStillActive(runId, row.thread_id, row.status);
      }
      await c.query(`DELETE FROM ${this.runs} WHERE run_id = $1`, [runId]);
      return true;
    });
  }

  /** {@inheritDoc RunStore.deleteFinishedRuns} */
  async deleteFinishedRuns(endedBefore: Date): Promise<number> {
    const cutoff = checkCutoff(endedBefore).toISOString();
    return this.transaction("deleteFinishedRuns", async (c) => {
      const result = await c.query(`DELETE FROM ${this.runs} WHERE status IN ${TERMINAL} AND ended_at < $1::timestamptz`, [cutoff]);
      return result.rowCount ?? 0;
    });
  }

  /** Closes the pool when the store created it; later calls fail with `CLOSED`. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.ownsPool) await this.pool.end();
  }

  // -- internals --------------------------------------------------------------

  private now(): string {
    return this.clock().toISOString();
  }

  private open(): void {
    if (this.closed) throw new RuntimeError("CLOSED", "PostgresRunStore is closed");
  }

  /** Inserts an idle thread unless the id is taken; returns the new row or undefined. */
  private async insertThread(c: Queryable, threadId: string, metadataJson: string): Promise<ThreadRow | undefined> {
    return one<ThreadRow>(
      c,
      `INSERT INTO ${this.threads} (thread_id, status, metadata, created_at, updated_at)
       VALUES ($1, 'idle', $2::jsonb, $3::timestamptz, $3::timestamptz)
       ON CONFLICT (thread_id) DO NOTHING RETURNING *`,
      [threadId, metadataJson, this.now()],
    );
  }

  /** Locks the thread row until commit; false when the thread does not exist. */
  private async lockThread(c: Queryable, threadId: string): Promise<boolean> {
    const { rowCount } = await c.query(`SELECT 1 FROM ${this.threads} WHERE thread_id = $1 FOR UPDATE`, [threadId]);
    return rowCount === 1;
  }

  /** Locks the thread row of a run (a run never changes thread); its id, or null when the run is missing. */
  private async lockThreadOfRun(c: Queryable, runId: string): Promise<string | null> {
    const row = await one<{ thread_id: string }>(
      c,
      `SELECT t.thread_id FROM ${this.threads} t WHERE t.thread_id = (SELECT r.thread_id FROM ${this.runs} r WHERE r.run_id = $1) FOR UPDATE OF t`,
      [runId],
    );
    return row?.thread_id ?? null;
  }

  private async activeRunIds(c: Queryable, threadId: string): Promise<string[]> {
    const { rows } = await c.query<{ run_id: string }>(`SELECT run_id FROM ${this.runs} WHERE thread_id = $1 AND status IN ${ACTIVE} ORDER BY seq`, [threadId]);
    return rows.map((r) => r.run_id);
  }

  /** After a run ended (under the thread lock): busy while another run is active, else `requested`. */
  private async settleThread(c: Queryable, threadId: string, requested: ThreadStatus, now: string): Promise<void> {
    await c.query(
      `UPDATE ${this.threads}
       SET status = CASE WHEN EXISTS (SELECT 1 FROM ${this.runs} WHERE thread_id = $1 AND status IN ${ACTIVE}) THEN 'busy' ELSE $2::text END,
           updated_at = $3::timestamptz
       WHERE thread_id = $1`,
      [threadId, requested, now],
    );
  }

  /**
   * Runs `body` in a READ COMMITTED transaction. Retries deadlocks and
   * serialization failures, and connection failures that happened before
   * COMMIT was sent (the server then rolled everything back); a connection lost
   * during COMMIT is not retried because the outcome is unknown.
   */
  private async transaction<T>(operation: string, body: (c: Queryable) => Promise<T>): Promise<T> {
    this.open();
    for (let attempt = 1; ; attempt++) {
      let client: PoolClient;
      try {
        client = await this.pool.connect();
      } catch (err) {
        if (attempt < this.maxAttempts && isConnectionError(err)) {
          await this.backoff(operation, attempt, err);
          continue;
        }
        throw toStoreError(err, operation);
      }
      let committing = false;
      try {
        await client.query("BEGIN");
        const result = await body(client);
        committing = true;
        await client.query("COMMIT");
        client.release();
        return result;
      } catch (err) {
        const broken = isConnectionError(err);
        if (broken) client.release(err as Error);
        else if (committing) client.release(); // a failed COMMIT already ended the transaction
        else {
          try {
            await client.query("ROLLBACK");
            client.release();
          } catch (rollbackError) {
            client.release(rollbackError as Error);
          }
        }
        if (RuntimeError.isInstance(err)) throw err;
        if ((isConflict(err) || (broken && !committing)) && attempt < this.maxAttempts) {
          await this.backoff(operation, attempt, err);
          continue;
        }
        throw toStoreError(err, committing && broken ? `${operation} (connection lost during COMMIT: outcome unknown)` : operation);
      }
    }
  }

  /** Runs one read-only statement; connection failures are retried (reading twice is harmless). */
  private async read<R extends QueryResultRow>(operation: string, text: string, values: unknown[]): Promise<R[]> {
    this.open();
    for (let attempt = 1; ; attempt++) {
      try {
        return (await this.pool.query<R>(text, values)).rows;
      } catch (err) {
        if (attempt < this.maxAttempts && isConnectionError(err)) {
          await this.backoff(operation, attempt, err);
          continue;
        }
        throw toStoreError(err, operation);
      }
    }
  }

  private async backoff(operation: string, attempt: number, err: unknown): Promise<void> {
    const delay = Math.min(500, 20 * 2 ** (attempt - 1)) * (0.5 + Math.random());
    this.logger.warn({ operation, attempt, err: err instanceof Error ? err.message : String(err), code: (err as { code?: unknown }).code }, "run store operation failed; retrying");
    await new Promise((resolve) => setTimeout(resolve, delay));
    this.open();
  }
}

async function one<R extends QueryResultRow>(c: Queryable, text: string, values: unknown[]): Promise<R | undefined> {
  return (await c.query<R>(text, values)).rows[0];
}

/** WHERE clause of a thread filter; appends its parameters to `params`. */
function threadWhere(filter: Pick<CheckedThreadSearch, "metadata" | "status" | "ids">, params: unknown[]): string {
  const where: string[] = [];
  if (filter.metadata !== undefined) where.push(`metadata @> $${params.push(JSON.stringify(filter.metadata))}::jsonb`);
  if (filter.status !== undefined) where.push(`status = $${params.push(filter.status)}::text`);
  if (filter.ids !== undefined) where.push(`thread_id = ANY($${params.push(filter.ids)}::text[])`);
  return where.length > 0 ? `WHERE ${where.join(" AND ")}` : "";
}
