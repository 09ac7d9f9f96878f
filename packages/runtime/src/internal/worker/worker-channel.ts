/**
 * The caller's side of a store's worker thread: calls go out in batches
 * (every call made in one burst of microtasks shares a message) and are
 * settled by the results that come back, in call order. The worker keeps the
 * process alive only while a call is waiting. When the worker stops, every
 * waiting and later call fails with `STORE_UNAVAILABLE`; after
 * {@link WorkerChannel.close}, with `CLOSED`.
 */
import type { Worker } from "node:worker_threads";
import { RuntimeError } from "../../errors.js";
import type { Logger } from "../../logger.js";
import { receiveError, type FromWorker, type LogRecord, type ToWorker, type WorkerCall } from "./worker-messages.js";

interface Pending {
  resolve(value: unknown): void;
  reject(err: Error): void;
}

/** Who a channel serves, for its errors and log lines. */
export interface WorkerChannelNames {
  /** The store class, e.g. `WorkerSqliteRunStore`. */
  readonly store: string;
  /** What the worker opened, e.g. its database file. */
  readonly path: string;
  /** What is gone when the worker stops, e.g. `the run store`. */
  readonly role: string;
}

/** Calls to a started worker that has opened its store (see `startWorker`). */
export class WorkerChannel<Method extends string = string> {
  private readonly pending = new Map<number, Pending>();
  private queue: WorkerCall[] = [];
  private nextId = 0;
  /** Set once the channel is closed or its worker stopped: the error every later call fails with. */
  private unusable: RuntimeError | undefined;
  private closing: Promise<void> | undefined;

  constructor(
    private readonly worker: Worker,
    private readonly names: WorkerChannelNames,
    private readonly logger: Logger,
  ) {
    worker.on("message", (message: FromWorker) => this.receive(message));
    worker.on("error", (err) => this.stop(`failed: ${err.message}`));
    worker.on("exit", (code) => this.stop(`exited with code ${code}`));
    worker.unref();
  }

  /** Calls `method` of the worker's store. */
  call(method: Method, args: unknown[]): Promise<unknown> {
    if (this.unusable !== undefined) return Promise.reject(this.unusable);
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, { resolve, reject });
      if (this.queue.push([id, method, args]) === 1) queueMicrotask(() => this.flush());
    });
  }

  /** Lets the calls already made finish, closes the store and ends the worker. Idempotent. */
  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    const stopped = this.unusable !== undefined;
    this.unusable = new RuntimeError("CLOSED", `${this.names.store} is closed`);
    if (stopped) return;
    this.flush();
    const ended = new Promise<void>((resolve) => {
      this.worker.on("message", (message: FromWorker) => message.type === "closed" && resolve());
      this.worker.once("exit", () => resolve());
    });
    this.worker.ref();
    this.post({ type: "close" });
    await ended;
    await this.worker.terminate();
  }

  /** Sends the queued calls; one that cannot be cloned fails alone with `INVALID_ARGUMENT`. */
  private flush(): void {
    const calls = this.queue;
    if (calls.length === 0) return;
    this.queue = [];
    try {
      this.post({ type: "calls", calls });
    } catch {
      for (const call of calls) {
        try {
          this.post({ type: "calls", calls: [call] });
        } catch (err) {
          this.settle(call[0], (p) =>
            p.reject(
              new RuntimeError(
                "INVALID_ARGUMENT",
                `${call[1]} got a value that cannot be stored: ${(err as Error).message}`,
              ),
            ),
          );
        }
      }
    }
  }

  private post(message: ToWorker): void {
    this.worker.postMessage(message);
  }

  private receive(message: FromWorker): void {
    if (message.type === "results") {
      for (const record of message.logs) logTo(this.logger, record);
      for (const [id, ok, value] of message.results)
        this.settle(id, (p) => (ok ? p.resolve(value) : p.reject(receiveError(value))));
    } else if (message.type === "log") logTo(this.logger, message);
  }

  private settle(id: number, done: (pending: Pending) => void): void {
    const pending = this.pending.get(id);
    if (pending === undefined) return;
    this.pending.delete(id);
    if (this.pending.size === 0 && this.closing === undefined) this.worker.unref();
    done(pending);
  }

  /** The worker is gone: every waiting call fails, and so does every later one. */
  private stop(why: string): void {
    const { store, path, role } = this.names;
    const error = new RuntimeError("STORE_UNAVAILABLE", `${store} worker for ${path} ${why}`);
    if (this.unusable === undefined) {
      this.unusable = error;
      this.logger.error({ path }, `${error.message}; ${role} is unavailable`);
    }
    this.queue = [];
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const pending of waiting) pending.reject(error);
  }
}

/** Hands a worker's log line to the caller's logger. */
export function logTo(logger: Logger, { level, obj, msg }: LogRecord): void {
  logger[level](obj, msg);
}
