/**
 * `SqliteRunStore`: the durable run store of a single server instance, in one
 * SQLite file (`better-sqlite3`).
 *
 * Atomicity: every operation that reads and then writes runs in one
 * synchronous `BEGIN IMMEDIATE` transaction. Within the process nothing can
 * interleave with it (better-sqlite3 never yields to the event loop); across
 * processes sharing the file, IMMEDIATE takes the write lock before the first
 * read, so a second writer waits (up to the busy timeout) instead of acting on
 * a stale snapshot.
 */
import type Database from "better-sqlite3";
import { RuntimeError } from "../../errors.js";
import { silentLogger, type Logger } from "../../logger.js";
import { bySeq, toRunRecord, toThreadRecord, type RunRow, type ThreadRow } from "../sql-rows.js";
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
  threadStatusAfterRun,
  toJsonObject,
} from "../store-input.js";
import { checkThreadFilter, checkThreadSearch, threadMatches } from "../thread-search.js";
import type { CancelAction, RunRecord, ThreadRecord, ThreadStatus } from "../types.js";
import { openDatabase } from "./open-database.js";
import { migrate } from "./schema.js";
import { toStoreError } from "./sqlite-errors.js";
import { THREAD_FILTER_SQL, threadFilterParams, threadOrderSql, type ThreadFilter } from "./thread-filter.js";

/** Where the store keeps its data. */
export type SqliteRunStoreConnection =
  /**
   * A database file, opened (and closed) by the store; its directory is created.
   * `":memory:"` keeps everything in this process, like `MemoryRunStore`.
   */
  | { path: string; database?: never }
  /**
   * A connection owned by the caller: `close()` leaves it open, and its journal
   * mode, busy timeout and pragmas stay as the caller set them (WAL and a busy
   * timeout are recommended).
   */
  | { database: Database.Database; path?: never };

/** Options of {@link SqliteRunStore}. */
export type SqliteRunStoreOptions = SqliteRunStoreConnection & {
  logger?: Logger;
  /**
   * Clock for the timestamps the store writes. Default: this process's clock.
   * Creation order never depends on it (an autoincrement column orders runs).
   */
  now?: () => Date;
  /**
   * How long a write waits for another connection's lock before failing with
   * `STORE_UNAVAILABLE`, in ms (it blocks the event loop meanwhile). Default 5000.
   * Only applies to a file the store opens.
   */
  busyTimeoutMs?: number;
};

const ACTIVE = "('pending', 'running')";
const TERMINAL = "('success', 'error', 'timeout', 'interrupted')";

/**
 * Run columns in the shape of the PostgreSQL row (`seq` as a string), so both
 * stores share the mapping. The alias shadows the column in ORDER BY: order by
 * a qualified `r.seq`, never a bare `seq` (that would sort text).
 */
const RUN = `run_id, thread_id, CAST(seq AS TEXT) AS seq, assistant_id, status, multitask_strategy, on_disconnect, metadata, kwargs,
  created_at, updated_at, started_at, ended_at, error, stop_reason, owner_id, cancel_action`;

/**
 * A {@link RunStore} in one SQLite file, for a single server instance: durable
 * across restarts, and safe (serialised) when a second process opens the same
 * file, but not meant to be shared by a fleet (use `PostgresRunStore`). The
 * schema is created or migrated on construction; {@link SqliteRunStore.setup}
 * exists so that callers can treat it like `PostgresRunStore`.
 *
 * @example
 * ```ts
 * const store = new SqliteRunStore({ path: "./data/runs.sqlite" });
 * await store.setup(); // optional here, required for PostgresRunStore
 * const { run } = await store.admitRun({ ...input, multitaskStrategy: "enqueue" });
 * ```
 */
export class SqliteRunStore implements RunStore {
  /** The database file (absolute), `":memory:"`, or the caller's `database.name`. */
  readonly path: string;
  private readonly db: Database.Database;
  private readonly ownsDatabase: boolean;
  private readonly logger: Logger;
  private readonly clock: () => Date;
  private readonly busyTimeoutMs: number;
  private readonly statements = new Map<string, Database.Statement>();
  private closed = false;

  /**
   * Opens the database and creates or migrates the schema.
   *
   * @param options - a file path or a caller's connection, plus logger, clock and busy timeout.
   * @throws RuntimeError `CONFIG_INVALID` for malformed options (both or neither of
   *   `path` / `database`, an empty path, a closed or read-only database, a bad
   *   `busyTimeoutMs`); `STORE_UNAVAILABLE` naming the path when the directory
   *   cannot be created or the file is unreadable, corrupt, not SQLite, or locked.
   */
  constructor(options: SqliteRunStoreOptions) {
    if (typeof options !== "object" || options === null) throw new RuntimeError("CONFIG_INVALID", "SqliteRunStore needs options with a path or a database");
    const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
    if (!Number.isSafeInteger(busyTimeoutMs) || busyTimeoutMs < 0) {
      throw new RuntimeError("CONFIG_INVALID", `SqliteRunStore busyTimeoutMs must be a non-negative integer, got ${String(busyTimeoutMs)}`);
    }
    this.logger = options.logger ?? silentLogger;
    this.clock = options.now ?? (() => new Date());
    const opened = openDatabase(options, busyTimeoutMs, this.logger);
    this.db = opened.db;
    this.ownsDatabase = opened.owned;
    this.path = opened.path;
    this.busyTimeoutMs = opened.owned ? busyTimeoutMs : (this.db.pragma("busy_timeout", { simple: true }) as number);
    try {
      migrate(this.db, this.logger, this.path);
    } catch (err) {
      if (this.ownsDatabase) this.db.close();
      throw toStoreError(err, "open", this.path, this.busyTimeoutMs);
    }
  }

  /**
   * Brings the schema to the current version (already done by the constructor;
   * idempotent). Present so that callers can treat this store like `PostgresRunStore`.
   *
   * @throws RuntimeError `STORE_UNAVAILABLE` when the file cannot be migrated; `CLOSED` after close.
   */
  async setup(): Promise<void> {
    this.call("setup", () => migrate(this.db, this.logger, this.path));
  }

  // -- threads ----------------------------------------------------------------

  /** {@inheritDoc RunStore.createThread} */
  async createThread(input: { threadId: string; metadata?: Record<string, unknown>; ifExists?: "raise" | "do_nothing" }): Promise<ThreadRecord> {
    this.open();
    const threadId = checkId(input.threadId, "threadId");
    const metadata = JSON.stringify(input.metadata === undefined ? {} : toJsonObject(input.metadata, "metadata"));
    const ifExists = input.ifExists ?? "raise";
    if (ifExists !== "raise" && ifExists !== "do_nothing") throw new RuntimeError("INVALID_ARGUMENT", `ifExists must be "raise" or "do_nothing", got ${JSON.stringify(ifExists)}`);
    return this.transaction("createThread", () => {
      const existing = this.threadRow(threadId);
      if (existing && ifExists === "raise") throw new RuntimeError("THREAD_EXISTS", `Thread ${threadId} already exists`, { details: { threadId } });
      return toThreadRecord(existing ?? this.insertThread(threadId, metadata, this.now()));
    });
  }

  /** {@inheritDoc RunStore.getThread} */
  async getThread(threadId: string): Promise<ThreadRecord | null> {
    this.open();
    checkId(threadId, "threadId");
    const row = this.call("getThread", () => this.threadRow(threadId));
    return row ? toThreadRecord(row) : null;
  }

  /** {@inheritDoc RunStore.updateThread} */
  async updateThread(threadId: string, patch: { metadata?: Record<string, unknown>; status?: ThreadStatus }): Promise<ThreadRecord> {
    this.open();
    checkId(threadId, "threadId");
    const metadata = patch.metadata === undefined ? undefined : toJsonObject(patch.metadata, "metadata");
    const status = patch.status === undefined ? null : checkThreadStatus(patch.status, "status");
    return this.transaction("updateThread", () => {
      const row = this.threadRow(threadId);
      if (!row) throw threadNotFound(threadId);
      // A shallow merge, like jsonb `||` on two objects; SQLite's json_patch would merge recursively.
      const merged = metadata === undefined ? row.metadata : JSON.stringify({ ...toThreadRecord(row).metadata, ...metadata });
      return toThreadRecord(
        this.get<ThreadRow>(`UPDATE threads SET metadata = ?, status = coalesce(?, status), updated_at = ? WHERE thread_id = ? RETURNING *`, merged, status, this.now(), threadId)!,
      );
    });
  }

  /** {@inheritDoc RunStore.searchThreads} */
  async searchThreads(query?: ThreadSearchQuery): Promise<ThreadRecord[]> {
    this.open();
    const q = checkThreadSearch(query);
    // Without a metadata filter the SQL is exact and can page; with one, threadMatches decides and pages here.
    const exact = q.metadata === undefined;
    return this.call("searchThreads", () => {
      const rows = this.prepare(`SELECT * FROM threads t WHERE ${THREAD_FILTER_SQL} ${threadOrderSql(q.sortBy, q.sortOrder)} LIMIT @limit OFFSET @offset`).iterate({
        ...threadFilterParams(q),
        limit: exact ? q.limit : -1,
        offset: exact ? q.offset : 0,
      }) as IterableIterator<ThreadRow>;
      const out: ThreadRecord[] = [];
      let skip = exact ? 0 : q.offset;
      for (const row of rows) {
        const thread = toThreadRecord(row);
        if (!threadMatches(thread, q) || skip-- > 0) continue;
        out.push(thread);
        if (out.length === q.limit) break;
      }
      return out;
    });
  }

  /** {@inheritDoc RunStore.countThreads} */
  async countThreads(query?: Omit<ThreadSearchQuery, "limit" | "offset" | "sortBy" | "sortOrder">): Promise<number> {
    this.open();
    const filter = checkThreadFilter(query);
    return this.call("countThreads", () => {
      if (filter.metadata === undefined) return this.get<{ n: number }>(`SELECT count(*) AS n FROM threads t WHERE ${THREAD_FILTER_SQL}`, threadFilterParams(filter))!.n;
      let count = 0;
      for (const row of this.candidates(filter)) if (threadMatches(toThreadRecord(row), filter)) count++;
      return count;
    });
  }

  /** {@inheritDoc RunStore.deleteThread} */
  async deleteThread(threadId: string): Promise<boolean> {
    this.open();
    checkId(threadId, "threadId");
    return this.transaction("deleteThread", () => {
      if (!this.threadRow(threadId)) return false;
      const activeRunIds = this.activeRunIds(threadId);
      if (activeRunIds.length > 0) {
        throw threadHasActiveRuns(threadId, activeRunIds);
      }
      // Explicit rather than ON DELETE CASCADE: a caller's connection may have foreign keys off.
      this.run(`DELETE FROM runs WHERE thread_id = ?`, threadId);
      this.run(`DELETE FROM threads WHERE thread_id = ?`, threadId);
      return true;
    });
  }

  // -- runs -------------------------------------------------------------------

  /** {@inheritDoc RunStore.admitRun} */
  async admitRun(input: AdmitRunInput): Promise<AdmitRunResult> {
    this.open();
    const run = checkAdmitRunInput(input);
    return this.transaction("admitRun", () => {
      // Every check comes before the first write, like the memory store (the transaction would undo them anyway).
      const existing = this.threadRow(run.threadId);
      if (!existing && run.ifNotExists === "reject") throw threadNotFound(run.threadId);
      const activeRunIds = existing ? this.activeRunIds(run.threadId) : [];
      if (run.multitaskStrategy === "reject" && activeRunIds.length > 0) {
        throw threadAlreadyActive(run.threadId, activeRunIds);
      }
      if (this.get(`SELECT 1 FROM runs WHERE run_id = ?`, run.runId)) throw runIdTaken(run.runId);

      const now = this.now();
      if (!existing) this.insertThread(run.threadId, JSON.stringify(run.threadMetadata), now);
      let superseded: RunRecord[] = [];
      if (run.multitaskStrategy === "interrupt" || run.multitaskStrategy === "rollback") {
        // SET expressions see the old row: pending runs end now, running ones get the first cancel request.
        const rows = this.all<RunRow>(
          `UPDATE runs SET
             status = CASE WHEN status = 'pending' THEN 'interrupted' ELSE status END,
             error = CASE WHEN status = 'pending' THEN @error ELSE error END,
             ended_at = CASE WHEN status = 'pending' THEN @now ELSE ended_at END,
             cancel_action = CASE WHEN status = 'running' THEN coalesce(cancel_action, @action) ELSE cancel_action END,
             updated_at = CASE WHEN status = 'pending' OR cancel_action IS NULL THEN @now ELSE updated_at END
           WHERE thread_id = @threadId AND status IN ${ACTIVE}
           RETURNING ${RUN}`,
          { threadId: run.threadId, error: SUPERSEDED_RUN_ERROR, now, action: run.multitaskStrategy },
        );
        superseded = rows.sort(bySeq).map(toRunRecord);
      }
      const inserted = this.get<RunRow>(
        `INSERT INTO runs (run_id, thread_id, assistant_id, status, multitask_strategy, on_disconnect, metadata, kwargs, created_at, updated_at, owner_id)
         VALUES (?, ?, ?, 'pending', ?, ?, ?, ?, ?, ?, ?) RETURNING ${RUN}`,
        run.runId,
        run.threadId,
        run.assistantId,
        run.multitaskStrategy,
        run.onDisconnect,
        JSON.stringify(run.metadata),
        JSON.stringify(run.kwargs),
        now,
        now,
        run.ownerId,
      )!;
      const thread = this.get<ThreadRow>(`UPDATE threads SET status = 'busy', updated_at = ? WHERE thread_id = ? RETURNING *`, now, run.threadId)!;
      this.logger.debug({ runId: run.runId, threadId: run.threadId, superseded: superseded.length }, "run admitted");
      return { run: toRunRecord(inserted), superseded, thread: toThreadRecord(thread) };
    });
  }

  /** {@inheritDoc RunStore.getRun} */
  async getRun(runId: string): Promise<RunRecord | null> {
    this.open();
    checkId(runId, "runId");
    const row = this.call("getRun", () => this.runRow(runId));
    return row ? toRunRecord(row) : null;
  }

  /** {@inheritDoc RunStore.listRuns} */
  async listRuns(threadId: string, query?: RunListQuery): Promise<RunRecord[]> {
    this.open();
    checkId(threadId, "threadId");
    const { status, limit, offset } = checkRunListQuery(query);
    const rows = this.call("listRuns", () =>
      this.all<RunRow>(`SELECT ${RUN} FROM runs r WHERE thread_id = @threadId AND (@status IS NULL OR status = @status) ORDER BY r.seq DESC LIMIT @limit OFFSET @offset`, {
        threadId,
        status: status ?? null,
        limit,
        offset,
      }),
    );
    return rows.map(toRunRecord);
  }

  /** {@inheritDoc RunStore.listActiveRuns} */
  async listActiveRuns(query?: { ownerId?: string }): Promise<RunRecord[]> {
    this.open();
    const ownerId = query?.ownerId === undefined ? null : checkId(query.ownerId, "ownerId");
    const rows = this.call("listActiveRuns", () => this.all<RunRow>(`SELECT ${RUN} FROM runs r WHERE status IN ${ACTIVE} AND (@ownerId IS NULL OR owner_id = @ownerId) ORDER BY r.seq`, { ownerId }));
    return rows.map(toRunRecord);
  }

  /** {@inheritDoc RunStore.tryStartRun} */
  async tryStartRun(runId: string): Promise<TryStartOutcome> {
    this.open();
    checkId(runId, "runId");
    return this.transaction("tryStartRun", (): TryStartOutcome => {
      const row = this.get<RunRow & { blocked_by: string | null }>(
        `SELECT ${RUN}, (SELECT b.run_id FROM runs b WHERE b.thread_id = r.thread_id AND b.status IN ${ACTIVE} AND b.seq < r.seq ORDER BY b.seq LIMIT 1) AS blocked_by
         FROM runs r WHERE r.run_id = ?`,
        runId,
      );
      if (!row) return { outcome: "missing" };
      const { blocked_by: blockedBy, ...stored } = row;
      if (stored.status !== "pending" || stored.cancel_action !== null) return { outcome: "cancelled", run: toRunRecord(stored) };
      if (blockedBy !== null) return { outcome: "blocked", run: toRunRecord(stored), blockedBy };
      const now = this.now();
      const started = this.get<RunRow>(`UPDATE runs SET status = 'running', started_at = ?, updated_at = ? WHERE run_id = ? RETURNING ${RUN}`, now, now, runId)!;
      return { outcome: "started", run: toRunRecord(started) };
    });
  }

  /** {@inheritDoc RunStore.finishRun} */
  async finishRun(runId: string, input: FinishRunInput): Promise<RunRecord | null> {
    this.open();
    checkId(runId, "runId");
    const update = checkFinishRunInput(input);
    return this.transaction("finishRun", () => {
      const now = this.now();
      // `undefined` keeps the stored value; null clears it.
      const row = this.get<RunRow>(
        `UPDATE runs SET status = @status, ended_at = @now, updated_at = @now,
           error = CASE WHEN @keepError THEN error ELSE @error END,
           stop_reason = CASE WHEN @keepStopReason THEN stop_reason ELSE @stopReason END
         WHERE run_id = @runId AND status IN (SELECT value FROM json_each(@expect))
         RETURNING ${RUN}`,
        {
          runId,
          status: update.status,
          now,
          keepError: update.error === undefined ? 1 : 0,
          error: update.error ?? null,
          keepStopReason: update.stopReason === undefined ? 1 : 0,
          stopReason: update.stopReason ?? null,
          expect: JSON.stringify(update.expectStatus),
        },
      );
      if (!row) return null;
      this.settleThread(row.thread_id, update.threadStatus, now);
      return toRunRecord(row);
    });
  }

  /** {@inheritDoc RunStore.requestCancel} */
  async requestCancel(runId: string, action: CancelAction): Promise<RunRecord | null> {
    this.open();
    checkId(runId, "runId");
    checkCancelAction(action);
    return this.transaction("requestCancel", () => {
      const row = this.runRow(runId);
      if (!row) return null;
      const now = this.now();
      if (row.status === "pending") {
        const ended = this.get<RunRow>(`UPDATE runs SET status = 'interrupted', ended_at = ?, updated_at = ? WHERE run_id = ? RETURNING ${RUN}`, now, now, runId)!;
        this.settleThread(row.thread_id, "idle", now);
        return toRunRecord(ended);
      }
      if (row.status === "running" && row.cancel_action === null) {
        return toRunRecord(this.get<RunRow>(`UPDATE runs SET cancel_action = ?, updated_at = ? WHERE run_id = ? RETURNING ${RUN}`, action, now, runId)!);
      }
      return toRunRecord(row);
    });
  }

  /** {@inheritDoc RunStore.setOwner} */
  async setOwner(runId: string, expectedOwnerId: string | null, ownerId: string): Promise<boolean> {
    this.open();
    checkId(runId, "runId");
    if (expectedOwnerId !== null) checkId(expectedOwnerId, "expectedOwnerId");
    checkId(ownerId, "ownerId");
    // One statement is its own transaction; `IS` compares null like a value.
    return this.call("setOwner", () => this.run(`UPDATE runs SET owner_id = ?, updated_at = ? WHERE run_id = ? AND owner_id IS ?`, ownerId, this.now(), runId, expectedOwnerId).changes === 1);
  }

  /** {@inheritDoc RunStore.deleteRun} */
  async deleteRun(runId: string): Promise<boolean> {
    this.open();
    checkId(runId, "runId");
    return this.transaction("deleteRun", () => {
      const row = this.get<{ status: string; thread_id: string }>(`SELECT status, thread_id FROM runs WHERE run_id = ?`, runId);
      if (!row) return false;
      if (row.status === "pending" || row.status === "running") {
        throw runStillActive(runId, row.thread_id, row.status);
      }
      this.run(`DELETE FROM runs WHERE run_id = ?`, runId);
      return true;
    });
  }

  /** {@inheritDoc RunStore.deleteFinishedRuns} */
  async deleteFinishedRuns(endedBefore: Date): Promise<number> {
    this.open();
    // ISO-8601 UTC strings of equal length compare as text like the instants they name.
    const cutoff = checkCutoff(endedBefore).toISOString();
    return this.call("deleteFinishedRuns", () => this.run(`DELETE FROM runs WHERE status IN ${TERMINAL} AND ended_at < ?`, cutoff).changes);
  }

  /** Closes the database when the store opened it; later calls fail with `CLOSED`. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.statements.clear();
    if (this.ownsDatabase) this.db.close();
  }

  // -- internals --------------------------------------------------------------

  private open(): void {
    if (this.closed) throw new RuntimeError("CLOSED", "SqliteRunStore is closed");
  }

  private now(): string {
    return this.clock().toISOString();
  }

  /** Runs `body` in one `BEGIN IMMEDIATE` transaction (rolled back when it throws). */
  private transaction<T>(operation: string, body: () => T): T {
    return this.call(operation, () => this.db.transaction(body).immediate());
  }

  /** Runs `body` (one statement, or a transaction) and maps database failures to `STORE_UNAVAILABLE`. */
  private call<T>(operation: string, body: () => T): T {
    this.open();
    try {
      return body();
    } catch (err) {
      throw toStoreError(err, operation, this.path, this.busyTimeoutMs);
    }
  }

  /** A cached prepared statement; the SQL texts are a fixed set. */
  private prepare(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  private get<R>(sql: string, ...params: unknown[]): R | undefined {
    return this.prepare(sql).get(...params) as R | undefined;
  }

  private all<R>(sql: string, ...params: unknown[]): R[] {
    return this.prepare(sql).all(...params) as R[];
  }

  private run(sql: string, ...params: unknown[]): Database.RunResult {
    return this.prepare(sql).run(...params);
  }

  private threadRow(threadId: string): ThreadRow | undefined {
    return this.get<ThreadRow>(`SELECT * FROM threads WHERE thread_id = ?`, threadId);
  }

  private runRow(runId: string): RunRow | undefined {
    return this.get<RunRow>(`SELECT ${RUN} FROM runs WHERE run_id = ?`, runId);
  }

  /** Every thread passing the SQL narrowing of `filter`, in no particular order. */
  private candidates(filter: ThreadFilter): IterableIterator<ThreadRow> {
    return this.prepare(`SELECT * FROM threads t WHERE ${THREAD_FILTER_SQL}`).iterate(threadFilterParams(filter)) as IterableIterator<ThreadRow>;
  }

  private insertThread(threadId: string, metadataJson: string, now: string): ThreadRow {
    return this.get<ThreadRow>(`INSERT INTO threads (thread_id, status, metadata, created_at, updated_at) VALUES (?, 'idle', ?, ?, ?) RETURNING *`, threadId, metadataJson, now, now)!;
  }

  private activeRunIds(threadId: string): string[] {
    return this.all<{ run_id: string }>(`SELECT run_id FROM runs WHERE thread_id = ? AND status IN ${ACTIVE} ORDER BY seq`, threadId).map((r) => r.run_id);
  }

  /** After a run ended (inside the transaction): busy while another run is active, else `requested`. */
  private settleThread(threadId: string, requested: ThreadStatus, now: string): void {
    const status = threadStatusAfterRun(this.activeRunIds(threadId).length > 0, requested);
    this.run(`UPDATE threads SET status = ?, updated_at = ? WHERE thread_id = ?`, status, now, threadId);
  }
}
