/**
 * The data of a `MemoryRunStore`: threads, runs, and each thread's runs in
 * creation order, with the rules that keep the three consistent. Records are
 * held as they are; the operations copy them in and out.
 */
import { RuntimeError } from "../errors.js";
import type { Logger } from "../logger.js";
import { threadStatusAfterRun, type CheckedAdmitRunInput } from "./store-input.js";
import type { RunRecord, RunStatus, ThreadRecord, ThreadStatus } from "./types.js";

/** A run and its place in creation order. */
export interface StoredRun {
  record: RunRecord;
  /** Creation order; total even when timestamps are equal. */
  seq: number;
}

/** True for `pending` and `running`. */
export const isActive = (status: RunStatus): boolean => status === "pending" || status === "running";

/** What the store's thread and run operations share. */
export interface MemoryStoreParts {
  readonly tables: MemoryTables;
  readonly logger: Logger;
  /** The store's clock as an ISO-8601 string. */
  now(): string;
}

/** Threads and runs of one `MemoryRunStore`, and whether it is closed. */
export class MemoryTables {
  readonly threads = new Map<string, ThreadRecord>();
  /** Every run; Map iteration follows insertion, which is creation order. */
  readonly runs = new Map<string, StoredRun>();
  /** Run ids of each thread in creation order. */
  private readonly threadRuns = new Map<string, string[]>();
  private seq = 0;
  private closed = false;

  /** Throws `CLOSED` after {@link MemoryTables.close}. */
  open(): void {
    if (this.closed) throw new RuntimeError("CLOSED", "MemoryRunStore is closed");
  }

  /** Later operations fail with `CLOSED`; the data is kept. */
  close(): void {
    this.closed = true;
  }

  /** Adds an idle thread with no runs. */
  insertThread(threadId: string, metadata: Record<string, unknown>, now: string): ThreadRecord {
    const thread: ThreadRecord = { threadId, status: "idle", metadata, createdAt: now, updatedAt: now };
    this.threads.set(threadId, thread);
    this.threadRuns.set(threadId, []);
    return thread;
  }

  /** Removes a thread and every run of it. */
  deleteThread(threadId: string): void {
    for (const runId of this.threadRuns.get(threadId) ?? []) this.runs.delete(runId);
    this.threadRuns.delete(threadId);
    this.threads.delete(threadId);
  }

  /** Adds a `pending` run (its thread exists), last in creation order. */
  insertRun(run: CheckedAdmitRunInput, now: string): RunRecord {
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
    this.runs.set(record.runId, { record, seq: ++this.seq });
    this.threadRuns.get(record.threadId)?.push(record.runId);
    return record;
  }

  /** Run ids of a thread, oldest first; empty for a missing thread. */
  runIdsOf(threadId: string): readonly string[] {
    return this.threadRuns.get(threadId) ?? [];
  }

  /** Active runs of a thread, oldest first. */
  activeRuns(threadId: string): StoredRun[] {
    const out: StoredRun[] = [];
    for (const id of this.runIdsOf(threadId)) {
      const run = this.runs.get(id)!;
      if (isActive(run.record.status)) out.push(run);
    }
    return out;
  }

  /** Sets the thread status after a run ended (the run is already terminal). */
  settleThread(threadId: string, requested: ThreadStatus, now: string): void {
    const thread = this.threads.get(threadId);
    if (!thread) return;
    thread.status = threadStatusAfterRun(this.activeRuns(threadId).length > 0, requested);
    thread.updatedAt = now;
  }

  /** Removes one run. */
  removeRun(record: RunRecord): void {
    this.runs.delete(record.runId);
    const ids = this.threadRuns.get(record.threadId);
    const at = ids?.indexOf(record.runId) ?? -1;
    if (ids && at >= 0) ids.splice(at, 1);
  }
}
