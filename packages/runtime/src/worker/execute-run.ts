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
 * `maxInFlightPublishes` stay in flight (the bridge keeps their order and a
 * Redis bridge sends what queued up in one round trip), so the graph does not
 * stall on the network per event. Every one of them has settled before the
 * run's outcome is decided; the first that fails stops the graph.
 */
import type { BaseCheckpointSaver, BaseStore } from "@langchain/langgraph-checkpoint";
import { Command, Send } from "@langchain/langgraph";
import { withRunMetadata } from "../checkpointers/run-metadata.js";
import { raceAbort } from "../internal/race-abort.js";
import { silentLogger, type Logger } from "../logger.js";
import type { RunCommand, RunKwargs, RunRecord, StreamMode } from "../runs/types.js";
import type { StreamBridge } from "../stream/stream-bridge.js";
import { restoreThreadCheckpoint } from "./rollback.js";
import { trackCheckpointerWrites, type TrackedCheckpointer } from "./tracked-checkpointer.js";
import { graphStreamModesFor, normalizeStreamModes } from "./stream-modes.js";
import { parseGraphStreamItem, StreamTranslator } from "./stream-translator.js";
import { RunAbort, type GraphFactory, type RunAbortAction, type StreamableGraph } from "./types.js";

/** Input of {@link executeRun}. */
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

/** How a run ended, for the caller to record. */
export interface RunOutcome {
  status: "success" | "error" | "timeout" | "interrupted";
  /** Error text for `error` / `timeout` (and `Server shutting down` for shutdown); null otherwise. */
  error: string | null;
  /**
   * Thread status the run leaves behind (when no other run is active):
   * `interrupted` when the graph stopped at `interrupt()` / interruptBefore/After
   * or was cancelled with `interrupt`; `error` when it failed; else `idle`.
   */
  threadStatus: "idle" | "interrupted" | "error";
  /** True when the thread is back at its pre-run checkpoint after a rollback. */
  rolledBack: boolean;
}

const DEFAULT_ABORT_GRACE_MS = 5000;
const DEFAULT_MAX_IN_FLIGHT_PUBLISHES = 256;

/** Thrown internally when the bridge refuses an event; the run cannot report progress any more. */
class PublishFailure extends Error {
  constructor(readonly event: string, cause: unknown) {
    super(`Stream bridge publish failed for event "${event}": ${errorMessage(cause)}`, { cause });
    this.name = "PublishFailure";
  }
}

const ABORTED = Symbol("aborted");

/**
 * The graph events of one run in flight to the bridge, oldest first. The
 * bridge keeps their order; the window only bounds how far the graph runs
 * ahead and remembers the first failure.
 */
class PublishWindow {
  /** The first publish that failed, in publish order. */
  failure: PublishFailure | undefined;
  private readonly inFlight: Promise<void>[] = [];

  constructor(
    private readonly bridge: StreamBridge,
    private readonly runId: string,
    private readonly limit: number,
    private readonly onFailure: (failure: PublishFailure) => void,
  ) {}

  /**
   * Starts publishing an event; waits only while `limit` publishes are
   * outstanding. Throws the first {@link PublishFailure} once it is known.
   */
  async publish(event: string, data: unknown): Promise<void> {
    if (this.failure) throw this.failure;
    let sent: Promise<unknown>;
    try {
      sent = this.bridge.publish(this.runId, event, data);
    } catch (err) {
      sent = Promise.reject(err);
    }
    // Attached now: a publish refused at once is recorded before this method's caller resumes,
    // so no later event is published after it.
    this.inFlight.push(sent.then(noop, (err: unknown) => this.fail(new PublishFailure(event, err))));
    if (this.inFlight.length >= this.limit) await this.inFlight.shift();
    if (this.failure) throw this.failure;
  }

  /** Waits for every outstanding publish; returns the first failure, if any. */
  async settle(): Promise<PublishFailure | undefined> {
    while (this.inFlight.length > 0) await this.inFlight.shift();
    return this.failure;
  }

  private fail(failure: PublishFailure): void {
    if (this.failure) return;
    this.failure = failure;
    this.onFailure(failure);
  }
}

function noop(): void {}

function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (typeof err === "string") return err;
  try {
    return JSON.stringify(err) ?? String(err);
  } catch {
    return String(err);
  }
}

/** SSE `error` payload: `error` is the class name (LangGraph JS API), `name` the same (DeerFlow). */
export function errorEventData(err: unknown): Record<string, unknown> {
  const name = err instanceof Error ? err.name || "Error" : "Error";
  const data: Record<string, unknown> = { error: name, name, message: errorMessage(err) };
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === "string") data["code"] = code;
  return data;
}

/** A logger that never throws: logging must not change how a run ends. */
function safeLogger(logger: Logger | undefined): Logger {
  if (!logger) return silentLogger;
  const guard =
    (level: keyof Logger) =>
    (obj: Record<string, unknown>, msg: string): void => {
      try {
        logger[level](obj, msg);
      } catch {
        // ignored on purpose
      }
    };
  return { debug: guard("debug"), info: guard("info"), warn: guard("warn"), error: guard("error") };
}

function delay(ms: number): { promise: Promise<void>; cancel(): void } {
  let timer: NodeJS.Timeout | undefined;
  const promise = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
    timer.unref?.();
  });
  return { promise, cancel: () => clearTimeout(timer) };
}

/** Builds the LangGraph `Command` for a run's `command` kwarg. */
export function toGraphCommand(command: RunCommand): Command {
  const params: { resume?: unknown; update?: Record<string, unknown> | [string, unknown][]; goto?: (string | Send)[] } = {};
  if (command.resume !== undefined) params.resume = command.resume;
  if (command.update !== undefined && command.update !== null) params.update = command.update;
  if (command.goto !== undefined && command.goto !== null) {
    const gotos: unknown[] = Array.isArray(command.goto) ? command.goto : [command.goto];
    // Besides node names, accept the LangGraph API's `{node, input}` sends.
    params.goto = gotos.map((item) => {
      if (typeof item === "string") return item;
      const send = item as { node?: unknown; input?: unknown };
      return new Send(String(send.node), send.input);
    });
  }
  return new Command(params);
}

/** The graph input of a run: a `Command` when `command` is set, else `input` (absent → null, continue from the checkpoint). */
export function graphInputOf(kwargs: RunKwargs): unknown {
  if (kwargs.command !== undefined && kwargs.command !== null) return toGraphCommand(kwargs.command);
  return kwargs.input ?? null;
}

/** LangGraph's own configurable keys: a client setting them could write outside the thread's root namespace. */
function isInternalConfigurableKey(key: string): boolean {
  return key.startsWith("__pregel_") || key === "checkpoint_ns" || key === "checkpoint_map";
}

/**
 * The `graph.stream()` options of a run. The thread, run and assistant ids
 * are injected into `configurable` and `metadata` (checkpoints then record
 * `run_id`); LangGraph's internal `configurable` keys (`__pregel_*`,
 * `checkpoint_ns`, `checkpoint_map`) are never taken from the client.
 */
export function graphStreamOptionsOf(run: RunRecord, graphModes: readonly string[], signal: AbortSignal): Record<string, unknown> {
  const kwargs = run.kwargs;
  const config = kwargs.config ?? {};
  const ids = { thread_id: run.threadId, run_id: run.runId, assistant_id: run.assistantId };
  const clientConfigurable = Object.fromEntries(Object.entries(config.configurable ?? {}).filter(([key]) => !isInternalConfigurableKey(key)));
  const configurable: Record<string, unknown> = { ...clientConfigurable, ...ids };
  if (kwargs.checkpointId) configurable["checkpoint_id"] = kwargs.checkpointId;
  const options: Record<string, unknown> = {
    configurable,
    metadata: { ...run.metadata, ...config.metadata, ...ids },
    streamMode: [...graphModes],
    subgraphs: kwargs.streamSubgraphs === true,
    signal,
  };
  // Only set what was given: an explicit `undefined` would override the graph's own defaults.
  if (config.tags !== undefined) options["tags"] = config.tags;
  if (config.recursionLimit !== undefined) options["recursionLimit"] = config.recursionLimit;
  if (kwargs.context !== undefined) options["context"] = kwargs.context;
  if (kwargs.interruptBefore !== undefined) options["interruptBefore"] = kwargs.interruptBefore;
  if (kwargs.interruptAfter !== undefined) options["interruptAfter"] = kwargs.interruptAfter;
  return options;
}

/** The run as it executes: one instance per {@link executeRun} call. */
class RunExecution {
  private readonly run: RunRecord;
  private readonly logger: Logger;
  private readonly log: Record<string, unknown>;
  private readonly internal = new AbortController();
  /** Aborted by the caller's signal, the run's own timeout, or a bridge failure. */
  private readonly signal: AbortSignal;
  private iterator: AsyncIterator<unknown> | undefined;
  private pendingNext: Promise<unknown> | undefined;
  /** Head checkpoint before the run: undefined when unknown (no checkpointer or capture failed). */
  private preRunCheckpointId: string | null | undefined;
  private preRunInterrupted = false;
  private graphStarted = false;
  private tracked: TrackedCheckpointer | undefined;

  constructor(private readonly input: ExecuteRunInput) {
    this.run = input.run;
    this.logger = safeLogger(input.logger);
    this.log = { runId: input.run.runId, threadId: input.run.threadId };
    this.signal = AbortSignal.any([input.signal, this.internal.signal]);
  }

  async execute(): Promise<RunOutcome> {
    const timer = this.armTimeout();
    try {
      return await this.executeInner();
    } finally {
      if (timer) clearTimeout(timer);
    }
  }

  private armTimeout(): NodeJS.Timeout | undefined {
    const ms = this.run.kwargs.timeoutMs;
    if (typeof ms !== "number" || !Number.isFinite(ms) || ms <= 0) return undefined;
    const timer = setTimeout(() => this.internal.abort(new RunAbort("timeout", `Run exceeded its timeout of ${ms} ms`)), ms);
    timer.unref?.();
    return timer;
  }

  private maxInFlightPublishes(): number {
    const limit = this.input.maxInFlightPublishes;
    if (limit === undefined) return DEFAULT_MAX_IN_FLIGHT_PUBLISHES;
    if (Number.isInteger(limit) && limit >= 1) return limit;
    this.logger.warn({ ...this.log, maxInFlightPublishes: limit }, "maxInFlightPublishes must be an integer ≥ 1; using the default");
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
      this.logger.warn({ ...this.log, err: errorMessage(publishErr) }, "could not publish the error event of a run");
    }
  }

  private async executeInner(): Promise<RunOutcome> {
    let modes: StreamMode[];
    try {
      modes = normalizeStreamModes(this.run.kwargs.streamMode);
    } catch (err) {
      await this.publishError(err);
      return { status: "error", error: errorMessage(err), threadStatus: "error", rolledBack: false };
    }

    let failure: unknown;
    try {
      await this.publish("metadata", { run_id: this.run.runId, thread_id: this.run.threadId, attempt: 1 });
      const graph = await this.buildGraph();
      if (graph !== undefined) {
        await this.capturePreRunCheckpoint();
        return await this.stream(graph, modes);
      }
    } catch (err) {
      failure = err;
    }
    return this.finishFailed(failure);
  }

  /** The graph, or undefined when the run was aborted while it was being built. */
  private async buildGraph(): Promise<StreamableGraph | undefined> {
    if (this.signal.aborted) return undefined;
    const { run, store } = this.input;
    // Checkpoints written through the factory's checkpointer record run_id and the run's metadata,
    // and are tracked so an abort can wait for the writes still in flight.
    this.tracked = this.input.checkpointer ? trackCheckpointerWrites(withRunMetadata(this.input.checkpointer)) : undefined;
    const checkpointer = this.tracked?.checkpointer;
    try {
      const made = this.input.graph({ run, checkpointer, store, signal: this.signal });
      return await raceAbort(Promise.resolve(made), this.signal, ABORTED);
    } catch (err) {
      if (err === ABORTED) return undefined;
      throw err;
    }
  }

  private async capturePreRunCheckpoint(): Promise<void> {
    const checkpointer = this.input.checkpointer;
    if (!checkpointer) return;
    try {
      const tuple = await checkpointer.getTuple({ configurable: { thread_id: this.run.threadId, checkpoint_ns: "" } });
      this.preRunCheckpointId = tuple?.checkpoint.id ?? null;
      this.preRunInterrupted = (tuple?.pendingWrites ?? []).some(([, channel]) => channel === "__interrupt__");
    } catch (err) {
      // Fail closed: without a known pre-run point a rollback restores nothing rather than the wrong thing.
      this.logger.warn({ ...this.log, err: errorMessage(err) }, "could not capture the pre-run checkpoint; rollback disabled for this run");
    }
  }

  private async stream(graph: StreamableGraph, modes: StreamMode[]): Promise<RunOutcome> {
    const translator = new StreamTranslator(modes);
    const subgraphs = this.run.kwargs.streamSubgraphs === true;
    const options = graphStreamOptionsOf(this.run, graphStreamModesFor(modes), this.signal);
    // A failed publish stops the graph at once, whatever it is waiting for.
    const window = new PublishWindow(this.input.bridge, this.run.runId, this.maxInFlightPublishes(), (publishFailure) => this.internal.abort(publishFailure));
    let failure: unknown;
    try {
      if (this.signal.aborted) throw ABORTED;
      this.graphStarted = true;
      const iterable = await raceAbort(Promise.resolve(graph.stream(graphInputOf(this.run.kwargs), options)), this.signal, ABORTED);
      this.iterator = iterable[Symbol.asyncIterator]();
      for (;;) {
        const next = this.iterator.next();
        this.pendingNext = next;
        next.catch(() => {}); // after an abort nobody awaits it; its rejection is expected
        const result = await raceAbort(next, this.signal, ABORTED);
        if (result.done) break;
        const item = parseGraphStreamItem(result.value, subgraphs);
        if (!item) {
          this.logger.debug({ ...this.log }, "ignored a graph stream item of unexpected shape");
          continue;
        }
        for (const { event, data } of translator.translate(item)) await window.publish(event, data);
      }
      this.pendingNext = undefined;
    } catch (err) {
      failure = err;
    }
    // The outcome (and so any error event, and the caller's end marker) comes after every event;
    // a failed publish decides it as an awaited one would have.
    const publishFailure = await window.settle();
    if (publishFailure !== undefined) failure = publishFailure;
    if (failure === undefined && !this.signal.aborted) {
      return { status: "success", error: null, threadStatus: translator.sawInterrupt ? "interrupted" : "idle", rolledBack: false };
    }
    return this.finishFailed(failure === ABORTED ? undefined : failure);
  }

  /** Outcome of a run that stopped early: aborted, failed, or unable to publish. */
  private async finishFailed(failure: unknown): Promise<RunOutcome> {
    if (failure instanceof PublishFailure) {
      this.internal.abort(failure);
      await this.settleGraph();
      this.logger.error({ ...this.log, err: failure.message }, "run stopped: its events cannot be published");
      return { status: "error", error: failure.message, threadStatus: "error", rolledBack: false };
    }
    if (this.signal.aborted) {
      await this.settleGraph();
      return this.finishAborted(RunAbort.actionOf(this.signal.reason));
    }
    this.logger.info({ ...this.log, err: errorMessage(failure) }, "run failed");
    await this.publishError(failure);
    return { status: "error", error: errorMessage(failure), threadStatus: "error", rolledBack: false };
  }

  /**
   * Waits (bounded by the grace period) for the graph's pending step to stop
   * and for its checkpoint writes still in flight to land, then closes its
   * iterator without waiting. Until the writes land, a rollback or the thread's
   * next run could be overtaken by a late write of this run.
   */
  private async settleGraph(): Promise<void> {
    const pending = this.pendingNext;
    const tracked = this.tracked;
    const grace = delay(this.input.abortGraceMs ?? DEFAULT_ABORT_GRACE_MS);
    let settled = false;
    const quiet = Promise.all([pending?.then(noop, noop), tracked?.idle()]).then(() => (settled = true));
    await Promise.race([quiet, grace.promise]);
    grace.cancel();
    if (!settled) this.logger.warn({ ...this.log }, "graph or its checkpoint writes did not settle within the abort grace period");
    const iterator = this.iterator;
    this.iterator = undefined;
    this.pendingNext = undefined;
    if (iterator?.return) {
      try {
        void Promise.resolve(iterator.return()).catch(noop);
      } catch {
        // a synchronous throw from return() changes nothing: the run is over
      }
    }
  }

  private async finishAborted(action: RunAbortAction): Promise<RunOutcome> {
    this.logger.info({ ...this.log, action }, "run aborted");
    switch (action) {
      case "interrupt":
        return { status: "interrupted", error: null, threadStatus: "interrupted", rolledBack: false };
      case "shutdown":
        return { status: "interrupted", error: "Server shutting down", threadStatus: "interrupted", rolledBack: false };
      case "ownership_lost":
        return { status: "error", error: "Run ownership lost", threadStatus: "error", rolledBack: false };
      case "timeout": {
        const ms = this.run.kwargs.timeoutMs;
        const message = typeof ms === "number" ? `Run exceeded its timeout of ${ms} ms` : "Run exceeded its timeout";
        const err = new Error(message);
        err.name = "TimeoutError";
        await this.publishError(err);
        return { status: "timeout", error: message, threadStatus: "error", rolledBack: false };
      }
      case "rollback":
        return this.finishRollback();
    }
  }

  private async finishRollback(): Promise<RunOutcome> {
    const threadStatus: RunOutcome["threadStatus"] = this.preRunInterrupted ? "interrupted" : "idle";
    const outcome = { status: "error" as const, error: "Rolled back by user", threadStatus };
    // Nothing ran, so nothing changed: the thread is at its pre-run state already.
    if (!this.graphStarted) return { ...outcome, rolledBack: true };
    const checkpointer = this.input.checkpointer;
    if (!checkpointer || this.preRunCheckpointId === undefined) {
      this.logger.warn({ ...this.log }, "rollback requested but no pre-run checkpoint is known; thread state kept");
      return { ...outcome, rolledBack: false };
    }
    try {
      await restoreThreadCheckpoint(checkpointer, this.run.threadId, this.preRunCheckpointId);
      return { ...outcome, rolledBack: true };
    } catch (err) {
      this.logger.error({ ...this.log, err: errorMessage(err) }, "restoring the pre-run checkpoint failed");
      return { ...outcome, error: `Rolled back by user; restoring the pre-run checkpoint failed: ${errorMessage(err)}`, rolledBack: false };
    }
  }
}

/**
 * Executes a run and reports how it ended. Never throws and never publishes
 * the end marker (the caller records the outcome first, then ends the stream).
 *
 * - invalid stream modes → `error` event, outcome `error`; the factory is not called;
 * - graph factory or graph failure → `error` event `{error, name, message}`, outcome `error`;
 * - abort (`signal.reason` a {@link RunAbort}): `interrupt` → `interrupted`;
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
    safeLogger(input.logger).error({ runId: input.run.runId, err: errorMessage(err) }, "unexpected failure while executing a run");
    return { status: "error", error: errorMessage(err), threadStatus: "error", rolledBack: false };
  }
}
