/**
 * The executors of one runner, one per sandbox configuration: started on a
 * sandbox's first command, reused by the next ones, restarted transparently
 * after a crash, stopped on release, when idle, when too many are alive, or
 * when they approach their own CPU limit.
 */
import { SandboxError } from "../../errors.js";
import { silentLogger, type Logger } from "../../logger.js";
import { ExecutorLostError, ExecutorStartError } from "./executor-errors.js";
import { ExecutorSession, type ExecutorCommand, type ExecutorOutcome } from "./executor-session.js";
import type { LaunchedExecutor } from "./launch.js";

/** An idle executor is stopped after this long (5 minutes). */
export const DEFAULT_EXECUTOR_IDLE_MS = 300_000;

/** Executors alive at once per runner before idle ones are stopped to make room. */
export const DEFAULT_MAX_EXECUTORS = 64;

/** After an executor failed to start (or kept crashing), commands of that sandbox use one bubblewrap each for this long. */
export const EXECUTOR_START_BACKOFF_MS = 30_000;

/** Crashes within {@link CRASH_WINDOW_MS} after which the start backoff applies. */
const MAX_CRASHES = 3;
const CRASH_WINDOW_MS = 60_000;

/** Options of {@link ExecutorPool}. */
export interface ExecutorPoolOptions {
  readonly idleMs?: number;
  readonly maxExecutors?: number;
  readonly startTimeoutMs?: number;
  readonly logger?: Logger;
}

/** Which executor a command needs, and how to start it. */
export interface ExecutorSlot {
  /** Everything that shapes the sandbox (mounts, limits, network, identity, cgroup...). */
  readonly key: string;
  /** The sandbox the executor belongs to, for `release`. */
  readonly sandboxId: string | undefined;
  /** Spawns a new executor for this slot. */
  readonly launch: () => Promise<LaunchedExecutor>;
  /** The executor's own RLIMIT_CPU in microseconds: it is replaced when idle past half of it. */
  readonly cpuLimitMicros?: number;
}

interface Entry {
  readonly key: string;
  readonly sandboxId: string | undefined;
  session: ExecutorSession | undefined;
  starting: Promise<ExecutorSession | undefined> | undefined;
  /** Order of last use (a counter: clock milliseconds can tie). */
  lastUsed: number;
  idleTimer: NodeJS.Timeout | undefined;
  backoffUntil: number;
  crashes: number[];
}

/**
 * Executors by slot key.
 *
 * @example
 * ```ts
 * const pool = new ExecutorPool({ logger });
 * const outcome = await pool.run(slot, { argv: ["/bin/sh", "-c", "true"], cwd: "/", env, timeoutMs, maxOutputBytes, drainGraceMs: 200 });
 * if (outcome === undefined) { ...run it the one-shot way... }
 * await pool.release("local:alice:t1");
 * ```
 */
export class ExecutorPool {
  readonly #entries = new Map<string, Entry>();
  readonly #stopping = new Set<ExecutorSession>();
  readonly #idleMs: number;
  readonly #maxExecutors: number;
  readonly #startTimeoutMs: number | undefined;
  readonly #logger: Logger;
  #uses = 0;

  /** @param options - see {@link ExecutorPoolOptions}. */
  constructor(options: ExecutorPoolOptions = {}) {
    this.#idleMs = options.idleMs ?? DEFAULT_EXECUTOR_IDLE_MS;
    this.#maxExecutors = options.maxExecutors ?? DEFAULT_MAX_EXECUTORS;
    this.#startTimeoutMs = options.startTimeoutMs;
    this.#logger = options.logger ?? silentLogger;
  }

  /** Executors alive or starting. */
  get size(): number {
    let n = 0;
    for (const entry of this.#entries.values())
      if (entry.session?.alive === true || entry.starting !== undefined) n += 1;
    return n;
  }

  /**
   * Runs a command on the slot's executor, starting one if needed. A command
   * the executor had not started when it died is retried once on a new one.
   *
   * @param slot - which executor.
   * @param command - what to run.
   * @returns the outcome, or `undefined` when no executor can run it (it
   *   failed to start recently): the caller runs the command another way.
   * @throws SandboxError `UNAVAILABLE` when the executor died while the
   *   command ran (or was released meanwhile), `ABORTED` on abort; the
   *   launcher's own errors (e.g. a refused cgroup attach).
   */
  async run(slot: ExecutorSlot, command: ExecutorCommand): Promise<ExecutorOutcome | undefined> {
    for (let attempt = 0; ; attempt += 1) {
      const entry = this.#entry(slot);
      const session = await this.#session(entry, slot);
      if (session === undefined) return undefined;
      if (entry.idleTimer !== undefined) clearTimeout(entry.idleTimer);
      entry.idleTimer = undefined;
      entry.lastUsed = ++this.#uses;
      try {
        return await session.run(command);
      } catch (err) {
        if (!(err instanceof ExecutorLostError)) throw err;
        if (!err.started && attempt === 0) {
          this.#logger.info(
            { sandboxId: slot.sandboxId },
            "sandbox executor was gone before the command started; retrying on a new one",
          );
          continue;
        }
        throw new SandboxError(
          "UNAVAILABLE",
          err.started
            ? "The sandbox's command executor stopped while the command was running, so the command was killed; the next command starts a new executor"
            : "The sandbox's command executor stopped before the command could start",
          { cause: err },
        );
      } finally {
        this.#afterUse(entry, session, slot);
      }
    }
  }

  /**
   * Stops the executors of a sandbox (the next command starts a new one).
   *
   * @param sandboxId - as given in the slots.
   */
  async release(sandboxId: string): Promise<void> {
    const entries = [...this.#entries.values()].filter((e) => e.sandboxId === sandboxId);
    await Promise.all(entries.map((e) => this.#remove(e)));
  }

  /** Stops every executor. The pool stays usable. */
  async close(): Promise<void> {
    await Promise.all([...this.#entries.values()].map((e) => this.#remove(e)));
    await Promise.all([...this.#stopping].map((s) => s.exited));
  }

  #entry(slot: ExecutorSlot): Entry {
    let entry = this.#entries.get(slot.key);
    if (entry === undefined) {
      entry = {
        key: slot.key,
        sandboxId: slot.sandboxId,
        session: undefined,
        starting: undefined,
        lastUsed: ++this.#uses,
        idleTimer: undefined,
        backoffUntil: 0,
        crashes: [],
      };
      this.#entries.set(slot.key, entry);
    }
    return entry;
  }

  async #session(entry: Entry, slot: ExecutorSlot): Promise<ExecutorSession | undefined> {
    if (entry.session?.alive === true) return entry.session;
    if (entry.starting !== undefined) return entry.starting;
    if (Date.now() < entry.backoffUntil) return undefined;
    entry.starting = this.#start(entry, slot).finally(() => {
      entry.starting = undefined;
    });
    return entry.starting;
  }

  async #start(entry: Entry, slot: ExecutorSlot): Promise<ExecutorSession | undefined> {
    await this.#makeRoom();
    let session: ExecutorSession;
    try {
      session = await ExecutorSession.start(slot.launch, {
        logger: this.#logger,
        ...(this.#startTimeoutMs === undefined ? {} : { startTimeoutMs: this.#startTimeoutMs }),
      });
    } catch (err) {
      // A refused cgroup attach is not a reason to run the command some other way.
      if (!(err instanceof ExecutorStartError)) throw err;
      entry.backoffUntil = Date.now() + EXECUTOR_START_BACKOFF_MS;
      this.#logger.warn(
        { sandboxId: slot.sandboxId, err: (err as Error).message },
        "sandbox executor could not start; running commands with one bubblewrap each for a while",
      );
      return undefined;
    }
    entry.session = session;
    void session.exited.then(() => this.#onExit(entry, session));
    this.#logger.debug({ sandboxId: slot.sandboxId, pid: session.pid }, "sandbox executor started");
    return session;
  }

  #onExit(entry: Entry, session: ExecutorSession): void {
    if (this.#stopping.delete(session) || entry.session !== session) return;
    entry.session = undefined;
    const now = Date.now();
    entry.crashes = [...entry.crashes.filter((t) => now - t < CRASH_WINDOW_MS), now];
    this.#logger.warn(
      { sandboxId: entry.sandboxId, pid: session.pid, stderr: session.diagnostics },
      "sandbox executor exited unexpectedly; the next command starts a new one",
    );
    if (entry.crashes.length >= MAX_CRASHES) {
      entry.backoffUntil = now + EXECUTOR_START_BACKOFF_MS;
      entry.crashes = [];
    }
  }

  #afterUse(entry: Entry, session: ExecutorSession, slot: ExecutorSlot): void {
    entry.lastUsed = ++this.#uses;
    if (!session.alive || session.running > 0 || entry.session !== session) return;
    if (slot.cpuLimitMicros !== undefined && session.cpuMicros * 2 > slot.cpuLimitMicros) {
      // Its RLIMIT_CPU is cumulative: replace it before it runs out.
      this.#logger.debug(
        { sandboxId: slot.sandboxId, cpuMicros: session.cpuMicros },
        "replacing a sandbox executor near its CPU limit",
      );
      void this.#stopSession(entry, session);
      return;
    }
    if (entry.idleTimer !== undefined) clearTimeout(entry.idleTimer);
    entry.idleTimer = setTimeout(() => {
      entry.idleTimer = undefined;
      if (entry.session === session && session.running === 0) void this.#remove(entry);
    }, this.#idleMs);
    entry.idleTimer.unref();
  }

  /** Stops least recently used idle executors while the pool is full. */
  async #makeRoom(): Promise<void> {
    const stops: Promise<void>[] = [];
    while (this.size >= this.#maxExecutors) {
      const idle = [...this.#entries.values()]
        .filter((e) => e.session?.alive === true && e.session.running === 0 && e.starting === undefined)
        .sort((a, b) => a.lastUsed - b.lastUsed)[0];
      if (idle === undefined) {
        this.#logger.warn(
          { max: this.#maxExecutors },
          "every sandbox executor is busy; starting one more than the maximum",
        );
        break;
      }
      stops.push(this.#remove(idle));
    }
    await Promise.all(stops);
  }

  #stopSession(entry: Entry, session: ExecutorSession): Promise<void> {
    if (entry.session === session) entry.session = undefined;
    this.#stopping.add(session);
    return session.stop();
  }

  async #remove(entry: Entry): Promise<void> {
    if (this.#entries.get(entry.key) === entry) this.#entries.delete(entry.key);
    if (entry.idleTimer !== undefined) clearTimeout(entry.idleTimer);
    entry.idleTimer = undefined;
    const session = entry.session ?? (await entry.starting?.catch(() => undefined));
    if (session !== undefined) await this.#stopSession(entry, session);
  }
}
