/**
 * Executes one run: streams its graph into the stream bridge and decides how
 * it ended. The caller owns the run record: it finalises the run store with the
 * returned {@link RunOutcome}, then publishes the end marker.
 *
 * Events, in order: `metadata` `{run_id, thread_id, attempt}` first, then one
 * event per graph stream chunk in the requested modes (see `stream-modes.ts`),
 * then `error` `{error, name, message}` when the run failed or timed out.
 *
 * The graph's events are published without waiting for each one: up to
 * `maxInFlightPublishes` stay in flight (see `publish-window.ts`), so the graph
 * does not stall on the network per event. Every one of them has settled
 * before the run's outcome is decided; the first that fails stops the graph.
 *
 * The steps live in `run-execution.ts`; the graph's input and options in
 * `graph-input.ts`; stopping the graph after an abort in `graph-steps.ts`;
 * rollback in `pre-run-checkpoint.ts`; the outcomes in `run-outcome.ts`.
 */
import { errorMessage } from "./error-event.js";
import { RunExecution } from "./run-execution.js";
import { errorOutcome, type RunOutcome } from "./run-outcome.js";
import { safeLogger } from "./safe-logger.js";
import type { ExecuteRunInput } from "./types.js";

/**
 * Executes a run and reports how it ended. Never throws and never publishes
 * the end marker (the caller records the outcome first, then ends the stream).
 *
 * - invalid stream modes → `error` event, outcome `error`; the factory is not called;
 * - graph factory or graph failure → `error` event `{error, name, message}`, outcome `error`;
 * - abort (`signal.reason` a `RunAbort`, see `types.ts`): `interrupt` → `interrupted`;
 *   `rollback` → pre-run checkpoint restored, `error` "Rolled back by user";
 *   `timeout` (also armed from `run.kwargs.timeoutMs`) → `timeout` plus an `error` event;
 *   `shutdown` → `interrupted` "Server shutting down"; `ownership_lost` → `error` "Run ownership lost".
 *   The signal reaches the graph, so in-flight model and tool calls see it abort.
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * const outcome = await executeRun({ run, graph: () => compiledGraph, bridge, checkpointer, signal: controller.signal });
 * await store.finishRun(run.runId, { status: outcome.status, error: outcome.error, threadStatus: outcome.threadStatus });
 * await bridge.publishEnd(run.runId);
 * ```
 */
export async function executeRun(input: ExecuteRunInput): Promise<RunOutcome> {
  try {
    return await new RunExecution(input).execute();
  } catch (err) {
    // Defensive: every expected failure is handled inside; this keeps the "never throws" promise.
    safeLogger(input.logger).error(
      { runId: input.run.runId, err: errorMessage(err) },
      "unexpected failure while executing a run",
    );
    return errorOutcome(errorMessage(err));
  }
}
