/**
 * The run and thread records shared by the run manager, the run stores and the
 * HTTP layer. Field names are camelCase; the gateway maps them to the LangGraph
 * wire names (`run_id`, `thread_id`, ...).
 */

/** Life cycle of a run. `pending` and `running` are active; the rest are terminal. */
export type RunStatus = "pending" | "running" | "success" | "error" | "timeout" | "interrupted";

/** Statuses after which a run never changes again. */
export const TERMINAL_RUN_STATUSES: ReadonlySet<RunStatus> = new Set(["success", "error", "timeout", "interrupted"]);

/** Statuses of runs that still hold their thread. */
export const ACTIVE_RUN_STATUSES: ReadonlySet<RunStatus> = new Set(["pending", "running"]);

/** True when `status` is terminal. */
export function isTerminalRunStatus(status: RunStatus): boolean {
  return TERMINAL_RUN_STATUSES.has(status);
}

/** What happens to a run when the client streaming it disconnects. */
export type DisconnectMode = "cancel" | "continue";

/**
 * What to do when a run is created on a thread that already has an active run.
 *
 * - `reject`: refuse the new run (`THREAD_BUSY`).
 * - `interrupt`: cancel the active runs with action `interrupt`, then run.
 * - `rollback`: cancel the active runs with action `rollback` (their changes are undone), then run.
 * - `enqueue`: accept the run as `pending`; runs on one thread execute in creation order.
 */
export type MultitaskStrategy = "reject" | "interrupt" | "rollback" | "enqueue";

/**
 * How a run is cancelled. `interrupt` keeps what the run checkpointed; `rollback`
 * restores the thread to its checkpoint from before the run.
 */
export type CancelAction = "interrupt" | "rollback";

/**
 * When a run's checkpoints are written (LangGraph's `durability`).
 *
 * - `async` (LangGraph's default): after every step, while the next step runs.
 * - `sync`: after every step, before the next step starts.
 * - `exit`: once, when the run ends (done, failed, cancelled or at an interrupt). Fewest writes;
 *   the thread's state shows the run's progress only at its end, and a crash of the process loses
 *   the whole run's progress (the thread stays at its state before the run).
 */
export type Durability = "sync" | "async" | "exit";

/** The {@link Durability} values. */
export const DURABILITIES: readonly Durability[] = ["sync", "async", "exit"];

/** Status of a thread as seen by clients. */
export type ThreadStatus = "idle" | "busy" | "interrupted" | "error";

/**
 * Stream modes a client may request. `messages-tuple` is LangGraph's `messages`
 * mode (`[chunk, metadata]` pairs).
 */
export type StreamMode =
  | "values"
  | "updates"
  | "messages"
  | "messages-tuple"
  | "custom"
  | "debug"
  | "tasks"
  | "checkpoints"
  | "tools";

/** A LangGraph `Command` as JSON: resume an interrupt, update state, or go to nodes. */
export interface RunCommand {
  resume?: unknown;
  update?: Record<string, unknown> | [string, unknown][];
  goto?: string | string[];
}

/** The JSON-serializable part of a `RunnableConfig` a client may send. */
export interface RunConfig {
  configurable?: Record<string, unknown>;
  tags?: string[];
  metadata?: Record<string, unknown>;
  recursionLimit?: number;
}

/** Everything the worker needs to execute a run. Stored with the run as JSON. */
export interface RunKwargs {
  /** Graph input; ignored when `command` is set. `null` continues from the checkpoint. */
  input?: unknown;
  /** Resume/update/goto command instead of an input. */
  command?: RunCommand;
  config?: RunConfig;
  /** Static runtime context passed to the graph (`context` in LangGraph JS). */
  context?: Record<string, unknown>;
  /** Requested stream modes after normalisation (deduplicated, never empty). */
  streamMode: StreamMode[];
  /** Also stream subgraph events, named `mode|ns1|ns2`. */
  streamSubgraphs?: boolean;
  interruptBefore?: "*" | string[];
  interruptAfter?: "*" | string[];
  /** Start from this checkpoint instead of the thread's head (time travel / fork). */
  checkpointId?: string;
  /** Run timeout in milliseconds; reaching it ends the run with status `timeout`. */
  timeoutMs?: number;
  /** When the run's checkpoints are written; absent: LangGraph's default (`async`). */
  durability?: Durability;
}

/** A run as stored. Timestamps are ISO-8601 UTC strings. */
export interface RunRecord {
  runId: string;
  threadId: string;
  assistantId: string;
  status: RunStatus;
  multitaskStrategy: MultitaskStrategy;
  onDisconnect: DisconnectMode;
  metadata: Record<string, unknown>;
  kwargs: RunKwargs;
  createdAt: string;
  updatedAt: string;
  /** When the run went `running`; null while pending or when it never started. */
  startedAt: string | null;
  /** When the run reached a terminal status. */
  endedAt: string | null;
  /** Error text for `error` and `timeout` runs. */
  error: string | null;
  /** Why a guard or recovery ended the run, e.g. `orphan_recovered`. */
  stopReason: string | null;
  /** Instance that admitted and executes the run. */
  ownerId: string | null;
  /** A durable cancel request (first one wins), seen by the owner. */
  cancelAction: CancelAction | null;
}

/** A thread as stored (its state lives in the checkpointer). */
export interface ThreadRecord {
  threadId: string;
  status: ThreadStatus;
  metadata: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}
