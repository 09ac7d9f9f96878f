/**
 * First-in, first-out execution of async tasks: one runs at a time, in call
 * order. Used for per-sandbox request serialisation (the remote client),
 * per-key critical sections (acquire/release/destroy of one sandbox) and the
 * tools' per-file write lock.
 */
import { SandboxError } from "../errors.js";

function abortedError(): SandboxError {
  return new SandboxError("ABORTED", "The operation was aborted");
}

/** Runs tasks one at a time, in the order they were queued. */
export class SerialQueue {
  #tail: Promise<void> = Promise.resolve();
  #pending = 0;
  readonly #onIdle: (() => void) | undefined;

  /** @param onIdle - Called whenever the last queued task has finished. */
  constructor(onIdle?: () => void) {
    this.#onIdle = onIdle;
  }

  /** Tasks queued or running. */
  get size(): number {
    return this.#pending;
  }

  /**
   * Queues `task`. If `signal` aborts while the task is still waiting, the
   * returned promise rejects with `ABORTED` at once and the task never runs;
   * the tasks behind it still wait for the ones in front (order is kept).
   * Once started, the task alone decides how to react to the signal.
   *
   * @param task - The work.
   * @param signal - Optional cancellation while queued.
   * @returns What `task` resolves to.
   * @throws SandboxError `ABORTED` when cancelled while queued.
   */
  run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    this.#pending++;
    const previous = this.#tail;
    let release!: () => void;
    this.#tail = new Promise<void>((resolve) => {
      release = resolve;
    });
    const finish = (): void => {
      this.#pending--;
      release();
      if (this.#pending === 0) this.#onIdle?.();
    };
    if (signal?.aborted === true) {
      void previous.then(finish);
      return Promise.reject(abortedError());
    }
    return new Promise<T>((resolve, reject) => {
      const onAbort = (): void => reject(abortedError());
      signal?.addEventListener("abort", onAbort, { once: true });
      void previous.then(() => {
        signal?.removeEventListener("abort", onAbort);
        if (signal?.aborted === true) {
          finish();
          return;
        }
        let started: Promise<T>;
        try {
          started = task();
        } catch (err) {
          started = Promise.reject(err);
        }
        started.then(resolve, reject).finally(finish);
      });
    });
  }
}

/** One {@link SerialQueue} per key, dropped when idle. */
export class KeyedSerialQueue {
  readonly #queues = new Map<string, SerialQueue>();

  /**
   * Runs `task` after every task queued earlier under the same key.
   *
   * @param key - What to serialise on (a sandbox id).
   * @param task - The work.
   * @param signal - Optional cancellation while queued.
   * @returns What `task` resolves to.
   */
  run<T>(key: string, task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    let queue = this.#queues.get(key);
    if (queue === undefined) {
      const created = new SerialQueue(() => {
        if (this.#queues.get(key) === created) this.#queues.delete(key);
      });
      queue = created;
      this.#queues.set(key, queue);
    }
    return queue.run(task, signal);
  }

  /** Keys with queued or running tasks. */
  get size(): number {
    return this.#queues.size;
  }
}
