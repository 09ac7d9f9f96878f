/** The run operations of `PostgresRunStore`: admission, start, end, cancel, ownership and retention. */
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
import { one } from "./pg-database.js";
import { isUniqueViolation } from "./pg-errors.js";
import { ACTIVE, TERMINAL, type PgStoreParts } from "./pg-tables.js";

/** Admitting, reading, starting, finishing, cancelling and deleting runs. */
export class PgRunOperations {
  constructor(private readonly store: PgStoreParts) {}

  /** {@inheritDoc RunStore.admitRun} */
  async admitRun(input: AdmitRunInput): Promise<AdmitRunResult> {
    const run = checkAdmitRunInput(input);
    const { db, tables } = this.store;
    return db.transaction("admitRun", async (c) => {
      let locked = false;
      // Retried because a concurrent deleteThread can win between our insert and our lock.
      for (let i = 0; i < 3 && !locked; i++) {
        if (run.ifNotExists === "create")
          await tables.insertThread(c, run.threadId, JSON.stringify(run.threadMetadata), this.store.now());
        locked = await tables.lockThread(c, run.threadId);
        if (run.ifNotExists === "reject") break;
      }
      if (!locked) throw threadNotFound(run.threadId);
      const now = this.store.now();

      let superseded: RunRecord[] = [];
      if (run.multitaskStrategy === "reject") {
        const activeRunIds = await tables.activeRunIds(c, run.threadId);
        if (activeRunIds.length > 0) throw threadAlreadyActive(run.threadId, activeRunIds);
      } else if (run.multitaskStrategy === "interrupt" || run.multitaskStrategy === "rollback") {
        // SET expressions see the old row: pending runs end now, running ones get the first cancel request.
        const { rows } = await c.query<RunRow>(
          `UPDATE ${tables.runs} SET
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
            `INSERT INTO ${tables.runs} (run_id, thread_id, assistant_id, status, multitask_strategy, on_disconnect,
               metadata, kwargs, created_at, updated_at, owner_id)
             VALUES ($1, $2, $3, 'pending', $4, $5, $6::jsonb, $7::jsonb, $8::timestamptz, $8::timestamptz, $9)
             RETURNING *`,
            [
              run.runId,
              run.threadId,
              run.assistantId,
              run.multitaskStrategy,
              run.onDisconnect,
              JSON.stringify(run.metadata),
              JSON.stringify(run.kwargs),
              now,
              run.ownerId,
            ],
          )
        ).rows[0]!;
      } catch (err) {
        if (isUniqueViolation(err, "runs_pkey")) throw runIdTaken(run.runId);
        throw err;
      }
      const thread = await one<ThreadRow>(
        c,
        `UPDATE ${tables.threads} SET status = 'busy', updated_at = $2::timestamptz,
           metadata = CASE WHEN $3::jsonb IS NULL THEN metadata ELSE metadata || $3::jsonb END
         WHERE thread_id = $1 RETURNING *`,
        [run.threadId, now, run.threadMetadataUpdate === undefined ? null : JSON.stringify(run.threadMetadataUpdate)],
      );
      this.store.logger.debug(
        { runId: run.runId, threadId: run.threadId, superseded: superseded.length },
        "run admitted",
      );
      return { run: toRunRecord(inserted), superseded, thread: toThreadRecord(thread!) };
    });
  }

  /** {@inheritDoc RunStore.getRun} */
  async getRun(runId: string): Promise<RunRecord | null> {
    checkId(runId, "runId");
    const rows = await this.store.db.read<RunRow>(
      "getRun",
      `SELECT * FROM ${this.store.tables.runs} WHERE run_id = $1`,
      [runId],
    );
    return rows[0] ? toRunRecord(rows[0]) : null;
  }

  /** {@inheritDoc RunStore.listRuns} */
  async listRuns(threadId: string, query?: RunListQuery): Promise<RunRecord[]> {
    checkId(threadId, "threadId");
    const { status, limit, offset } = checkRunListQuery(query);
    const rows = await this.store.db.read<RunRow>(
      "listRuns",
      `SELECT * FROM ${this.store.tables.runs} WHERE thread_id = $1 AND ($2::text IS NULL OR status = $2::text)
       ORDER BY seq DESC LIMIT $3 OFFSET $4`,
      [threadId, status ?? null, limit, offset],
    );
    return rows.map(toRunRecord);
  }

  /** {@inheritDoc RunStore.listActiveRuns} */
  async listActiveRuns(query?: ActiveRunQuery): Promise<RunRecord[]> {
    const ownerId = query?.ownerId === undefined ? null : checkId(query.ownerId, "ownerId");
    const rows = await this.store.db.read<RunRow>(
      "listActiveRuns",
      `SELECT * FROM ${this.store.tables.runs} WHERE status IN ${ACTIVE} AND ($1::text IS NULL OR owner_id = $1::text) ORDER BY seq`,
      [ownerId],
    );
    return rows.map(toRunRecord);
  }

  /** {@inheritDoc RunStore.tryStartRun} */
  async tryStartRun(runId: string): Promise<TryStartOutcome> {
    checkId(runId, "runId");
    const { db, tables } = this.store;
    return db.transaction("tryStartRun", async (c): Promise<TryStartOutcome> => {
      if (!(await tables.lockThreadOfRun(c, runId))) return { outcome: "missing" };
      const row = await one<RunRow & { blocked_by: string | null }>(
        c,
        `SELECT r.*, (SELECT b.run_id FROM ${tables.runs} b
                       WHERE b.thread_id = r.thread_id AND b.status IN ${ACTIVE} AND b.seq < r.seq
                       ORDER BY b.seq LIMIT 1) AS blocked_by
         FROM ${tables.runs} r WHERE r.run_id = $1`,
        [runId],
      );
      if (!row) return { outcome: "missing" };
      if (row.status !== "pending" || row.cancel_action !== null)
        return { outcome: "cancelled", run: toRunRecord(row) };
      if (row.blocked_by !== null) return { outcome: "blocked", run: toRunRecord(row), blockedBy: row.blocked_by };
      const now = this.store.now();
      const started = await one<RunRow>(
        c,
        `UPDATE ${tables.runs} SET status = 'running', started_at = $2::timestamptz, updated_at = $2::timestamptz WHERE run_id = $1 RETURNING *`,
        [runId, now],
      );
      return { outcome: "started", run: toRunRecord(started!) };
    });
  }

  /** {@inheritDoc RunStore.finishRun} */
  async finishRun(runId: string, input: FinishRunInput): Promise<RunRecord | null> {
    checkId(runId, "runId");
    const update = checkFinishRunInput(input);
    const { db, tables } = this.store;
    return db.transaction("finishRun", async (c) => {
      const threadId = await tables.lockThreadOfRun(c, runId);
      if (!threadId) return null;
      const now = this.store.now();
      const params: unknown[] = [runId, update.expectStatus, update.status, now];
      const sets = ["status = $3", "ended_at = $4::timestamptz", "updated_at = $4::timestamptz"];
      // `undefined` keeps the stored value; null clears it.
      if (update.error !== undefined) sets.push(`error = $${params.push(update.error)}`);
      if (update.stopReason !== undefined) sets.push(`stop_reason = $${params.push(update.stopReason)}`);
      // jsonb `||` is a shallow merge, as the other stores do.
      if (update.metadata !== undefined)
        sets.push(`metadata = metadata || $${params.push(JSON.stringify(update.metadata))}::jsonb`);
      const row = await one<RunRow>(
        c,
        `UPDATE ${tables.runs} SET ${sets.join(", ")} WHERE run_id = $1 AND status = ANY($2::text[]) RETURNING *`,
        params,
      );
      if (!row) return null;
      await tables.settleThread(c, threadId, update.threadStatus, now);
      return toRunRecord(row);
    });
  }

  /** {@inheritDoc RunStore.requestCancel} */
  async requestCancel(runId: string, action: CancelAction): Promise<RunRecord | null> {
    checkId(runId, "runId");
    checkCancelAction(action);
    const { db, tables } = this.store;
    return db.transaction("requestCancel", async (c) => {
      const threadId = await tables.lockThreadOfRun(c, runId);
      if (!threadId) return null;
      const row = await one<RunRow>(c, `SELECT * FROM ${tables.runs} WHERE run_id = $1`, [runId]);
      if (!row) return null;
      const now = this.store.now();
      if (row.status === "pending") {
        const ended = await one<RunRow>(
          c,
          `UPDATE ${tables.runs} SET status = 'interrupted', ended_at = $2::timestamptz, updated_at = $2::timestamptz WHERE run_id = $1 RETURNING *`,
          [runId, now],
        );
        await tables.settleThread(c, threadId, "idle", now);
        return toRunRecord(ended!);
      }
      if (row.status === "running" && row.cancel_action === null) {
        const requested = await one<RunRow>(
          c,
          `UPDATE ${tables.runs} SET cancel_action = $2, updated_at = $3::timestamptz WHERE run_id = $1 RETURNING *`,
          [runId, action, now],
        );
        return toRunRecord(requested!);
      }
      return toRunRecord(row);
    });
  }

  /** {@inheritDoc RunStore.setOwner} */
  async setOwner(runId: string, expectedOwnerId: string | null, ownerId: string): Promise<boolean> {
    checkOwnerChange(runId, expectedOwnerId, ownerId);
    return this.store.db.transaction("setOwner", async (c) => {
      const result = await c.query(
        `UPDATE ${this.store.tables.runs} SET owner_id = $3, updated_at = $4::timestamptz WHERE run_id = $1 AND owner_id IS NOT DISTINCT FROM $2::text`,
        [runId, expectedOwnerId, ownerId, this.store.now()],
      );
      return result.rowCount === 1;
    });
  }

  /** {@inheritDoc RunStore.deleteRun} */
  async deleteRun(runId: string): Promise<boolean> {
    checkId(runId, "runId");
    const { runs } = this.store.tables;
    return this.store.db.transaction("deleteRun", async (c) => {
      const row = await one<{ status: string; thread_id: string }>(
        c,
        `SELECT status, thread_id FROM ${runs} WHERE run_id = $1 FOR UPDATE`,
        [runId],
      );
      if (!row) return false;
      if (row.status === "pending" || row.status === "running") throw runStillActive(runId, row.thread_id, row.status);
      await c.query(`DELETE FROM ${runs} WHERE run_id = $1`, [runId]);
      return true;
    });
  }

  /** {@inheritDoc RunStore.deleteFinishedRuns} */
  async deleteFinishedRuns(endedBefore: Date): Promise<number> {
    const cutoff = checkCutoff(endedBefore).toISOString();
    return this.store.db.transaction("deleteFinishedRuns", async (c) => {
      const result = await c.query(
        `DELETE FROM ${this.store.tables.runs} WHERE status IN ${TERMINAL} AND ended_at < $1::timestamptz`,
        [cutoff],
      );
      return result.rowCount ?? 0;
    });
  }
}
