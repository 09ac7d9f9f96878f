/**
 * The run manager turns requests into background runs of LangGraph graphs and
 * coordinates them with the other instances of a deployment.
 *
 * Admission is atomic per thread in the {@link RunStore}; the instance that
 * admits a run holds its lease (through the {@link RunCoordinator}) and executes
 * it once every earlier run on the thread is terminal; events go through the
 * {@link StreamBridge}. Any instance can read, stream, join and cancel any run.
 */
import { randomUUID } from "node:crypto";
import type { RunCoordinator } from "../coordination/run-coordinator.js";
import { LocalRunCoordinator } from "../coordination/local-run-coordinator.js";
import { RuntimeError } from "../errors.js";
import { raceAbort } from "../internal/race-abort.js";
import { WakeSet } from "../internal/wake.js";
import { silentLogger, type Logger } from "../logger.js";
import { MemoryRunStore } from "../runs/memory-run-store.js";
import type { RunListQuery, RunStore } from "../runs/run-store.js";
import { DURABILITIES, isTerminalRunStatus, type CancelAction, type RunKwargs, type RunRecord } from "../runs/types.js";
import { MemoryStreamBridge } from "../stream/memory-stream-bridge.js";
import type { StreamBridge, StreamItem, SubscribeOptions } from "../stream/stream-bridge.js";
import { executeRun } from "../worker/execute-run.js";
import type { RunOutcome } from "../worker/run-outcome.js";
import { normalizeStreamModes } from "../worker/stream-modes.js";
import { RunAbort, type GraphFactory } from "../worker/types.js";
import type { CancelOutcome, CancelRunOptions, CreateRunInput, RunManagerOptions } from "./run-manager-options.js";

const DAY_MS = 24 * 60 * 60 * 1000;
const ORPHAN_ERROR = "Run lease expired: the instance executing it stopped renewing and is presumed dead.";
/** How long after a lease's reported expiry it is checked: past the expiry, whatever the clocks' rounding. */
const EXPIRY_MARGIN_MS = 25;

/** A run this instance executes. */
interface LocalRun {
  readonly runId: string;
  readonly threadId: string;
  readonly controller: AbortController;
  /** Set when the lease was lost: the run must not write its status any more. */
  fenced: boolean;
  done: Promise<void>;
}

/**
 * Admits, executes, streams, joins and cancels runs.
 *
 * @example
 * ```ts
 * const manager = new RunManager({ graphs: { agent: () => graph } });
 * const run = await manager.create({ threadId, assistantId: "agent", input: { messages: [] } });
 * for await (const item of manager.stream(run.runId)) if (item.kind === "event") console.log(item.event);
 * ```
 */
export class RunManager {
  /** Durable runs and threads. */
  readonly store: RunStore;
  /** Event transport. */
  readonly bridge: StreamBridge;
  /** Ownership leases and cancel delivery. */
  readonly coordinator: RunCoordinator;

  private readonly options: RunManagerOptions;
  private readonly logger: Logger;
  private readonly owned: { close(): Promise<unknown> }[] = [];
  private readonly local = new Map<string, LocalRun>();
  /** Woken whenever a local run finishes or a pending run may be able to start. */
  private readonly changes = new WakeSet();
  private readonly unsubscribe: (() => void)[] = [];
  private sweepTimer: NodeJS.Timeout | undefined;
  /** Checks armed for the moment a foreign run's lease expires, by run id. */
  private readonly expiryChecks = new Map<string, NodeJS.Timeout>();
  private sweeping: Promise<void> | undefined;
  private closing = false;

  /**
   * @param options - graphs plus optional store, bridge, coordinator, checkpointer and timings
   * @throws RuntimeError `CONFIG_INVALID` for an `coordinatorTimeoutMs` that is not a positive integer
   *   or an unknown `defaultDurability`
   */
  constructor(options: RunManagerOptions) {
    const limit = options.coordinatorTimeoutMs;
    if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1 && limit <= 2_147_483_647)) {
      throw new RuntimeError(
        "CONFIG_INVALID",
        `coordinatorTimeoutMs must be a positive integer number of milliseconds, got ${String(limit)}`,
      );
    }
    const durability = options.defaultDurability;
    if (durability !== undefined && !DURABILITIES.includes(durability)) {
      throw new RuntimeError(
        "CONFIG_INVALID",
        `defaultDurability must be one of ${DURABILITIES.join(", ")}, got ${JSON.stringify(durability) ?? String(durability)}`,
      );
    }
    this.options = options;
    this.logger = options.logger ?? silentLogger;
    this.store = options.store ?? this.own(new MemoryRunStore());
    this.bridge = options.bridge ?? this.own(new MemoryStreamBridge());
    this.coordinator = options.coordinator ?? this.own(new LocalRunCoordinator());
    this.unsubscribe.push(
      this.coordinator.onCancelRequest((runId, action) => this.abortLocal(runId, new RunAbort(action))),
      this.coordinator.onLeaseLost((runId) => {
        const run = this.local.get(runId);
        if (!run) return;
        this.logger.warn({ runId }, "lease lost; fencing the run");
        run.fenced = true;
        run.controller.abort(new RunAbort("ownership_lost"));
      }),
    );
  }

  /** Id of this instance. */
  get instanceId(): string {
    return this.coordinator.instanceId;
  }

  /** Number of runs this instance is executing or waiting to start. */
  get localRunCount(): number {
    return this.local.size;
  }

  /**
   * Recovers runs orphaned by dead instances (or by this process's previous life)
   * and starts the periodic sweeps. Creating a run starts the sweeps too. Runs
   * other instances execute are checked again when their lease would expire
   * (with a coordinator that implements `leaseOf`), so an orphan is recovered
   * at its lease's expiry rather than at the next sweep.
   */
  async start(): Promise<void> {
    this.ensureSweeps();
    await this.sweep();
  }

  /**
   * Admits a run under its multitask strategy and starts executing it in the
   * background. Resolves with the `pending` record once it is durable.
   *
   * @throws RuntimeError `THREAD_BUSY` (strategy `reject`), `THREAD_NOT_FOUND`
   *   (`ifNotExists: "reject"`), `ASSISTANT_NOT_FOUND`, `INVALID_ARGUMENT`, `SHUTTING_DOWN`;
   *   `STORE_UNAVAILABLE` when the coordinator does not take the run's lease within
   *   `coordinatorTimeoutMs` (e.g. Redis is down).
   */
  async create(input: CreateRunInput): Promise<RunRecord> {
    if (this.closing) throw new RuntimeError("SHUTTING_DOWN", "The run manager is shutting down and admits no runs.");
    const graph = this.resolveGraph(input.graphId ?? input.assistantId);
    const kwargs = this.buildKwargs(input);
    const strategy = input.multitaskStrategy ?? "reject";
    this.ensureSweeps();

    const runId = randomUUID();
    if (!(await this.acquireNewLease(runId))) {
      throw new RuntimeError("STORE_UNAVAILABLE", `Could not take the lease of new run ${runId}.`);
    }
    let admitted;
    try {
      admitted = await this.store.admitRun({
        runId,
        threadId: input.threadId,
        assistantId: input.assistantId,
        multitaskStrategy: strategy,
        onDisconnect: input.onDisconnect ?? "continue",
        metadata: input.metadata ?? {},
        kwargs,
        ownerId: this.instanceId,
        ifNotExists: input.ifNotExists ?? "create",
        ...(input.threadMetadata === undefined ? {} : { threadMetadata: input.threadMetadata }),
        ...(input.threadMetadataUpdate === undefined ? {} : { threadMetadataUpdate: input.threadMetadataUpdate }),
      });
    } catch (err) {
      await this.coordinated("release", runId, this.coordinator.release(runId)).catch(() => {});
      throw err;
    }

    const controller = new AbortController();
    const local: LocalRun = { runId, threadId: input.threadId, controller, fenced: false, done: Promise.resolve() };
    this.local.set(runId, local);
    local.done = this.execute(local, graph);

    for (const old of admitted.superseded)
      await this.supersede(old, strategy === "rollback" ? "rollback" : "interrupt");
    this.changes.wakeAll();
    return admitted.run;
  }

  /** The run, or null. */
  get(runId: string): Promise<RunRecord | null> {
    return this.store.getRun(runId);
  }

  /** Runs of a thread, newest first. */
  list(threadId: string, query?: RunListQuery): Promise<RunRecord[]> {
    return this.store.listRuns(threadId, query);
  }

  /**
   * Streams a run's events: replay after `lastEventId`, then live, then `end`.
   * A finished run whose stream has expired yields `end` at once.
   *
   * @throws RuntimeError `RUN_NOT_FOUND`
   */
  async *stream(runId: string, options: SubscribeOptions = {}): AsyncGenerator<StreamItem> {
    const run = await this.store.getRun(runId);
    if (!run) throw new RuntimeError("RUN_NOT_FOUND", `Run ${runId} not found.`, { details: { runId } });
    if (isTerminalRunStatus(run.status) && !this.local.has(runId) && !(await this.bridge.exists(runId))) {
      yield { kind: "end" };
      return;
    }
    yield* this.bridge.subscribe(runId, options);
  }

  /**
   * Waits until the run is terminal (on this instance: until its end marker is
   * published) and returns its final record.
   *
   * @throws RuntimeError `RUN_NOT_FOUND`; the signal's reason when aborted
   */
  async join(runId: string, options: { signal?: AbortSignal } = {}): Promise<RunRecord> {
    let delay = 10;
    for (;;) {
      options.signal?.throwIfAborted();
      const local = this.local.get(runId);
      if (local) {
        await Promise.race([local.done, this.changes.sleep(60_000, options.signal)]);
        continue;
      }
      const run = await this.store.getRun(runId);
      if (!run) throw new RuntimeError("RUN_NOT_FOUND", `Run ${runId} not found.`, { details: { runId } });
      if (isTerminalRunStatus(run.status)) return run;
      await this.changes.sleep(delay, options.signal);
      delay = Math.min(delay * 2, this.maxPollMs);
    }
  }

  /**
   * Cancels a run on whichever instance executes it. Idempotent: cancelling a
   * run that was already cancelled returns `cancelled` again.
   *
   * @throws RuntimeError `RUN_NOT_FOUND`; `NOT_CANCELLABLE` when it finished otherwise
   */
  async cancel(runId: string, options: CancelRunOptions = {}): Promise<CancelOutcome> {
    const action = options.action ?? "interrupt";
    const run = await this.store.getRun(runId);
    if (!run) throw new RuntimeError("RUN_NOT_FOUND", `Run ${runId} not found.`, { details: { runId } });
    let outcome: CancelOutcome;
    if (isTerminalRunStatus(run.status)) {
      if (run.status !== "interrupted" && run.cancelAction === null) {
        throw new RuntimeError("NOT_CANCELLABLE", `Run ${runId} is not cancellable (status: ${run.status}).`, {
          details: { runId, status: run.status },
        });
      }
      outcome = "cancelled";
    } else {
      const updated = await this.store.requestCancel(runId, action);
      const effective = updated?.cancelAction ?? action;
      if (this.abortLocal(runId, new RunAbort(effective))) {
        outcome = "cancelled";
      } else if (!updated || isTerminalRunStatus(updated.status)) {
        // A pending run elsewhere was cancelled in the store; its owner may be gone, so end the stream here too.
        await this.bridge.publishEnd(runId);
        this.bridge.cleanup(runId, { delayMs: this.streamRetentionMs }).catch(() => {});
        outcome = "cancelled";
      } else if (
        (await this.coordinated("requestCancel", runId, this.coordinator.requestCancel(runId, effective))) ===
        "delivered"
      ) {
        outcome = "requested";
      } else {
        outcome = (await this.recoverOrphan(updated)) ? "recovered" : "requested";
      }
    }
    if (options.wait) await this.join(runId, options.signal === undefined ? {} : { signal: options.signal });
    return outcome;
  }

  /**
   * Deletes a finished run and its stream.
   *
   * @throws RuntimeError `THREAD_BUSY` when the run is still active
   */
  async delete(runId: string): Promise<boolean> {
    const deleted = await this.store.deleteRun(runId);
    if (deleted) await this.bridge.cleanup(runId);
    return deleted;
  }

  /**
   * Cancels the thread's active runs (interrupt, waiting for them), then deletes
   * the thread, its runs and its checkpoints.
   */
  async deleteThread(threadId: string): Promise<boolean> {
    for (const run of await this.store.listActiveRuns()) {
      if (run.threadId === threadId) await this.cancel(run.runId, { wait: true }).catch(() => {});
    }
    // Checkpoints first: if deleting them fails, the thread record is still there, so the caller's retry
    // (the SDK retries a 5xx) deletes both instead of finding a 404 and leaving the checkpoints behind.
    // Deleting the checkpoints of an unknown thread is a no-op (and clears any left by an older failure).
    await this.options.checkpointer?.deleteThread(threadId);
    return await this.store.deleteThread(threadId);
  }

  /**
   * Stops admitting runs, waits up to `timeoutMs` for local runs to finish
   * (`drain`, default) and interrupts the rest, then closes what the manager
   * created itself.
   */
  async shutdown(options: { timeoutMs?: number; drain?: boolean } = {}): Promise<void> {
    const timeoutMs = options.timeoutMs ?? 5_000;
    this.closing = true;
    clearInterval(this.sweepTimer);
    for (const timer of this.expiryChecks.values()) clearTimeout(timer);
    this.expiryChecks.clear();
    const settled = (): Promise<unknown> => Promise.all([...this.local.values()].map((r) => r.done));
    const within = (p: Promise<unknown>): Promise<unknown> =>
      Promise.race([p, new Promise((r) => setTimeout(r, timeoutMs).unref())]);
    if (options.drain ?? true) await within(settled());
    for (const run of this.local.values()) run.controller.abort(new RunAbort("shutdown"));
    await within(settled());
    await this.sweeping?.catch(() => {});
    for (const off of this.unsubscribe) off();
    for (const component of this.owned.reverse()) await component.close().catch(() => {});
  }

  // -- execution ------------------------------------------------------------

  /** Takes a new run's lease; a lease the coordinator grants after the wait was given up is handed straight back. */
  private acquireNewLease(runId: string): Promise<boolean> {
    const acquiring = this.coordinator.acquire(runId);
    const releaseLate = (): void =>
      void acquiring.then((held) => (held ? this.coordinator.release(runId) : undefined)).catch(() => {});
    return this.coordinated("acquire", runId, acquiring, releaseLate);
  }

  /**
   * Waits for a coordinator call no longer than `coordinatorTimeoutMs`. While
   * Redis is down the coordinator's client may hold a command for the whole
   * outage; a caller is better served by a prompt `STORE_UNAVAILABLE` (HTTP 503)
   * it can retry. The call itself goes on; `onGiveUp` runs when the wait is given up.
   */
  private async coordinated<T>(operation: string, runId: string, call: Promise<T>, onGiveUp?: () => void): Promise<T> {
    const limit = AbortSignal.timeout(this.coordinatorTimeoutMs);
    try {
      return await raceAbort(call, limit);
    } catch (err) {
      if (!limit.aborted) throw err;
      onGiveUp?.();
      this.logger.warn(
        { runId, operation, timeoutMs: this.coordinatorTimeoutMs },
        "the run coordinator did not answer in time",
      );
      throw new RuntimeError(
        "STORE_UNAVAILABLE",
        `The run coordinator did not answer ${operation} for run ${runId} within ${this.coordinatorTimeoutMs} ms.`,
        {
          details: { runId, operation, timeoutMs: this.coordinatorTimeoutMs },
        },
      );
    }
  }

  private async execute(local: LocalRun, graph: GraphFactory): Promise<void> {
    const { runId, controller } = local;
    try {
      const run = await this.waitForTurn(local);
      if (!run) return;
      // The worker arms the run's timeout itself (status `timeout`).
      const outcome = await executeRun({
        run,
        graph,
        bridge: this.bridge,
        signal: controller.signal,
        logger: this.logger,
        ...(this.options.checkpointer === undefined ? {} : { checkpointer: this.options.checkpointer }),
        ...(this.options.graphStore === undefined ? {} : { store: this.options.graphStore }),
      });
      if (!local.fenced) await this.finish(run, outcome);
    } catch (err) {
      this.logger.error({ runId, err }, "run execution failed outside the graph");
      if (!local.fenced) {
        await this.store
          .finishRun(runId, { status: "error", error: (err as Error).message ?? String(err), threadStatus: "error" })
          .catch(() => {});
      }
    } finally {
      if (!local.fenced) {
        await this.bridge
          .publishEnd(runId)
          .catch((err) => this.logger.error({ runId, err }, "could not publish the end marker"));
        this.bridge.cleanup(runId, { delayMs: this.streamRetentionMs }).catch(() => {});
      }
      this.local.delete(runId);
      this.changes.wakeAll();
      // Unanswered (Redis down), the lease expires by itself; joiners were woken already.
      await this.coordinated("release", runId, this.coordinator.release(runId)).catch(() => {});
    }
  }

  /** Waits until every earlier run on the thread is terminal; null when the run will not start. */
  private async waitForTurn(local: LocalRun): Promise<RunRecord | null> {
    const { runId, controller } = local;
    let delay = 10;
    for (;;) {
      if (local.fenced) return null;
      if (controller.signal.aborted) {
        // Cancelled, superseded or shut down before it started: it never ran, so there is nothing to roll back.
        await this.store.requestCancel(runId, "interrupt");
        return null;
      }
      const attempt = await this.store.tryStartRun(runId);
      if (attempt.outcome === "started") return attempt.run;
      if (attempt.outcome !== "blocked") return null;
      await this.changes.sleep(delay, controller.signal);
      delay = Math.min(delay * 2, this.maxPollMs);
    }
  }

  private async finish(run: RunRecord, outcome: RunOutcome): Promise<void> {
    const finished = await this.store.finishRun(run.runId, {
      status: outcome.status,
      error: outcome.error,
      ...(outcome.stopReason === undefined ? {} : { stopReason: outcome.stopReason }),
      // The run's token usage, for `GET /runs/:run_id` (`metadata.token_usage`, DeerFlow's run counters).
      ...(outcome.tokenUsage === undefined ? {} : { metadata: { token_usage: outcome.tokenUsage } }),
      threadStatus: outcome.threadStatus,
      expectStatus: ["running"],
    });
    if (!finished) this.logger.warn({ runId: run.runId }, "run was finalised elsewhere before it finished here");
  }

  /** Cancels a run the strategy of a newer run superseded. */
  private async supersede(old: RunRecord, action: CancelAction): Promise<void> {
    if (isTerminalRunStatus(old.status)) {
      if (!this.local.has(old.runId)) await this.bridge.publishEnd(old.runId).catch(() => {});
      this.changes.wakeAll();
      return;
    }
    const effective = old.cancelAction ?? action;
    if (this.abortLocal(old.runId, new RunAbort(effective))) return;
    if (
      (await this.coordinated("requestCancel", old.runId, this.coordinator.requestCancel(old.runId, effective))) ===
      "no_owner"
    )
      await this.recoverOrphan(old);
  }

  /** Aborts a local run; false when this instance does not execute it. */
  private abortLocal(runId: string, reason: RunAbort): boolean {
    const run = this.local.get(runId);
    if (!run) return false;
    if (!run.controller.signal.aborted) run.controller.abort(reason);
    this.changes.wakeAll();
    return true;
  }

  // -- recovery and retention ------------------------------------------------

  /** Ends a run whose owner is gone, once across all instances. */
  private async recoverOrphan(run: RunRecord): Promise<boolean> {
    if (this.local.has(run.runId)) return false;
    // The claim only keeps instances from recovering a run together (the store's CAS decides anyway);
    // one that lapses after a failed recovery lets the next sweep retry at once.
    const claim = this.coordinator.claimRecovery(run.runId, this.sweepIntervalMs);
    if (!(await this.coordinated("claimRecovery", run.runId, claim))) return false;
    const finished = await this.store.finishRun(run.runId, {
      status: "error",
      error: ORPHAN_ERROR,
      stopReason: "orphan_recovered",
      threadStatus: "error",
    });
    if (!finished) return false;
    this.logger.warn({ runId: run.runId, ownerId: run.ownerId }, "recovered an orphaned run");
    await this.bridge.publishEnd(run.runId).catch(() => {});
    this.bridge.cleanup(run.runId, { delayMs: this.streamRetentionMs }).catch(() => {});
    this.changes.wakeAll();
    return true;
  }

  /**
   * The run's live lease, or null. `expiresInMs` is unknown (undefined) for a
   * coordinator without `leaseOf`.
   */
  private async leaseOf(runId: string): Promise<{ expiresInMs: number | undefined } | null> {
    if (this.coordinator.leaseOf !== undefined)
      return this.coordinated("leaseOf", runId, this.coordinator.leaseOf(runId));
    const owner = await this.coordinated("ownerOf", runId, this.coordinator.ownerOf(runId));
    return owner === null ? null : { expiresInMs: undefined };
  }

  /**
   * Recovers a run another instance executes if its lease is gone, else checks
   * again the moment the lease would expire (when the coordinator tells how
   * long it has left): an orphan is then recovered at its lease's expiry, not
   * up to a sweep interval later.
   */
  private async watchForeignRun(run: RunRecord): Promise<void> {
    if (this.local.has(run.runId)) return;
    const lease = await this.leaseOf(run.runId);
    if (lease === null) await this.recoverOrphan(run);
    else if (lease.expiresInMs !== undefined) this.checkAtExpiry(run.runId, lease.expiresInMs);
  }

  private checkAtExpiry(runId: string, expiresInMs: number): void {
    // A check already armed is for an earlier or equal expiry: leases only ever get extended.
    if (this.closing || this.expiryChecks.has(runId)) return;
    const timer = setTimeout(() => {
      this.expiryChecks.delete(runId);
      void this.checkExpired(runId);
    }, expiresInMs + EXPIRY_MARGIN_MS);
    timer.unref();
    this.expiryChecks.set(runId, timer);
  }

  private async checkExpired(runId: string): Promise<void> {
    if (this.closing) return;
    try {
      const run = await this.store.getRun(runId);
      if (run !== null && !isTerminalRunStatus(run.status)) await this.watchForeignRun(run);
    } catch (err) {
      this.logger.warn({ err, runId }, "checking a run at its lease expiry failed; the sweep retries");
    }
  }

  /** One pass of orphan recovery and retention. */
  private sweep(): Promise<void> {
    this.sweeping ??= (async () => {
      try {
        for (const run of await this.store.listActiveRuns()) {
          // A run with a check armed at its lease's expiry is looked at then.
          if (!this.expiryChecks.has(run.runId)) await this.watchForeignRun(run);
        }
        const retentionMs = this.options.retentionMs ?? DAY_MS;
        if (Number.isFinite(retentionMs)) await this.store.deleteFinishedRuns(new Date(Date.now() - retentionMs));
      } catch (err) {
        this.logger.warn({ err }, "run sweep failed; retrying at the next interval");
      } finally {
        this.sweeping = undefined;
      }
    })();
    return this.sweeping;
  }

  private ensureSweeps(): void {
    if (this.sweepTimer || this.closing) return;
    this.sweepTimer = setInterval(() => void this.sweep(), this.sweepIntervalMs);
    this.sweepTimer.unref();
  }

  // -- helpers ----------------------------------------------------------------

  private resolveGraph(assistantId: string): GraphFactory {
    const graphs = this.options.graphs;
    const graph =
      typeof graphs === "function"
        ? graphs(assistantId)
        : Object.hasOwn(graphs, assistantId)
          ? graphs[assistantId]
          : undefined;
    if (!graph) {
      throw new RuntimeError("ASSISTANT_NOT_FOUND", `No assistant found for "${assistantId}".`, {
        details: { assistantId },
      });
    }
    return graph;
  }

  private buildKwargs(input: CreateRunInput): RunKwargs {
    const timeoutMs = input.timeoutMs ?? this.options.defaultTimeoutMs;
    if (timeoutMs !== undefined && !(Number.isFinite(timeoutMs) && timeoutMs > 0)) {
      throw new RuntimeError(
        "INVALID_ARGUMENT",
        `timeoutMs must be a positive number of milliseconds, got ${String(timeoutMs)}.`,
      );
    }
    const kwargs: RunKwargs = { streamMode: normalizeStreamModes(input.streamMode) };
    if (input.input !== undefined) kwargs.input = input.input;
    if (input.command !== undefined) kwargs.command = input.command;
    if (input.config !== undefined) kwargs.config = input.config;
    if (input.context !== undefined) kwargs.context = input.context;
    if (input.streamSubgraphs !== undefined) kwargs.streamSubgraphs = input.streamSubgraphs;
    if (input.interruptBefore !== undefined) kwargs.interruptBefore = input.interruptBefore;
    if (input.interruptAfter !== undefined) kwargs.interruptAfter = input.interruptAfter;
    if (input.checkpointId !== undefined) kwargs.checkpointId = input.checkpointId;
    if (timeoutMs !== undefined) kwargs.timeoutMs = timeoutMs;
    const durability = input.durability ?? this.options.defaultDurability;
    if (durability !== undefined) {
      if (!DURABILITIES.includes(durability)) {
        throw new RuntimeError(
          "INVALID_ARGUMENT",
          `durability must be one of ${DURABILITIES.join(", ")}, got ${JSON.stringify(durability) ?? String(durability)}.`,
        );
      }
      kwargs.durability = durability;
    }
    return kwargs;
  }

  private own<T extends { close(): Promise<unknown> }>(component: T): T {
    this.owned.push(component);
    return component;
  }

  private get maxPollMs(): number {
    return this.options.maxStartPollMs ?? 500;
  }

  private get sweepIntervalMs(): number {
    return this.options.sweepIntervalMs ?? 10_000;
  }

  private get streamRetentionMs(): number {
    return this.options.streamRetentionMs ?? 60_000;
  }

  private get coordinatorTimeoutMs(): number {
    return this.options.coordinatorTimeoutMs ?? 5_000;
  }
}
