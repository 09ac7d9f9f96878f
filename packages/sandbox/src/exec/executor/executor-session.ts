/**
 * One running executor, seen from the host: waits for it to be ready, sends
 * it requests, collects output into bounded captures, and notices when it
 * dies. A request the executor had not confirmed as started when it died
 * fails with {@link ExecutorLostError} `started: false`, which the pool
 * retries on a new executor; one that had started fails for good.
 */
import { SandboxError } from "../../errors.js";
import { silentLogger, type Logger } from "../../logger.js";
import { OutputCapture } from "../output-capture.js";
import { killProcessGroup, TERMINATE_GRACE_MS, type ProcessTreeResult } from "../process-tree.js";
import { ExecutorLostError, ExecutorStartError } from "./executor-errors.js";
import type { LaunchedExecutor } from "./launch.js";
import {
  executorCodec,
  encodeRequest,
  ExecutorProtocolError,
  MAX_EXECUTOR_FRAME_BYTES,
  parseExecutorMessage,
  type ExecRequest,
  type ExecutorMessage,
  type ResultMessage,
} from "./protocol.js";

/** How long a new executor may take to report ready (a busy host starts Node slowly). */
export const DEFAULT_EXECUTOR_START_TIMEOUT_MS = 30_000;

/** An executor that misses a command's deadline by this much is presumed stuck and killed. */
const EXECUTOR_DEADLINE_SLACK_MS = 10_000;

/** How long a cancelled command may take to be confirmed before the executor is killed. */
const EXECUTOR_CANCEL_GRACE_MS = 5_000;

/** How long a stopping executor may take to exit on its own. */
const EXECUTOR_STOP_GRACE_MS = 2_000;

/** Diagnostics kept from an executor's stderr (for the log and start errors). */
const MAX_DIAGNOSTIC_CHARS = 4096;

/** One command for an executor: an `exec` request without its id, and the caller's abort signal. */
export type ExecutorCommand = Omit<ExecRequest, "type" | "id"> & { readonly signal?: AbortSignal };

/** How a command ended: the result of `runProcessTree`, plus why it could not start. */
export interface ExecutorOutcome extends ProcessTreeResult {
  readonly spawnError: string | null;
}

interface Pending {
  readonly request: ExecRequest;
  readonly stdout: OutputCapture;
  readonly stderr: OutputCapture;
  started: boolean;
  aborted: boolean;
  /** The executor missed the deadline and was killed: the command counts as timed out. */
  expired: boolean;
  readonly resolve: (outcome: ExecutorOutcome) => void;
  readonly reject: (err: unknown) => void;
  readonly timers: NodeJS.Timeout[];
  readonly cleanup: () => void;
}

/**
 * A started executor.
 *
 * @example
 * ```ts
 * const session = await ExecutorSession.start(() => launchExecutorProcess(options));
 * const outcome = await session.run({ argv: ["/bin/sh", "-c", "echo hi"], cwd: "/", env: {}, timeoutMs: 5000, maxOutputBytes: 1 << 20, drainGraceMs: 200 });
 * outcome.stdout.text(); // "hi\n"
 * await session.stop();
 * ```
 */
export class ExecutorSession {
  readonly #process: LaunchedExecutor;
  readonly #logger: Logger;
  readonly #pending = new Map<number, Pending>();
  readonly #decoder = new (executorCodec().FrameDecoder)(MAX_EXECUTOR_FRAME_BYTES);
  readonly #exited: Promise<void>;
  #ready: ((err?: Error) => void) | undefined;
  #alive = true;
  #nextId = 0;
  #cpuMicros = 0;
  #diagnostics = "";
  #stopping: Promise<void> | undefined;

  private constructor(launched: LaunchedExecutor, logger: Logger) {
    this.#process = launched;
    this.#logger = logger;
    this.#exited = new Promise((resolve) => {
      if (launched.child.exitCode !== null || launched.child.signalCode !== null) resolve();
      else launched.child.once("exit", () => resolve());
    });
    launched.frames.on("data", (chunk: Buffer) => this.#receive(chunk));
    // Every frame written before the executor died is read before this fires.
    launched.frames.once("close", () => this.#lost("the sandbox executor exited"));
    launched.diagnostics.on("data", (chunk: Buffer) => {
      if (this.#diagnostics.length < MAX_DIAGNOSTIC_CHARS)
        this.#diagnostics = (this.#diagnostics + chunk.toString("utf8")).slice(0, MAX_DIAGNOSTIC_CHARS);
    });
    this.#idle();
  }

  /**
   * Launches an executor and waits until it reports ready.
   *
   * @param launch - spawns the process (see `launchExecutorProcess`).
   * @param options - start timeout and logger.
   * @returns the session.
   * @throws ExecutorStartError when it does not come up (its stderr, e.g. bubblewrap's message, is in the message);
   *   the launcher's own errors (a refused cgroup attach).
   */
  static async start(
    launch: () => Promise<LaunchedExecutor>,
    options: { readonly startTimeoutMs?: number; readonly logger?: Logger } = {},
  ): Promise<ExecutorSession> {
    const session = new ExecutorSession(await launch(), options.logger ?? silentLogger);
    const timeoutMs = options.startTimeoutMs ?? DEFAULT_EXECUTOR_START_TIMEOUT_MS;
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`not ready within ${timeoutMs} ms`)), timeoutMs);
        session.#ready = (err) => {
          clearTimeout(timer);
          session.#ready = undefined;
          if (err === undefined) resolve();
          else reject(err);
        };
      });
    } catch (err) {
      await session.#kill();
      const detail = session.#diagnostics.trim();
      throw new ExecutorStartError(
        `The sandbox executor did not start: ${(err as Error).message}${detail === "" ? "" : ` (${detail})`}`,
        { cause: err },
      );
    }
    return session;
  }

  /** False once the executor has died or been stopped. */
  get alive(): boolean {
    return this.#alive && this.#stopping === undefined;
  }

  /** Requests not answered yet. */
  get running(): number {
    return this.#pending.size;
  }

  /** CPU time the executor reported having used (it counts against its own RLIMIT_CPU). */
  get cpuMicros(): number {
    return this.#cpuMicros;
  }

  /** The start of what the executor and its bubblewrap wrote to stderr (for logs). */
  get diagnostics(): string {
    return this.#diagnostics;
  }

  /** Host pid of the spawned wrapper process. */
  get pid(): number {
    return this.#process.pid;
  }

  /** Settles when the spawned process has exited. */
  get exited(): Promise<void> {
    return this.#exited;
  }

  /**
   * Runs one command.
   *
   * @param command - what to run.
   * @returns how it ended; the captures hold at most `maxOutputBytes` per stream.
   * @throws ExecutorLostError when the executor died first (`started` tells whether the command had begun);
   *   SandboxError `ABORTED` when `command.signal` fired (after the tree was killed).
   */
  run(command: ExecutorCommand): Promise<ExecutorOutcome> {
    if (!this.alive) return Promise.reject(new ExecutorLostError(false, "the sandbox executor is not running"));
    if (command.signal?.aborted === true) return Promise.reject(new SandboxError("ABORTED", "Command aborted"));
    this.#nextId = this.#nextId >= 0xffffffff ? 1 : this.#nextId + 1;
    const { signal: _signal, ...fields } = command;
    const request: ExecRequest = { type: "exec", id: this.#nextId, ...fields };
    return new Promise<ExecutorOutcome>((resolve, reject) => {
      const signal = command.signal;
      const onAbort = (): void => {
        const pending = this.#pending.get(request.id);
        if (pending === undefined || pending.aborted) return;
        pending.aborted = true;
        this.#send(encodeRequest({ type: "cancel", id: request.id }));
        pending.timers.push(this.#watchdog(EXECUTOR_CANCEL_GRACE_MS, "did not confirm a cancelled command"));
      };
      const pending: Pending = {
        request,
        stdout: new OutputCapture(command.maxOutputBytes),
        stderr: new OutputCapture(command.maxOutputBytes),
        started: false,
        aborted: false,
        expired: false,
        resolve,
        reject,
        timers: [],
        cleanup: () => signal?.removeEventListener("abort", onAbort),
      };
      const deadline = command.timeoutMs + command.drainGraceMs + EXECUTOR_DEADLINE_SLACK_MS;
      pending.timers.push(
        setTimeout(
          () => {
            pending.expired = true;
            this.#logger.warn({ pid: this.pid }, "sandbox executor missed a command's deadline; killing it");
            void this.#kill();
          },
          Math.min(deadline, 2_147_483_647),
        ),
      );
      this.#pending.set(request.id, pending);
      this.#busy();
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#send(encodeRequest(request));
    });
  }

  /**
   * Stops the executor: closing its channel makes it kill every command and
   * exit; if it does not, the sandbox's namespace init is killed, which ends
   * everything in the sandbox. Pending requests fail with `UNAVAILABLE`.
   *
   * @returns once the spawned process has exited.
   */
  stop(): Promise<void> {
    this.#stopping ??= (async () => {
      // Keep the host alive until the sandbox is really gone.
      this.#busy();
      this.#process.requests.end();
      const exited = await Promise.race([
        this.#exited.then(() => true),
        delay(EXECUTOR_STOP_GRACE_MS).then(() => false),
      ]);
      if (!exited) await this.#kill();
      this.#lost("the sandbox was released");
    })();
    return this.#stopping;
  }

  #send(frame: Buffer): void {
    if (this.#alive) this.#process.requests.write(frame);
  }

  #watchdog(ms: number, what: string): NodeJS.Timeout {
    return setTimeout(() => {
      this.#logger.warn({ pid: this.pid }, `sandbox executor ${what}; killing it`);
      void this.#kill();
    }, ms);
  }

  #receive(chunk: Buffer): void {
    if (!this.#alive) return;
    try {
      for (const frame of this.#decoder.push(chunk)) {
        if (frame.kind === "output") {
          const pending = this.#pending.get(frame.id);
          if (pending === undefined)
            throw new ExecutorProtocolError(`executor sent output for unknown request ${frame.id}`);
          (frame.stream === executorCodec().STDOUT ? pending.stdout : pending.stderr).write(frame.data);
        } else {
          this.#handle(parseExecutorMessage(frame.message));
        }
      }
    } catch (err) {
      this.#logger.error(
        { pid: this.pid, err: (err as Error).message },
        "sandbox executor broke the protocol; killing it",
      );
      void this.#kill();
    }
  }

  #handle(message: ExecutorMessage): void {
    switch (message.type) {
      case "ready":
        if (this.#ready === undefined) throw new ExecutorProtocolError("executor reported ready twice");
        if (message.protocol !== executorCodec().PROTOCOL_VERSION) {
          this.#ready(
            new Error(`it speaks protocol ${message.protocol}, the host ${executorCodec().PROTOCOL_VERSION}`),
          );
          return;
        }
        this.#ready();
        return;
      case "started": {
        const pending = this.#pending.get(message.id);
        if (pending === undefined) throw new ExecutorProtocolError(`executor started unknown request ${message.id}`);
        pending.started = true;
        return;
      }
      case "result":
        this.#settle(message);
        return;
      case "error": {
        const pending = message.id === null ? undefined : this.#pending.get(message.id);
        // A refused request means host and executor disagree about the protocol: not recoverable.
        throw new ExecutorProtocolError(
          `executor refused ${pending === undefined ? "a request" : `request ${message.id}`}: ${message.code} ${message.message}`,
        );
      }
    }
  }

  #settle(message: ResultMessage): void {
    const pending = this.#pending.get(message.id);
    if (pending === undefined) throw new ExecutorProtocolError(`executor answered unknown request ${message.id}`);
    if (message.stdoutBytes < pending.stdout.totalBytes || message.stderrBytes < pending.stderr.totalBytes) {
      throw new ExecutorProtocolError("executor reported less output than it sent");
    }
    this.#forget(message.id, pending);
    this.#cpuMicros = message.cpuMicros;
    pending.stdout.countDiscarded(message.stdoutBytes - pending.stdout.totalBytes);
    pending.stderr.countDiscarded(message.stderrBytes - pending.stderr.totalBytes);
    if (pending.aborted) {
      pending.reject(new SandboxError("ABORTED", "Command aborted"));
      return;
    }
    pending.resolve({
      stdout: pending.stdout,
      stderr: pending.stderr,
      exitCode: message.timedOut ? null : message.exitCode,
      signal: message.timedOut ? "SIGKILL" : message.signal,
      timedOut: message.timedOut,
      spawnError: message.spawnError,
    });
  }

  #forget(id: number, pending: Pending): void {
    this.#pending.delete(id);
    for (const timer of pending.timers) clearTimeout(timer);
    pending.cleanup();
    if (this.#pending.size === 0) this.#idle();
  }

  /** The executor is gone: fail or settle everything still pending. */
  #lost(reason: string): void {
    if (!this.#alive) return;
    this.#alive = false;
    this.#ready?.(new Error("it exited before it was ready"));
    for (const [id, pending] of [...this.#pending]) {
      this.#forget(id, pending);
      if (pending.aborted) pending.reject(new SandboxError("ABORTED", "Command aborted"));
      else if (pending.expired)
        pending.resolve({
          stdout: pending.stdout,
          stderr: pending.stderr,
          exitCode: null,
          signal: "SIGKILL",
          timedOut: true,
          spawnError: null,
        });
      else if (this.#stopping !== undefined)
        pending.reject(
          new SandboxError(
            "UNAVAILABLE",
            "The sandbox was released while the command was running; the command was killed",
          ),
        );
      else pending.reject(new ExecutorLostError(pending.started, reason));
    }
  }

  /** Kills the sandbox: its namespace init first (every process in it dies), the wrapper group after a grace. */
  async #kill(): Promise<void> {
    this.#busy();
    const leader = this.#process.pid;
    if (!this.#process.init.kill(leader)) killProcessGroup(leader);
    const exited = await Promise.race([this.#exited.then(() => true), delay(TERMINATE_GRACE_MS).then(() => false)]);
    if (!exited) {
      killProcessGroup(leader);
      await this.#exited;
    }
    this.#lost("the sandbox executor was killed");
  }

  /** While requests run, the executor keeps the host's event loop alive; idle, it does not. */
  #busy(): void {
    this.#process.child.ref();
    (this.#process.frames as unknown as { ref?: () => void }).ref?.();
  }

  #idle(): void {
    this.#process.child.unref();
    for (const stream of [this.#process.frames, this.#process.diagnostics, this.#process.requests])
      (stream as unknown as { unref?: () => void }).unref?.();
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
