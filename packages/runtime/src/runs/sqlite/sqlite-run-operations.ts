/** The run operations of `SqliteRunStore`: admission, start, end, cancel, ownership and retention. */
import type {
  ActiveRunQuery,
  AdmitRunInput,
  AdmitRunResult,
  FinishRunInput,
  RunListQuery,
  TryStartOutcome,
} from "../run-store.js";
import { bySeq, toRunRecord, toThreadRecord, type RunRow, type ThreadRow } from "../sql-rows.js";
import { runIdTaken, runStillActive, threadAlreadyActive, threadNotFound } from "../store-errors.js";
import {
  checkAdmitRunInput,
  checkCancelAction,
  checkCutoff,
  checkFinishRunInput,
  checkId,
  checkOwnerChange,
  checkRunListQuery,
  SUPERSEDED_RUN_ERROR,
} from "../store-input.js";
import type { CancelAction, RunRecord } from "../types.js";
import { ACTIVE, RUN, TERMINAL, type SqliteStoreParts } from "./sqlite-tables.js";

/** Admitting, reading, starting, finishing, cancelling and deleting runs. */
export class SqliteRunOperations {
  constructor(private readonly store: SqliteStoreParts) {}

  /** {@inheritDoc RunStore.admitRun} */
  async admitRun(input: AdmitRunInput): Promise<AdmitRunResult> {
    const { db, tables } = this.store;
    db.open();
    const run = checkAdmitRunInput(input);
    return db.transaction("admitRun", () => {
      // Every check comes before the first write, like the memory store (the transaction would undo them anyway).
      const existing = tables.threadRow(run.threadId);
      if (!existing && run.ifNotExists === "reject") throw threadNotFound(run.threadId);
      const activeRunIds = existing ? tables.activeRunIds(run.threadId) : [];
      if (run.multitaskStrategy === "reject" && activeRunIds.length > 0)
        throw threadAlreadyActive(run.threadId, activeRunIds);
      if (db.get(`SELECT 1 FROM runs WHERE run_id = ?`, run.runId)) throw runIdTaken(run.runId);

      const now = this.store.now();
      if (!existing) tables.insertThread(run.threadId, JSON.stringify(run.threadMetadata), now);
      let superseded: RunRecord[] = [];
      if (run.multitaskStrategy === "interrupt" || run.multitaskStrategy === "rollback") {
        // SET expressions see the old row: pending runs end now, running ones get the first cancel request.
        const rows = db.all<RunRow>(
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
      const inserted = db.get<RunRow>(
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
      // A shallow merge, as updateThread's.
      const metadata =
        run.threadMetadataUpdate === undefined
          ? null
          : JSON.stringify({
              ...(existing ? toThreadRecord(existing).metadata : run.threadMetadata),
              ...run.threadMetadataUpdate,
            });
      const thread = db.get<ThreadRow>(
        `UPDATE threads SET status = 'busy', metadata = coalesce(?, metadata), updated_at = ? WHERE thread_id = ? RETURNING *`,
        metadata,
        now,
        run.threadId,
      )!;
      this.store.logger.debug(
        { runId: run.runId, threadId: run.threadId, superseded: superseded.length },
        "run admitted",
      );
      return { run: toRunRecord(inserted), superseded, thread: toThreadRecord(thread) };
    });
  }

  /** {@inheritDoc RunStore.getRun} */
  async getRun(runId: string): Promise<RunRecord | null> {
    const { db, tables } = this.store;
    db.open();
    checkId(runId, "runId");
    const row = db.call("getRun", () => tables.runRow(runId));
    return row ? toRunRecord(row) : null;
  }

  /** {@inheritDoc RunStore.listRuns} */
  async listRuns(threadId: string, query?: RunListQuery): Promise<RunRecord[]> {
    const { db } = this.store;
    db.open();
    checkId(threadId, "threadId");
    const { status, limit, offset } = checkRunListQuery(query);
    const rows = db.call("listRuns", () =>
      db.all<RunRow>(
        `SELECT ${RUN} FROM runs r WHERE thread_id = @threadId AND (@status IS NULL OR status = @status) ORDER BY r.seq DESC LIMIT @limit OFFSET @offset`,
        {
          threadId,
          status: status ?? null,
          limit,
          offset,
        },
      ),
    );
    return rows.map(toRunRecord);
  }

  /** {@inheritDoc RunStore.listActiveRuns} */
  async listActiveRuns(query?: ActiveRunQuery): Promise<RunRecord[]> {
    const { db } = this.store;
    db.open();
    const ownerId = query?.ownerId === undefined ? null : checkId(query.ownerId, "ownerId");
    const rows = db.call("listActiveRuns", () =>
      db.all<RunRow>(
        `SELECT ${RUN} FROM runs r WHERE status IN ${ACTIVE} AND (@ownerId IS NULL OR owner_id = @ownerId) ORDER BY r.seq`,
        { ownerId },
      ),
    );
    return rows.map(toRunRecord);
  }

  /** {@inheritDoc RunStore.tryStartRun} */
  async tryStartRun(runId: string): Promise<TryStartOutcome> {
    const { db } = this.store;
    db.open();
    checkId(runId, "runId");
    return db.transaction("tryStartRun", (): TryStartOutcome => {
      const row = db.get<RunRow & { blocked_by: string | null }>(
        `SELECT ${RUN}, (SELECT b.run_id FROM runs b WHERE b.thread_id = r.thread_id AND b.status IN ${ACTIVE} AND b.seq < r.seq ORDER BY b.seq LIMIT 1) AS blocked_by
         FROM runs r WHERE r.run_id = ?`,
        runId,
      );
      if (!row) return { outcome: "missing" };
      const { blocked_by: blockedBy, ...stored } = row;
      if (stored.status !== "pending" || stored.cancel_action !== null)
        return { outcome: "cancelled", run: toRunRecord(stored) };
      if (blockedBy !== null) return { outcome: "blocked", run: toRunRecord(stored), blockedBy };
      const now = this.store.now();
      const started = db.get<RunRow>(
        `UPDATE runs SET status = 'running', started_at = ?, updated_at = ? WHERE run_id = ? RETURNING ${RUN}`,
        now,
        now,
        runId,
      )!;
      return { outcome: "started", run: toRunRecord(started) };
    });
  }

  /** {@inheritDoc RunStore.finishRun} */
  async finishRun(runId: string, input: FinishRunInput): Promise<RunRecord | null> {
    const { db, tables } = this.store;
    db.open();
    checkId(runId, "runId");
    const update = checkFinishRunInput(input);
    return db.transaction("finishRun", () => {
      const now = this.store.now();
      // A shallow merge, like jsonb `||`; SQLite's json_patch would merge recursively.
      const stored = update.metadata === undefined ? undefined : tables.runRow(runId);
      const metadata =
        stored === undefined ? null : JSON.stringify({ ...toRunRecord(stored).metadata, ...update.metadata });
      // `undefined` keeps the stored value; null clears it.
      const row = db.get<RunRow>(
        `UPDATE runs SET status = @status, ended_at = @now, updated_at = @now,
           error = CASE WHEN @keepError THEN error ELSE @error END,
           stop_reason = CASE WHEN @keepStopReason THEN stop_reason ELSE @stopReason END,
           metadata = coalesce(@metadata, metadata)
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
          metadata,
          expect: JSON.stringify(update.expectStatus),
        },
      );
      if (!row) return null;
      tables.settleThread(row.thread_id, update.threadStatus, now);
      return toRunRecord(row);
    });
  }

  /** {@inheritDoc RunStore.requestCancel} */
  async requestCancel(runId: string, action: CancelAction): Promise<RunRecord | null> {
    const { db, tables } = this.store;
    db.open();
    checkId(runId, "runId");
    checkCancelAction(action);
    return db.transaction("requestCancel", () => {
      const row = tables.runRow(runId);
      if (!row) return null;
      const now = this.store.now();
      if (row.status === "pending") {
        const ended = db.get<RunRow>(
          `UPDATE runs SET status = 'interrupted', ended_at = ?, updated_at = ? WHERE run_id = ? RETURNING ${RUN}`,
          now,
          now,
          runId,
        )!;
        tables.settleThread(row.thread_id, "idle", now);
        return toRunRecord(ended);
      }
      if (row.status === "running" && row.cancel_action === null) {
        return toRunRecord(
          db.get<RunRow>(
            `UPDATE runs SET cancel_action = ?, updated_at = ? WHERE run_id = ? RETURNING ${RUN}`,
            action,
            now,
            runId,
          )!,
        );
      }
      return toRunRecord(row);
    });
  }

  /** {@inheritDoc RunStore.setOwner} */
  async setOwner(runId: string, expectedOwnerId: string | null, ownerId: string): Promise<boolean> {
    const { db } = this.store;
    db.open();
    checkOwnerChange(runId, expectedOwnerId, ownerId);
    // One statement is its own transaction; `IS` compares null like a value.
    return db.call(
      "setOwner",
      () =>
        db.run(
          `UPDATE runs SET owner_id = ?, updated_at = ? WHERE run_id = ? AND owner_id IS ?`,
          ownerId,
          this.store.now(),
          runId,
          expectedOwnerId,
        ).changes === 1,
    );
  }

  /** {@inheritDoc RunStore.deleteRun} */
  async deleteRun(runId: string): Promise<boolean> {
    const { db } = this.store;
    db.open();
    checkId(runId, "runId");
    return db.transaction("deleteRun", () => {
      const row = db.get<{ status: string; thread_id: string }>(
        `SELECT status, thread_id FROM runs WHERE run_id = ?`,
        runId,
      );
      if (!row) return false;
      if (row.status === "pending" || row.status === "running") throw runStillActive(runId, row.thread_id, row.status);
      db.run(`DELETE FROM runs WHERE run_id = ?`, runId);
      return true;
    });
  }

  /** {@inheritDoc RunStore.deleteFinishedRuns} */
  async deleteFinishedRuns(endedBefore: Date): Promise<number> {
    const { db } = this.store;
    db.open();
    // ISO-8601 UTC strings of equal length compare as text like the instants they name.
    const cutoff = checkCutoff(endedBefore).toISOString();
    return db.call(
      "deleteFinishedRuns",
      () => db.run(`DELETE FROM runs WHERE status IN ${TERMINAL} AND ended_at < ?`, cutoff).changes,
    );
  }
}
