/**
 * A {@link RunStore} made of two parts: its thread operations and its run
 * operations. The memory, SQLite and PostgreSQL stores are built this way, so
 * that each part reads in one sitting and the three are laid out alike; this
 * class only forwards each method to its part.
 */
import type {
  ActiveRunQuery,
  AdmitRunInput,
  AdmitRunResult,
  CreateThreadInput,
  FinishRunInput,
  RunListQuery,
  RunStore,
  ThreadCountQuery,
  ThreadPatch,
  ThreadSearchQuery,
  TryStartOutcome,
} from "./run-store.js";
import type { CancelAction, RunRecord, ThreadRecord } from "./types.js";

/** The thread methods of a {@link RunStore}. */
export type ThreadOperations = Pick<
  RunStore,
  "createThread" | "getThread" | "updateThread" | "searchThreads" | "countThreads" | "deleteThread"
>;

/** The run methods of a {@link RunStore}. */
export type RunOperations = Pick<
  RunStore,
  | "admitRun"
  | "getRun"
  | "listRuns"
  | "listActiveRuns"
  | "tryStartRun"
  | "finishRun"
  | "requestCancel"
  | "setOwner"
  | "deleteRun"
  | "deleteFinishedRuns"
>;

/** A {@link RunStore} forwarding to its thread and run operations; the subclass adds `close`. */
export abstract class ComposedRunStore implements RunStore {
  constructor(
    private readonly threads: ThreadOperations,
    private readonly runs: RunOperations,
  ) {}

  /** {@inheritDoc RunStore.createThread} */
  createThread(input: CreateThreadInput): Promise<ThreadRecord> {
    return this.threads.createThread(input);
  }

  /** {@inheritDoc RunStore.getThread} */
  getThread(threadId: string): Promise<ThreadRecord | null> {
    return this.threads.getThread(threadId);
  }

  /** {@inheritDoc RunStore.updateThread} */
  updateThread(threadId: string, patch: ThreadPatch): Promise<ThreadRecord> {
    return this.threads.updateThread(threadId, patch);
  }

  /** {@inheritDoc RunStore.searchThreads} */
  searchThreads(query?: ThreadSearchQuery): Promise<ThreadRecord[]> {
    return this.threads.searchThreads(query);
  }

  /** {@inheritDoc RunStore.countThreads} */
  countThreads(query?: ThreadCountQuery): Promise<number> {
    return this.threads.countThreads(query);
  }

  /** {@inheritDoc RunStore.deleteThread} */
  deleteThread(threadId: string): Promise<boolean> {
    return this.threads.deleteThread(threadId);
  }

  /** {@inheritDoc RunStore.admitRun} */
  admitRun(input: AdmitRunInput): Promise<AdmitRunResult> {
    return this.runs.admitRun(input);
  }

  /** {@inheritDoc RunStore.getRun} */
  getRun(runId: string): Promise<RunRecord | null> {
    return this.runs.getRun(runId);
  }

  /** {@inheritDoc RunStore.listRuns} */
  listRuns(threadId: string, query?: RunListQuery): Promise<RunRecord[]> {
    return this.runs.listRuns(threadId, query);
  }

  /** {@inheritDoc RunStore.listActiveRuns} */
  listActiveRuns(query?: ActiveRunQuery): Promise<RunRecord[]> {
    return this.runs.listActiveRuns(query);
  }

  /** {@inheritDoc RunStore.tryStartRun} */
  tryStartRun(runId: string): Promise<TryStartOutcome> {
    return this.runs.tryStartRun(runId);
  }

  /** {@inheritDoc RunStore.finishRun} */
  finishRun(runId: string, input: FinishRunInput): Promise<RunRecord | null> {
    return this.runs.finishRun(runId, input);
  }

  /** {@inheritDoc RunStore.requestCancel} */
  requestCancel(runId: string, action: CancelAction): Promise<RunRecord | null> {
    return this.runs.requestCancel(runId, action);
  }

  /** {@inheritDoc RunStore.setOwner} */
  setOwner(runId: string, expectedOwnerId: string | null, ownerId: string): Promise<boolean> {
    return this.runs.setOwner(runId, expectedOwnerId, ownerId);
  }

  /** {@inheritDoc RunStore.deleteRun} */
  deleteRun(runId: string): Promise<boolean> {
    return this.runs.deleteRun(runId);
  }

  /** {@inheritDoc RunStore.deleteFinishedRuns} */
  deleteFinishedRuns(endedBefore: Date): Promise<number> {
    return this.runs.deleteFinishedRuns(endedBefore);
  }

  /** {@inheritDoc RunStore.close} */
  abstract close(): Promise<void>;
}
