/**
 * The durable home of runs and thread metadata. Implementations must make every
 * method atomic with respect to concurrent callers — on one instance or many —
 * because the run manager relies on them for admission and start ordering.
 * `MemoryRunStore`, `SqliteRunStore` (one instance, a file) and `PostgresRunStore`
 * (many instances) implement it; `runStoreConformance`
 * (from `@deerflow/runtime/testing`) checks a plugin implementation.
 */
import type {
  CancelAction,
  DisconnectMode,
  MultitaskStrategy,
  RunKwargs,
  RunRecord,
  RunStatus,
  ThreadRecord,
  ThreadStatus,
} from "./types.js";

/** Input of {@link RunStore.admitRun}. */
export interface AdmitRunInput {
  runId: string;
  threadId: string;
  assistantId: string;
  multitaskStrategy: MultitaskStrategy;
  onDisconnect: DisconnectMode;
  metadata: Record<string, unknown>;
  kwargs: RunKwargs;
  /** Instance that will execute the run. */
  ownerId: string;
  /** `create` makes a missing thread (with `threadMetadata`); `reject` fails with `THREAD_NOT_FOUND`. */
  ifNotExists: "create" | "reject";
  threadMetadata?: Record<string, unknown>;
  /**
   * Keys set in the thread's metadata in the admission's transaction (a shallow
   * merge, as {@link RunStore.updateThread}), on a thread created here too: what the
   * run records on its thread (e.g. its assistant) without a write of its own.
   */
  threadMetadataUpdate?: Record<string, unknown>;
}

/** Result of {@link RunStore.admitRun}. */
export interface AdmitRunResult {
  /** The new run, status `pending`. */
  run: RunRecord;
  /**
   * Runs the strategy superseded, as they are after admission: previously `pending`
   * ones are now `interrupted` (they never started); previously `running` ones stay
   * `running` with `cancelAction` set to the strategy, for their owner to act on.
   */
  superseded: RunRecord[];
  /** The thread after admission (status `busy`). */
  thread: ThreadRecord;
}

/** Outcome of {@link RunStore.tryStartRun}. */
export type TryStartOutcome =
  /** The run is now `running`. */
  | { outcome: "started"; run: RunRecord }
  /** An earlier run on the thread is still active (`blockedBy`: the oldest one); try again later. */
  | { outcome: "blocked"; run: RunRecord; blockedBy: string }
  /** The run is no longer pending (cancelled or recovered) or has a cancel request. */
  | { outcome: "cancelled"; run: RunRecord }
  | { outcome: "missing" };

/** Terminal update of {@link RunStore.finishRun}. */
export interface FinishRunInput {
  status: Exclude<RunStatus, "pending" | "running">;
  /** Omitted: keep the stored value; null clears it. */
  error?: string | null;
  /** Omitted: keep the stored value; null clears it. */
  stopReason?: string | null;
  /** Shallow-merged into the run's metadata (e.g. the run's `token_usage`); omitted: unchanged. */
  metadata?: Record<string, unknown>;
  /**
   * Thread status to set when no other run on the thread is active; when one is,
   * the thread stays `busy`.
   */
  threadStatus: ThreadStatus;
  /** Only finish when the current status is one of these (compare-and-set). Default: `pending`, `running`. */
  expectStatus?: RunStatus[];
}

/** Input of {@link RunStore.createThread}. */
export interface CreateThreadInput {
  threadId: string;
  metadata?: Record<string, unknown>;
  /** `raise` (default) fails with `THREAD_EXISTS` when the thread exists; `do_nothing` returns it unchanged. */
  ifExists?: "raise" | "do_nothing";
}

/** Change of {@link RunStore.updateThread}: what is absent is kept. */
export interface ThreadPatch {
  /** Shallow-merged into the thread's metadata. */
  metadata?: Record<string, unknown>;
  status?: ThreadStatus;
}

/** Filter of {@link RunStore.searchThreads}. */
export interface ThreadSearchQuery {
  /**
   * JSON containment on metadata with PostgreSQL `jsonb @>` semantics: every key given
   * must be present and its value contained (nested objects may hold more keys, arrays
   * more elements; a scalar matches only an equal scalar, never an array holding it).
   */
  metadata?: Record<string, unknown>;
  status?: ThreadStatus;
  /** Only these threads (an empty list matches nothing). */
  ids?: string[];
  /** 1..1000, default 10 (`INVALID_ARGUMENT` outside). */
  limit?: number;
  /** Default 0. */
  offset?: number;
  /** Default `createdAt`; ties are broken by `threadId` in the same order, strings compare by code point. */
  sortBy?: "threadId" | "status" | "createdAt" | "updatedAt";
  /** Default `desc`. */
  sortOrder?: "asc" | "desc";
}

/** Filter of {@link RunStore.countThreads}: a search without paging or order. */
export type ThreadCountQuery = Omit<ThreadSearchQuery, "limit" | "offset" | "sortBy" | "sortOrder">;

/** Filter of {@link RunStore.listRuns}. */
export interface RunListQuery {
  status?: RunStatus;
  /** 1..1000, default 10 (`INVALID_ARGUMENT` outside). */
  limit?: number;
  /** Default 0. */
  offset?: number;
}

/** Filter of {@link RunStore.listActiveRuns}. */
export interface ActiveRunQuery {
  /** Only the runs this instance owns. */
  ownerId?: string;
}

/** Durable storage of runs and thread metadata. */
export interface RunStore {
  // -- threads ---------------------------------------------------------------

  /**
   * Creates a thread. `ifExists: "raise"` (default) fails with `THREAD_EXISTS`;
   * `"do_nothing"` returns the existing thread unchanged.
   */
  createThread(input: CreateThreadInput): Promise<ThreadRecord>;
  getThread(threadId: string): Promise<ThreadRecord | null>;
  /** Shallow-merges `metadata` into the thread's metadata and/or sets `status`. `THREAD_NOT_FOUND` when missing. */
  updateThread(threadId: string, patch: ThreadPatch): Promise<ThreadRecord>;
  searchThreads(query?: ThreadSearchQuery): Promise<ThreadRecord[]>;
  countThreads(query?: ThreadCountQuery): Promise<number>;
  /** Deletes the thread and all its runs. `THREAD_BUSY` if it has an active run; false if missing. */
  deleteThread(threadId: string): Promise<boolean>;

  // -- runs -----------------------------------------------------------------

  /**
   * Admits a run atomically under its multitask strategy: `reject` fails with
   * `THREAD_BUSY` when the thread has an active run (and then changes nothing);
   * `interrupt`/`rollback` supersede the active runs; `enqueue` just inserts.
   * The thread becomes `busy`. `threadMetadata` only seeds a thread created here;
   * `threadMetadataUpdate` is merged into the thread's metadata in any case.
   * A run id already taken fails with `INVALID_ARGUMENT`; a failed admission writes nothing.
   * `superseded` is in creation order.
   */
  admitRun(input: AdmitRunInput): Promise<AdmitRunResult>;
  getRun(runId: string): Promise<RunRecord | null>;
  /** Runs of a thread, newest first (creation order); `[]` for a missing thread. */
  listRuns(threadId: string, query?: RunListQuery): Promise<RunRecord[]>;
  /** Every `pending` or `running` run, oldest first; optionally only those owned by `ownerId`. */
  listActiveRuns(query?: ActiveRunQuery): Promise<RunRecord[]>;
  /**
   * Moves a `pending` run to `running` only when every run created before it on
   * the same thread is terminal and no cancel was requested for it.
   */
  tryStartRun(runId: string): Promise<TryStartOutcome>;
  /** Compare-and-set to a terminal status. Returns the updated run, or null when the CAS failed or the run is missing. */
  finishRun(runId: string, input: FinishRunInput): Promise<RunRecord | null>;
  /**
   * Records a cancel request. A `pending` run becomes `interrupted` at once; a
   * `running` one gets `cancelAction` (the first request wins). Terminal runs are
   * returned unchanged. Null when missing. When a pending run ends this way the
   * thread becomes `idle` unless another of its runs is still active (then `busy`).
   */
  requestCancel(runId: string, action: CancelAction): Promise<RunRecord | null>;
  /** Moves a run to another owner (takeover); compare-and-set on the expected owner. */
  setOwner(runId: string, expectedOwnerId: string | null, ownerId: string): Promise<boolean>;
  /** Deletes one terminal run; false when missing. An active run fails with `THREAD_BUSY` (cancel it first). */
  deleteRun(runId: string): Promise<boolean>;
  /** Deletes terminal runs that ended before `endedBefore`; returns how many. */
  deleteFinishedRuns(endedBefore: Date): Promise<number>;

  /** Releases connections. Idempotent; later calls fail with `CLOSED`. */
  close(): Promise<void>;
}
