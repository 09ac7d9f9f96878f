/**
 * One run as it executes, in order: validate the stream modes, publish
 * `metadata`, build the graph, capture the pre-run checkpoint, pump the
 * graph's stream into the bridge, then decide the outcome. See
 * `execute-run.ts` for the contract.
 */
import { RUN_REPORT_KEY, type RunReport } from "@deerflow/kernel";
import { withRunMetadata } from "../checkpointers/run-metadata.js";
import { raceAbort } from "../internal/race-abort.js";
import type { Logger } from "../logger.js";
import type { RunRecord, StreamMode } from "../runs/types.js";
import { errorEventData, errorMessage } from "./error-event.js";
import { graphInputOf, graphStreamOptionsOf } from "./graph-input.js";
import { ABORTED, GraphSteps } from "./graph-steps.js";
import { capturePreRunCheckpoint, rollBack, UNKNOWN_PRE_RUN, type PreRunCheckpoint } from "./pre-run-checkpoint.js";
import { PublishFailure, PublishWindow } from "./publish-window.js";
import {
  abortOutcome,
  errorOutcome,
  reportedOutcome,
  timeoutError,
  withReportedTokens,
  type RunOutcome,
} from "./run-outcome.js";
import { safeLogger } from "./safe-logger.js";
import { graphStreamModesFor, normalizeStreamModes } from "./stream-modes.js";
import { parseGraphStreamItem, StreamTranslator } from "./stream-translator.js";
import { trackCheckpointerWrites, type TrackedCheckpointer } from "./tracked-checkpointer.js";
import { RunAbort, type ExecuteRunInput, type RunAbortAction, type StreamableGraph } from "./types.js";

const DEFAULT_ABORT_GRACE_MS = 5000;
const DEFAULT_MAX_IN_FLIGHT_PUBLISHES = 256;

/** The run as it executes: one instance per `executeRun` call. */
export class RunExecution {
  private readonly run: RunRecord;
  private readonly logger: Logger;
  private readonly internal = new AbortController();
  /** Aborted by the caller's signal, the run's own timeout, or a bridge failure. */
  private readonly signal: AbortSignal;
  private readonly graphSteps = new GraphSteps();
  private preRun: PreRunCheckpoint = UNKNOWN_PRE_RUN;
  private graphStarted = false;
  private tracked: TrackedCheckpointer | undefined;
  /** The graph's middlewares report a stop reason, an error and token usage here. */
  private readonly report: RunReport = {};

  constructor(private readonly input: ExecuteRunInput) {
    this.run = input.run;
    this.logger = safeLogger(input.logger, { runId: input.run.runId, threadId: input.run.threadId });
    this.signal = AbortSignal.any([input.signal, this.internal.signal]);
  }

  /** Runs the graph and reports how the run ended; expected failures become the outcome. */
  async execute(): Promise<RunOutcome> {
    const timer = this.armTimeout();
    try {
      return withReportedTokens(await this.executeSteps(), this.report);
    } finally {
      if (timer) clearTimeout(timer);
    }
  }

  private async executeSteps(): Promise<RunOutcome> {
    let modes: StreamMode[];
    try {
      modes = normalizeStreamModes(this.run.kwargs.streamMode);
    } catch (err) {
      await this.publishError(err);
      return errorOutcome(errorMessage(err));
    }

    let failure: unknown;
    try {
      await this.publish("metadata", { run_id: this.run.runId, thread_id: this.run.threadId, attempt: 1 });
      const graph = await this.buildGraph();
      if (graph !== undefined) {
        this.preRun = await capturePreRunCheckpoint(this.input.checkpointer, this.run.threadId, this.logger);
        return await this.stream(graph, modes);
      }
    } catch (err) {
      failure = err;
    }
    return this.finishFailed(failure);
  }

  private armTimeout(): NodeJS.Timeout | undefined {
    const ms = this.run.kwargs.timeoutMs;
    if (typeof ms !== "number" || !Number.isFinite(ms) || ms <= 0) return undefined;
    const timer = setTimeout(
      () => this.internal.abort(new RunAbort("timeout", `Run exceeded its timeout of ${ms} ms`)),
      ms,
    );
    timer.unref?.();
    return timer;
  }

  /** The graph, or undefined when the run was aborted while it was being built. */
  private async buildGraph(): Promise<StreamableGraph | undefined> {
    if (this.signal.aborted) return undefined;
    const { run, store } = this.input;
    // Checkpoints written through the factory's checkpointer record run_id and the run's metadata,
    // and are tracked so an abort can wait for the writes still in flight. The view is the same
    // object on every run of this saver, so a factory can compile its graph once for it.
    this.tracked = this.input.checkpointer
      ? trackCheckpointerWrites(withRunMetadata(this.input.checkpointer))
      : undefined;
    const checkpointer = this.tracked?.checkpointer;
    try {
      const made = this.input.graph({ run, checkpointer, store, signal: this.signal });
      return await raceAbort(Promise.resolve(made), this.signal, ABORTED);
    } catch (err) {
      if (err === ABORTED) return undefined;
      throw err;
    }
  }

  /** Pumps the graph's stream into the bridge; the outcome comes after every event has settled. */
  private async stream(graph: StreamableGraph, modes: StreamMode[]): Promise<RunOutcome> {
    const translator = new StreamTranslator(modes);
    const subgraphs = this.run.kwargs.streamSubgraphs === true;
    const options = graphStreamOptionsOf(this.run, graphStreamModesFor(modes), this.signal);
    // The graph's middlewares report a stop reason (or an error) here; read once the graph is done.
    const report = this.report;
    (options["configurable"] as Record<string, unknown>)[RUN_REPORT_KEY] = report;
    // A failed publish stops the graph at once, whatever it is waiting for.
    const window = new PublishWindow(this.input.bridge, this.run.runId, this.maxInFlightPublishes(), (publishFailure) =>
      this.internal.abort(publishFailure),
    );
    let failure: unknown;
    try {
      if (this.signal.aborted) throw ABORTED;
      this.graphStarted = true;
      this.graphSteps.open(
        await raceAbort(Promise.resolve(graph.stream(graphInputOf(this.run.kwargs), options)), this.signal, ABORTED),
      );
      for (;;) {
        const result = await this.graphSteps.next(this.signal);
        if (result.done) break;
        const item = parseGraphStreamItem(result.value, subgraphs);
        if (!item) {
          this.logger.debug({}, "ignored a graph stream item of unexpected shape");
          continue;
        }
        for (const { event, data } of translator.translate(item)) await window.publish(event, data);
      }
      this.graphSteps.finished();
    } catch (err) {
      failure = err;
    }
    // The outcome (and so any error event, and the caller's end marker) comes after every event;
    // a failed publish decides it as an awaited one would have.
    const publishFailure = await window.settle();
    if (publishFailure !== undefined) failure = publishFailure;
    if (failure === undefined && !this.signal.aborted) {
      if (report.error !== undefined) await this.publishError(new Error(report.error));
      return reportedOutcome(translator.sawInterrupt, report);
    }
    return this.finishFailed(failure === ABORTED ? undefined : failure);
  }

  /** Outcome of a run that stopped early: aborted, failed, or unable to publish. */
  private async finishFailed(failure: unknown): Promise<RunOutcome> {
    if (failure instanceof PublishFailure) {
      this.internal.abort(failure);
      await this.settleGraph();
      this.logger.error({ err: failure.message }, "run stopped: its events cannot be published");
      return errorOutcome(failure.message);
    }
    if (this.signal.aborted) {
      await this.settleGraph();
      return this.finishAborted(RunAbort.actionOf(this.signal.reason));
    }
    this.logger.info({ err: errorMessage(failure) }, "run failed");
    await this.publishError(failure);
    return errorOutcome(errorMessage(failure));
  }

  /** Lets the stopped graph's last step and checkpoint writes land (bounded by the grace period). */
  private async settleGraph(): Promise<void> {
    const settled = await this.graphSteps.stop(
      this.input.abortGraceMs ?? DEFAULT_ABORT_GRACE_MS,
      this.tracked?.idle(this.run.threadId),
    );
    if (!settled) this.logger.warn({}, "graph or its checkpoint writes did not settle within the abort grace period");
  }

  private async finishAborted(action: RunAbortAction): Promise<RunOutcome> {
    this.logger.info({ action }, "run aborted");
    if (action === "rollback") {
      const { checkpointer } = this.input;
      return rollBack({
        checkpointer,
        threadId: this.run.threadId,
        preRun: this.preRun,
        graphStarted: this.graphStarted,
        logger: this.logger,
      });
    }
    if (action === "timeout") await this.publishError(timeoutError(this.run.kwargs.timeoutMs));
    return abortOutcome(action, this.run.kwargs.timeoutMs);
  }

  private maxInFlightPublishes(): number {
    const limit = this.input.maxInFlightPublishes;
    if (limit === undefined) return DEFAULT_MAX_IN_FLIGHT_PUBLISHES;
    if (Number.isInteger(limit) && limit >= 1) return limit;
    this.logger.warn({ maxInFlightPublishes: limit }, "maxInFlightPublishes must be an integer ≥ 1; using the default");
    return DEFAULT_MAX_IN_FLIGHT_PUBLISHES;
  }

  private async publish(event: string, data: unknown): Promise<void> {
    try {
      await this.input.bridge.publish(this.run.runId, event, data);
    } catch (err) {
      throw new PublishFailure(event, err);
    }
  }

  /** Publishes an `error` event; a failure here is only logged (the outcome already says it). */
  private async publishError(err: unknown): Promise<void> {
    try {
      await this.input.bridge.publish(this.run.runId, "error", errorEventData(err));
    } catch (publishErr) {
      this.logger.warn({ err: errorMessage(publishErr) }, "could not publish the error event of a run");
    }
  }
}
