/** The run operations of `MemoryRunStore`: admission, start, end, cancel, ownership and retention. */
import { isActive, type MemoryStoreParts, type MemoryTables } from "./memory-tables.js";
import type {
  ActiveRunQuery,
  AdmitRunInput,
  AdmitRunResult,
  FinishRunInput,
  RunListQuery,
  TryStartOutcome,
} from "./run-store.js";
import { runIdTaken, runStillActive, threadAlreadyActive, threadNotFound } from "./store-errors.js";
import {
  checkAdmitRunInput,
  checkCancelAction,
  checkCutoff,
  checkFinishRunInput,
  checkId,
  checkOwnerChange,
  checkRunListQuery,
  SUPERSEDED_RUN_ERROR,
} from "./store-input.js";
import { isTerminalRunStatus, type CancelAction, type RunRecord } from "./types.js";

/** Admitting, reading, starting, finishing, cancelling and deleting runs. */
export class MemoryRunOperations {
  private readonly tables: MemoryTables;

  constructor(private readonly store: MemoryStoreParts) {
    this.tables = store.tables;
  }

  /** {@inheritDoc RunStore.admitRun} */
  async admitRun(input: AdmitRunInput): Promise<AdmitRunResult> {
    this.tables.open();
    const run = checkAdmitRunInput(input);
    // Every check comes before the first write, so a refused admission changes nothing.
    const existing = this.tables.threads.get(run.threadId);
    if (!existing && run.ifNotExists === "reject") throw threadNotFound(run.threadId);
    const active = existing ? this.tables.activeRuns(run.threadId) : [];
    if (run.multitaskStrategy === "reject" && active.length > 0)
      throw threadAlreadyActive(
        run.threadId,
        active.map((r) => r.record.runId),
      );
    if (this.tables.runs.has(run.runId)) throw runIdTaken(run.runId);

    const now = this.store.now();
    const thread = existing ?? this.tables.insertThread(run.threadId, run.threadMetadata, now);
    const superseded: RunRecord[] = [];
    if (run.multitaskStrategy === "interrupt" || run.multitaskStrategy === "rollback") {
      for (const { record } of active) {
        if (record.status === "pending") {
          Object.assign(record, { status: "interrupted", error: SUPERSEDED_RUN_ERROR, endedAt: now, updatedAt: now });
        } else if (record.cancelAction === null) {
          Object.assign(record, { cancelAction: run.multitaskStrategy, updatedAt: now });
        }
        superseded.push(structuredClone(record));
      }
    }
    const record = this.tables.insertRun(run, now);
    thread.status = "busy";
    thread.updatedAt = now;
    if (run.threadMetadataUpdate !== undefined) thread.metadata = { ...thread.metadata, ...run.threadMetadataUpdate };
    this.store.logger.debug(
      { runId: run.runId, threadId: run.threadId, superseded: superseded.length },
      "run admitted",
    );
    return { run: structuredClone(record), superseded, thread: structuredClone(thread) };
  }

  /** {@inheritDoc RunStore.getRun} */
  async getRun(runId: string): Promise<RunRecord | null> {
    this.tables.open();
    const run = this.tables.runs.get(checkId(runId, "runId"));
    return run ? structuredClone(run.record) : null;
  }

  /** {@inheritDoc RunStore.listRuns} */
  async listRuns(threadId: string, query?: RunListQuery): Promise<RunRecord[]> {
    this.tables.open();
    checkId(threadId, "threadId");
    const { status, limit, offset } = checkRunListQuery(query);
    const ids = this.tables.runIdsOf(threadId);
    const out: RunRecord[] = [];
    let skipped = 0;
    for (let i = ids.length - 1; i >= 0 && out.length < limit; i--) {
      const record = this.tables.runs.get(ids[i]!)!.record;
      if (status !== undefined && record.status !== status) continue;
      if (skipped++ < offset) continue;
      out.push(structuredClone(record));
    }
    return out;
  }

  /** {@inheritDoc RunStore.listActiveRuns} */
  async listActiveRuns(query?: ActiveRunQuery): Promise<RunRecord[]> {
    this.tables.open();
    const ownerId = query?.ownerId === undefined ? undefined : checkId(query.ownerId, "ownerId");
    const out: RunRecord[] = [];
    for (const { record } of this.tables.runs.values()) {
      if (isActive(record.status) && (ownerId === undefined || record.ownerId === ownerId))
        out.push(structuredClone(record));
    }
    return out;
  }

  /** {@inheritDoc RunStore.tryStartRun} */
  async tryStartRun(runId: string): Promise<TryStartOutcome> {
    this.tables.open();
    const stored = this.tables.runs.get(checkId(runId, "runId"));
    if (!stored) return { outcome: "missing" };
    const { record } = stored;
    if (record.status !== "pending" || record.cancelAction !== null)
      return { outcome: "cancelled", run: structuredClone(record) };
    const blocker = this.tables.activeRuns(record.threadId).find((r) => r.seq < stored.seq);
    if (blocker) return { outcome: "blocked", run: structuredClone(record), blockedBy: blocker.record.runId };
    const now = this.store.now();
    Object.assign(record, { status: "running", startedAt: now, updatedAt: now });
    return { outcome: "started", run: structuredClone(record) };
  }

  /** {@inheritDoc RunStore.finishRun} */
  async finishRun(runId: string, input: FinishRunInput): Promise<RunRecord | null> {
    this.tables.open();
    checkId(runId, "runId");
    const update = checkFinishRunInput(input);
    const stored = this.tables.runs.get(runId);
    if (!stored || !update.expectStatus.includes(stored.record.status)) return null;
    const { record } = stored;
    const now = this.store.now();
    record.status = update.status;
    if (update.error !== undefined) record.error = update.error;
    if (update.stopReason !== undefined) record.stopReason = update.stopReason;
    if (update.metadata !== undefined) record.metadata = { ...record.metadata, ...update.metadata };
    record.endedAt = now;
    record.updatedAt = now;
    this.tables.settleThread(record.threadId, update.threadStatus, now);
    return structuredClone(record);
  }

  /** {@inheritDoc RunStore.requestCancel} */
  async requestCancel(runId: string, action: CancelAction): Promise<RunRecord | null> {
    this.tables.open();
    checkId(runId, "runId");
    checkCancelAction(action);
    const stored = this.tables.runs.get(runId);
    if (!stored) return null;
    const { record } = stored;
    const now = this.store.now();
    if (record.status === "pending") {
      Object.assign(record, { status: "interrupted", endedAt: now, updatedAt: now });
      this.tables.settleThread(record.threadId, "idle", now);
    } else if (record.status === "running" && record.cancelAction === null) {
      Object.assign(record, { cancelAction: action, updatedAt: now });
    }
    return structuredClone(record);
  }

  /** {@inheritDoc RunStore.setOwner} */
  async setOwner(runId: string, expectedOwnerId: string | null, ownerId: string): Promise<boolean> {
    this.tables.open();
    checkOwnerChange(runId, expectedOwnerId, ownerId);
    const stored = this.tables.runs.get(runId);
    if (!stored || stored.record.ownerId !== expectedOwnerId) return false;
    stored.record.ownerId = ownerId;
    stored.record.updatedAt = this.store.now();
    return true;
  }

  /** {@inheritDoc RunStore.deleteRun} */
  async deleteRun(runId: string): Promise<boolean> {
    this.tables.open();
    const stored = this.tables.runs.get(checkId(runId, "runId"));
    if (!stored) return false;
    const { record } = stored;
    if (isActive(record.status)) throw runStillActive(runId, record.threadId, record.status);
    this.tables.removeRun(record);
    return true;
  }

  /** {@inheritDoc RunStore.deleteFinishedRuns} */
  async deleteFinishedRuns(endedBefore: Date): Promise<number> {
    this.tables.open();
    const cutoff = checkCutoff(endedBefore).getTime();
    let deleted = 0;
    for (const { record } of [...this.tables.runs.values()]) {
      if (isTerminalRunStatus(record.status) && record.endedAt !== null && Date.parse(record.endedAt) < cutoff) {
        this.tables.removeRun(record);
        deleted++;
      }
    }
    return deleted;
  }
}
