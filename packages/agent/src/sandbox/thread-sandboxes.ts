/**
 * The per-thread session registry of a compiled agent: the sandbox of a
 * thread is acquired by the first run that needs it and released when the
 * last run using it ends — at the run's last model call (an answer without
 * tool calls), and in any case when the run's `invoke` or `stream` is over
 * (see `releaseSandboxesAfterRuns`: a run that stops on an interrupt, an
 * error or its abort signal never gets that answer).
 *
 * Runs are told apart by `configurable.run_id`; runs without one share one
 * lease per thread (the first of them to end releases, the next tool call
 * acquires again), so nothing outlives the runs that used it.
 */
import type { Sandbox, SandboxProvider } from "@deerflow/sandbox";
import { AgentError } from "../errors.js";
import { silentLogger, type Logger } from "../logger.js";
import { readRunOptions, type RunConfigLike, type RunOptions } from "../run/run-options.js";
import { ThreadSandbox } from "./thread-sandbox.js";

/** Lease key of runs without a `run_id`. */
const ANONYMOUS_RUN = "";

interface Entry {
  readonly session: ThreadSandbox;
  /** Keys of the runs holding the session. */
  readonly leases: Set<string>;
  /** Keys of the runs whose state already records the sandbox's id. */
  readonly recorded: Set<string>;
}

/** Sandboxes of the threads that have runs going. */
export class ThreadSandboxes {
  readonly #provider: SandboxProvider;
  readonly #logger: Logger;
  readonly #entries = new Map<string, Entry>();
  /** Releases in flight, by thread key: the thread's next session acquires after them. */
  readonly #releasing = new Map<string, Promise<void>>();

  /**
   * @param provider - where sandboxes come from
   * @param logger - logger
   */
  constructor(provider: SandboxProvider, logger: Logger = silentLogger) {
    this.#provider = provider;
    this.#logger = logger;
  }

  /** Threads whose sandbox is held by at least one run. */
  get activeThreads(): number {
    return this.#entries.size;
  }

  /**
   * Registers a run on its thread's session (idempotent per run) and returns the session.
   *
   * @param scope - the run's config (`configurable.thread_id`, `user_id`, `run_id`)
   * @returns the thread's session; `get()` acquires the sandbox
   * @throws {@link AgentError} `THREAD_ID_REQUIRED` without `configurable.thread_id`
   */
  open(scope: RunConfigLike): ThreadSandbox {
    const run = readRunOptions(scope);
    const threadId = requireThread(run);
    const key = threadKey(threadId, run.userId);
    let entry = this.#entries.get(key);
    if (entry === undefined) {
      const after = this.#releasing.get(key);
      entry = {
        session: new ThreadSandbox(this.#provider, {
          threadId,
          userId: run.userId,
          logger: this.#logger,
          ...(after === undefined ? {} : { after }),
        }),
        leases: new Set(),
        recorded: new Set(),
      };
      this.#entries.set(key, entry);
    }
    entry.leases.add(run.runId ?? ANONYMOUS_RUN);
    return entry.session;
  }

  /**
   * The run's sandbox (what the sandbox tools call with their config).
   *
   * @param scope - the tool call's config
   * @returns the thread's sandbox, acquired if needed
   */
  sandboxFor(scope: RunConfigLike): Promise<Sandbox> {
    return this.open(scope).get();
  }

  /**
   * The id of the thread's sandbox when one of the run's tools acquired it and
   * the run has not recorded it yet (it is marked recorded): what the sandbox
   * middleware writes into the state. Never acquires.
   *
   * @param scope - the run's config
   * @returns the sandbox's id to record, or `undefined`
   */
  takeIdToRecord(scope: RunConfigLike): string | undefined {
    const run = readRunOptions(scope);
    if (run.threadId === undefined) return undefined;
    const entry = this.#entries.get(threadKey(run.threadId, run.userId));
    const id = entry?.session.sandboxId;
    const runKey = run.runId ?? ANONYMOUS_RUN;
    if (entry === undefined || id === undefined || !entry.leases.has(runKey) || entry.recorded.has(runKey))
      return undefined;
    entry.recorded.add(runKey);
    return id;
  }

  /**
   * Ends a run's lease; the last lease of a thread releases its sandbox. Never throws.
   *
   * @param scope - the run's config
   */
  async close(scope: RunConfigLike): Promise<void> {
    const run = readRunOptions(scope);
    if (run.threadId === undefined) return;
    const key = threadKey(run.threadId, run.userId);
    const entry = this.#entries.get(key);
    const runKey = run.runId ?? ANONYMOUS_RUN;
    if (entry === undefined || !entry.leases.delete(runKey)) return;
    entry.recorded.delete(runKey);
    if (entry.leases.size > 0) return;
    this.#entries.delete(key);
    const releasing = entry.session.release().finally(() => {
      if (this.#releasing.get(key) === releasing) this.#releasing.delete(key);
    });
    this.#releasing.set(key, releasing);
    await releasing;
  }
}

function threadKey(threadId: string, userId: string | undefined): string {
  return `${userId ?? ""}\u0000${threadId}`;
}

function requireThread(run: RunOptions): string {
  if (run.threadId !== undefined) return run.threadId;
  throw new AgentError(
    "THREAD_ID_REQUIRED",
    "The lead agent's sandbox is per thread: pass configurable.thread_id in the run's config.",
  );
}
