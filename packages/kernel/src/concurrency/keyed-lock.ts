/**
 * An in-process FIFO mutex per key: tasks for one key run one at a time in
 * call order, tasks for different keys never wait on each other.
 */
import { SerialQueue } from "./serial-queue.js";

/** Options of {@link KeyedLock}. */
export interface KeyedLockOptions {
  /** What a task cancelled while queued rejects with. Default: the signal's reason. */
  readonly abortError?: (signal: AbortSignal) => unknown;
}

/**
 * A set of FIFO mutexes addressed by string keys. A key is forgotten as soon
 * as nobody holds or waits for it, so the map does not grow with the number of
 * keys ever used. In-process only: two processes are not serialised.
 *
 * @example
 * ```ts
 * const lock = new KeyedLock();
 * await Promise.all([lock.run("a", edit1), lock.run("a", edit2)]); // edit2 starts after edit1 settles
 * ```
 */
export class KeyedLock {
  readonly #queues = new Map<string, SerialQueue>();
  readonly #abortError: ((signal: AbortSignal) => unknown) | undefined;

  /** @param options - the error of a task cancelled while queued. */
  constructor(options: KeyedLockOptions = {}) {
    this.#abortError = options.abortError;
  }

  /**
   * Runs `task` after every task queued earlier under the same key.
   *
   * @param key - What to serialise on.
   * @param task - The work; its rejection is passed through and does not block later tasks.
   * @param signal - Optional cancellation while queued (see {@link SerialQueue.run}).
   * @returns What `task` resolves to.
   */
  run<T>(key: string, task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    let queue = this.#queues.get(key);
    if (queue === undefined) {
      const created = new SerialQueue({
        onIdle: () => {
          if (this.#queues.get(key) === created) this.#queues.delete(key);
        },
        ...(this.#abortError === undefined ? {} : { abortError: this.#abortError }),
      });
      queue = created;
      this.#queues.set(key, queue);
    }
    return queue.run(task, signal);
  }

  /** Keys with queued or running tasks (for tests and metrics). */
  get size(): number {
    return this.#queues.size;
  }
}
