/**
 * `MemoryRunStore`: the run store of a single process. Every method runs to
 * completion without awaiting, so it is atomic with respect to every other
 * call; records go in and out as copies.
 */
import { RuntimeError } from "../errors.js";
import { silentLogger, type Logger } from "../logger.js";
import type {
  AdmitRunInput,
  AdmitRunResult,
  FinishRunInput,
  RunListQuery,
  RunStore,
  ThreadSearchQuery,
  TryStartOutcome,
} from "./run-store.js";
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
} from "./store-input.js";
import { checkThreadFilter, checkThreadSearch, threadComparator, threadMatches } from "./thread-search.js";
import { isTerminalRunStatus, type CancelAction, type RunRecord, type RunStatus, type ThreadRecord, type ThreadStatus } from "./types.js";

/** Options of {@link MemoryRunStore}. */
export interface MemoryRunStoreOptions {
  /** Receives debug records of state changes. Default: silent. */
  logger?: Logger;
  /** Clock for every timestamp the store writes. Default: `() => new Date()`. */
  now?: () => Date;
}

interface StoredRun {
  record: RunRecord;
  /** Creation order; total even when timestamps are equal. */
  seq: number;
}

const isActive = (status: RunStatus): boolean => status === "pending" || status === "running";

/**
 * A {@link RunStore} in process memory, for a single server instance and for
 * tests. It behaves exactly like `PostgresRunStore` (the conformance kit checks
 * both) but loses everything when the process exits.
 *
 * @example
 * ```ts
 * const store = new MemoryRunStore();
 * const { run } = await store.admitRun({ runId, threadId, assistantId: "agent", multitaskStrategy: "enqueue",
 *   onDisconnect: "cancel", metadata: {}, kwargs: { streamMode: ["values"] }, ownerId: "me", ifNotExists: "create" });
 * ```
 */
export class MemoryRunStore implements RunStore {
  private readonly logger: Logger;
  private readonly clock: () => Date;
  private readonly threads = new Map<string, ThreadRecord>();
  private readonly runs = new Map<string, StoredRun>();
  /** Run ids of each thread in creation order. */
  private readonly threadRuns = new Map<string, string[]>();
  private seq = 0;
  private closed = false;

  /** @param options - logger and clock. */
  constructor(options: MemoryRunStoreOptions = {}) {
    this.logger = options.logger ?? silentLogger;
    this.clock = options.now ?? (() => new Date());
  }

  // -- threads ----------------------------------------------------------------

  /** {@inheritDoc RunStore.createThread} */
  async createThread(input: { threadId: string; metadata?: Record<string, unknown>; ifExists?: "raise" | "do_nothing" }): Promise<ThreadRecord> {
    this.open();
    const threadId = checkId(input.threadId, "threadId");
    const metadata = input.metadata === undefined ? {} : toJsonObject(input.metadata, "metadata");
    const ifExists = input.ifExists ?? "raise";
    if (ifExists !== "raise" && ifExists !== "do_nothing") throw new RuntimeError("INVALID_ARGUMENT", `ifExists must be "raise" or "do_nothing", got ${JSON.stringify(ifExists)}`);
    const existing = this.threads.get(threadId);
    if (existing) {
      if (ifExists === "do_nothing") return structuredClone(existing);
      throw new RuntimeError("THREAD_EXISTS", `Thread ${threadId} already exists`, { details: { threadId } });
    }
    return structuredClone(this.insertThread(threadId, metadata, this.now()));
  }

  /** {@inheritDoc RunStore.getThread} */
  async getThread(threadId: string): Promise<ThreadRecord | null> {
    this.open();
    const thread = this.threads.get(checkId(threadId, "threadId"));
    return thread ? structuredClone(thread) : null;
  }

  /** {@inheritDoc RunStore.updateThread} */
  async updateThread(threadId: string, patch: { metadata?: Record<string, unknown>; status?: ThreadStatus }): Promise<ThreadRecord> {
    this.open();
    checkId(threadId, "threadId");
    const metadata = patch.metadata === undefined ? undefined : toJsonObject(patch.metadata, "metadata");
    const status = patch.status === undefined ? undefined : checkThreadStatus(patch.status, "status");
    const thread = this.threads.get(threadId);
    if (!thread) throw threadNotFound(threadId);
    if (metadata) thread.metadata = { ...thread.metadata, ...metadata };
    if (status) thread.status = status;
    thread.updatedAt = this.now();
    return structuredClone(thread);
  }

  /** {@inheritDoc RunStore.searchThreads} */
  async searchThreads(query?: ThreadSearchQuery): Promise<ThreadRecord[]> {
    this.open();
    const q = checkThreadSearch(query);
    return [...this.threads.values()]
      .filter((t) => threadMatches(t, q))
      .sort(threadComparator(q.sortBy, q.sortOrder))
      .slice(q.offset, q.offset + q.limit)
      .map((t) => structuredClone(t));
  }

  /** {@inheritDoc RunStore.countThreads} */
  async countThreads(query?: Omit<ThreadSearchQuery, "limit" | "offset" | "sortBy" | "sortOrder">): Promise<number> {
    this.open();
    const filter = checkThreadFilter(query);
    let count = 0;
    for (const thread of this.threads.values()) if (threadMatches(thread, filter)) count++;
    return count;
  }

  /** {@inheritDoc RunStore.deleteThread} */
  async deleteThread(threadId: string): Promise<boolean> {
    this.open();
    checkId(threadId, "threadId");
    if (!this.threads.has(threadId)) return false;
    const active = this.activeRuns(threadId);
    if (active.length > 0) {
      const activeRunIds = active.map((r) => r.record.runId);
      throw threadHasActiveRuns(threadId, activeRunIds);
    }
    for (const runId of this.threadRuns.get(threadId) ?? []) this.runs.delete(runId);
    this.threadRuns.delete(threadId);
    this.threads.delete(threadId);
    return true;
  }

  // -- runs -------------------------------------------------------------------

  /** {@inheritDoc RunStore.admitRun} */
  async admitRun(input: AdmitRunInput): Promise<AdmitRunResult> {
    this.open();
    const run = checkAdmitRunInput(input);
    // Every check comes before the first write, so a refused admission changes nothing.
    const existing = this.threads.get(run.threadId);
    if (!existing && run.ifNotExists === "reject") throw threadNotFound(run.threadId);
    const active = existing ? this.activeRuns(run.threadId) : [];
    if (run.multitaskStrategy === "reject" && active.length > 0) {
      const activeRunIds = active.map((r) => r.record.runId);
      throw threadAlreadyActive(run.threadId, activeRunIds);
    }
    if (this.runs.has(run.runId)) throw runIdTaken(run.runId);

    const now = this.now();
    const thread = existing ?? this.insertThread(run.threadId, run.threadMetadata, now);
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
    const record: RunRecord = {
      runId: run.runId,
      threadId: run.threadId,
      assistantId: run.assistantId,
      status: "pending",
      multitaskStrategy: run.multitaskStrategy,
      onDisconnect: run.onDisconnect,
      metadata: run.metadata,
      kwargs: run.kwargs,
      createdAt: now,
      updatedAt: now,
      startedAt: null,
      endedAt: null,
      error: null,
      stopReason: null,
      ownerId: run.ownerId,
      cancelAction: null,
    };
    this.runs.set(run.runId, { record, seq: ++this.seq });
    this.threadRuns.get(run.threadId)?.push(run.runId);
    thread.status = "busy";
    thread.updatedAt = now;
    this.logger.debug({ runId: run.runId, threadId: run.threadId, superseded: superseded.length }, "run admitted");
    return { run: structuredClone(record), superseded, thread: structuredClone(thread) };
  }

  /** {@inheritDoc RunStore.getRun} */
  async getRun(runId: string): Promise<RunRecord | null> {
    this.open();
    const run = this.runs.get(checkId(runId, "runId"));
    return run ? structuredClone(run.record) : null;
  }

  /** {@inheritDoc RunStore.listRuns} */
  async listRuns(threadId: string, query?: RunListQuery): Promise<RunRecord[]> {
    this.open();
    checkId(threadId, "threadId");
    const { status, limit, offset } = checkRunListQuery(query);
    const ids = this.threadRuns.get(threadId) ?? [];
    const out: RunRecord[] = [];
    let skipped = 0;
    for (let i = ids.length - 1; i >= 0 && out.length < limit; i--) {
      const record = this.runs.get(ids[i]!)!.record;
      if (status !== undefined && record.status !== status) continue;
      if (skipped++ < offset) continue;
      out.push(structuredClone(record));
    }
    return out;
  }

  /** {@inheritDoc RunStore.listActiveRuns} */
  async listActiveRuns(query?: { ownerId?: string }): Promise<RunRecord[]> {
    this.open();
    const ownerId = query?.ownerId === undefined ? undefined : checkId(query.ownerId, "ownerId");
    // Map iteration follows insertion, which is creation order.
    const out: RunRecord[] = [];
    for (const { record } of this.runs.values()) {
      if (isActive(record.status) && (ownerId === undefined || record.ownerId === ownerId)) out.push(structuredClone(record));
    }
    return out;
  }

  /** {@inheritDoc RunStore.tryStartRun} */
  async tryStartRun(runId: string): Promise<TryStartOutcome> {
    this.open();
    const stored = this.runs.get(checkId(runId, "runId"));
    if (!stored) return { outcome: "missing" };
    const { record } = stored;
    if (record.status !== "pending" || record.cancelAction !== null) return { outcome: "cancelled", run: structuredClone(record) };
    const blocker = this.activeRuns(record.threadId).find((r) => r.seq < stored.seq);
    if (blocker) return { outcome: "blocked", run: structuredClone(record), blockedBy: blocker.record.runId };
    const now = this.now();
    Object.assign(record, { status: "running", startedAt: now, updatedAt: now });
    return { outcome: "started", run: structuredClone(record) };
  }

  /** {@inheritDoc RunStore.finishRun} */
  async finishRun(runId: string, input: FinishRunInput): Promise<RunRecord | null> {
    this.open();
    checkId(runId, "runId");
    const update = checkFinishRunInput(input);
    const stored = this.runs.get(runId);
    if (!stored || !update.expectStatus.includes(stored.record.status)) return null;
    const { record } = stored;
    const now = this.now();
    record.status = update.status;
    if (update.error !== undefined) record.error = update.error;
    if (update.stopReason !== undefined) record.stopReason = update.stopReason;
    record.endedAt = now;
    record.updatedAt = now;
    this.settleThread(record.threadId, update.threadStatus, now);
    return structuredClone(record);
  }

  /** {@inheritDoc RunStore.requestCancel} */
  async requestCancel(runId: string, action: CancelAction): Promise<RunRecord | null> {
    this.open();
    checkId(runId, "runId");
    checkCancelAction(action);
    const stored = this.runs.get(runId);
    if (!stored) return null;
    const { record } = stored;
    const now = this.now();
    if (record.status === "pending") {
      Object.assign(record, { status: "interrupted", endedAt: now, updatedAt: now });
      this.settleThread(record.threadId, "idle", now);
    } else if (record.status === "running" && record.cancelAction === null) {
      Object.assign(record, { cancelAction: action, updatedAt: now });
    }
    return structuredClone(record);
  }

  /** {@inheritDoc RunStore.setOwner} */
  async setOwner(runId: string, expectedOwnerId: string | null, ownerId: string): Promise<boolean> {
    this.open();
    checkId(runId, "runId");
    if (expectedOwnerId !== null) checkId(expectedOwnerId, "expectedOwnerId");
    checkId(ownerId, "ownerId");
    const stored = this.runs.get(runId);
    if (!stored || stored.record.ownerId !== expectedOwnerId) return false;
    stored.record.ownerId = ownerId;
    stored.record.updatedAt = this.now();
    return true;
  }

  /** {@inheritDoc RunStore.deleteRun} */
  async deleteRun(runId: string): Promise<boolean> {
    this.open();
    const stored = this.runs.get(checkId(runId, "runId"));
    if (!stored) return false;
    const { record } = stored;
    if (isActive(record.status)) {
      throw runStillActive(runId, record.threadId, record.status);
    }
    this.removeRun(record);
    return true;
  }

  /** {@inheritDoc RunStore.deleteFinishedRuns} */
  async deleteFinishedRuns(endedBefore: Date): Promise<number> {
    this.open();
    const cutoff = checkCutoff(endedBefore).getTime();
    let deleted = 0;
    for (const { record } of [...this.runs.values()]) {
      if (isTerminalRunStatus(record.status) && record.endedAt !== null && Date.parse(record.endedAt) < cutoff) {
        this.removeRun(record);
        deleted++;
      }
    }
    return deleted;
  }

  /** Marks the store closed; later calls fail with `CLOSED`. The data is kept. */
  async close(): Promise<void> {
    this.closed = true;
  }

  // -- internals --------------------------------------------------------------

  private open(): void {
    if (this.closed) throw new RuntimeError("CLOSED", "MemoryRunStore is closed");
  }

  /** The clock as an ISO-8601 UTC string. */
  private now(): string {
    return this.clock().toISOString();
  }

  private insertThread(threadId: string, metadata: Record<string, unknown>, now: string): ThreadRecord {
    const thread: ThreadRecord = { threadId, status: "idle", metadata, createdAt: now, updatedAt: now };
    this.threads.set(threadId, thread);
    this.threadRuns.set(threadId, []);
    return thread;
  }

  /** Active runs of a thread, oldest first. */
  private activeRuns(threadId: string): StoredRun[] {
    const out: StoredRun[] = [];
    for (const id of this.threadRuns.get(threadId) ?? []) {
      const run = this.runs.get(id)!;
      if (isActive(run.record.status)) out.push(run);
    }
    return out;
  }

  /** Sets the thread status after a run ended (the run is already terminal). */
  private settleThread(threadId: string, requested: ThreadStatus, now: string): void {
    const thread = this.threads.get(threadId);
    if (!thread) return;
    thread.status = threadStatusAfterRun(this.activeRuns(threadId).length > 0, requested);
    thread.updatedAt = now;
  }

  private removeRun(record: RunRecord): void {
    this.runs.delete(record.runId);
    const ids = this.threadRuns.get(record.threadId);
    const at = ids?.indexOf(record.runId) ?? -1;
    if (ids && at >= 0) ids.splice(at, 1);
  }
}
