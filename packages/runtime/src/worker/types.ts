/**
 * What the worker needs from a graph, and why a run was aborted.
 */
import type { BaseCheckpointSaver, BaseStore } from "@langchain/langgraph-checkpoint";
import type { RunRecord } from "../runs/types.js";

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
  /** Compile the graph with this checkpointer so the run's state is persisted where the runtime reads it. */
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
