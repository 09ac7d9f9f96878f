/**
 * First-in, first-out execution of async tasks: one runs at a time, in call
 * order, and a task still waiting can be cancelled without breaking the order.
 */

/** Options of {@link SerialQueue}. */
export interface SerialQueueOptions {
  /** Called whenever the last queued task has finished. */
  readonly onIdle?: () => void;
  /** What a task cancelled while queued rejects with. Default: the signal's reason. */
  readonly abortError?: (signal: AbortSignal) => unknown;
}

const signalReason = (signal: AbortSignal): unknown => signal.reason;

/**
 * Runs tasks one at a time, in the order they were queued.
 *
 * @example
 * ```ts
 * const queue = new SerialQueue();
 * await Promise.all([queue.run(first), queue.run(second)]); // second starts once first settled
 * ```
 */
export class SerialQueue {
  #tail: Promise<void> = Promise.resolve();
  #pending = 0;
  readonly #onIdle: (() => void) | undefined;
  readonly #abortError: (signal: AbortSignal) => unknown;

  /** @param options - idle callback and the error of a cancelled task. */
  constructor(options: SerialQueueOptions = {}) {
    this.#onIdle = options.onIdle;
    this.#abortError = options.abortError ?? signalReason;
  }

  /** Tasks queued or running. */
  get size(): number {
    return this.#pending;
  }

  /**
   * Queues `task`. If `signal` aborts while the task is still waiting, the
   * returned promise rejects at once (with `abortError`) and the task never
   * runs; the tasks behind it still wait for the ones in front (order is kept).
   * Once started, the task alone decides how to react to the signal.
   *
   * @param task - The work; a synchronous throw counts as a rejection.
   * @param signal - Optional cancellation while queued.
   * @returns What `task` resolves to; its rejection is passed through and does not block later tasks.
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
      return Promise.reject(this.#abortError(signal));
    }
    return new Promise<T>((resolve, reject) => {
      const onAbort = (): void => reject(this.#abortError(signal as AbortSignal));
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
