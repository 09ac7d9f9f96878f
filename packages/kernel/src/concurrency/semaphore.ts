/**
 * A FIFO counting semaphore: at most `limit` holders; waiters are served in
 * arrival order and leave the queue when their signal aborts.
 */

/** Releases a slot; calling it more than once is harmless. */
export type Release = () => void;

/**
 * FIFO counting semaphore.
 *
 * @example
 * ```ts
 * const slots = new Semaphore(3);
 * const results = await Promise.all(files.map((f) => slots.run(() => readFile(f))));
 * ```
 */
export class Semaphore {
  readonly #limit: number;
  #active = 0;
  readonly #waiters: Array<{ grant: (release: Release) => void }> = [];

  /**
   * @param limit - maximum concurrent holders (integer ≥ 1).
   * @throws RangeError when `limit` is not an integer ≥ 1.
   */
  constructor(limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`Semaphore limit must be an integer >= 1, got ${limit}`);
    this.#limit = limit;
  }

  /** Holders right now. */
  get active(): number {
    return this.#active;
  }

  /** Callers waiting for a slot. */
  get waiting(): number {
    return this.#waiters.length;
  }

  /**
   * Waits for a slot.
   *
   * @param signal - aborting it removes the caller from the queue.
   * @returns a release function.
   * @throws the signal's reason when aborted before a slot was granted.
   */
  acquire(signal?: AbortSignal): Promise<Release> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.#active < this.#limit) {
      this.#active += 1;
      return Promise.resolve(this.#releaser());
    }
    return new Promise<Release>((resolve, reject) => {
      const waiter = {
        grant: (release: Release) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(release);
        },
      };
      const onAbort = (): void => {
        const i = this.#waiters.indexOf(waiter);
        if (i >= 0) this.#waiters.splice(i, 1);
        reject(signal?.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#waiters.push(waiter);
    });
  }

  /**
   * Runs `task` in a slot and frees the slot when it settles (also when it
   * throws synchronously).
   *
   * @param task - the work.
   * @param signal - aborting it while waiting for a slot gives up the wait.
   * @returns what `task` resolves to; its rejection is passed through.
   */
  async run<T>(task: () => Promise<T> | T, signal?: AbortSignal): Promise<T> {
    const release = await this.acquire(signal);
    try {
      return await task();
    } finally {
      release();
    }
  }

  #releaser(): Release {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const next = this.#waiters.shift();
      // Hand the slot straight to the next waiter so a newcomer cannot jump the queue.
      if (next) next.grant(this.#releaser());
      else this.#active -= 1;
    };
  }
}
