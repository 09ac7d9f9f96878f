/**
 * What the worker needs: the run's graph and where its events go, and why a
 * run was aborted.
 */
import type { BaseCheckpointSaver, BaseStore } from "@langchain/langgraph-checkpoint";
import type { Logger } from "../logger.js";
import type { RunRecord } from "../runs/types.js";
import type { StreamBridge } from "../stream/stream-bridge.js";

/**
 * The part of a compiled LangGraph graph (`Pregel`) the worker uses. Any
 * `StateGraph(...).compile()` or `createAgent(...)` result satisfies it.
 */
export interface StreamableGraph {
  stream(input: unknown, options?: Record<string, unknown>): Promise<AsyncIterable<unknown>>;
}

/** Passed to a {@link GraphFactory} for each run. */
export interface GraphFactoryContext {
  /** The run being executed. */
  run: RunRecord;
  /**
   * Compile the graph with this checkpointer so the run's state is persisted where the runtime reads it.
   * It is the same object on every run of a manager (the runtime's view of its saver, recording run
   * metadata and tracking writes), so a factory may compile once and cache the graph keyed on it.
   */
  checkpointer: BaseCheckpointSaver | undefined;
  /** Long-term store for the graph, when configured. */
  store: BaseStore | undefined;
  /** Aborted when the run is cancelled, times out or the instance shuts down. */
  signal: AbortSignal;
}

/** Builds (or returns a cached) graph for a run. */
export type GraphFactory = (context: GraphFactoryContext) => StreamableGraph | Promise<StreamableGraph>;

/** Why a run's signal was aborted. */
export type RunAbortAction = "interrupt" | "rollback" | "timeout" | "shutdown" | "ownership_lost";

/**
 * The `reason` of an aborted run signal. The worker reads `action` to pick the
 * run's terminal status; model and tool calls simply see an aborted signal.
 */
export class RunAbort extends Error {
  /** Why the run stops. */
  readonly action: RunAbortAction;

  /** @param action - why the run stops */
  constructor(action: RunAbortAction, message?: string) {
    super(message ?? `Run aborted: ${action}`);
    this.name = "AbortError";
    this.action = action;
  }

  /** The {@link RunAbortAction} of an abort reason, or `interrupt` for foreign reasons. */
  static actionOf(reason: unknown): RunAbortAction {
    return reason instanceof RunAbort ? reason.action : "interrupt";
  }
}

/** Input of `executeRun`. */
export interface ExecuteRunInput {
  /** The run to execute (status `running`, already admitted and started by the caller). */
  run: RunRecord;
  /** Builds the graph for the run. Called at most once, after the stream modes validated. */
  graph: GraphFactory;
  /** Where the run's events go. */
  bridge: StreamBridge;
  /** The checkpointer the graph is compiled with; needed for rollback. */
  checkpointer?: BaseCheckpointSaver;
  /** Long-term store handed to the graph factory. */
  store?: BaseStore;
  /** Aborted to stop the run; its `reason` (a {@link RunAbort}) picks the outcome. */
  signal: AbortSignal;
  logger?: Logger;
  /**
   * How long to wait, after an abort, for the graph to stop before the run is
   * finalised (and, for rollback, its checkpoint restored). LangGraph stops at
   * once; this bounds graphs that ignore their signal. Default 5000 ms.
   */
  abortGraceMs?: number;
  /**
   * Publishes of graph events kept in flight before the graph waits for the
   * oldest one; 1 awaits each publish. Default 256.
   */
  maxInFlightPublishes?: number;
}
