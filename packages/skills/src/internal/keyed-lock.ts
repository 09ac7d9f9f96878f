/**
 * An in-process async lock per key: tasks for one key run one at a time in
 * arrival order, tasks for different keys run concurrently.
 */

/**
 * Serialises async work per key (here: per skill name).
 *
 * @example
 * ```ts
 * const lock = new KeyedLock();
 * await Promise.all([lock.run("a", edit1), lock.run("a", edit2)]); // edit2 starts after edit1 settles
 * ```
 */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<void>>();

  /**
   * Runs `task` once every earlier task for `key` has settled.
   *
   * @param key - what to serialise on.
   * @param task - the work; its rejection is passed through and does not block later tasks.
   * @returns the task's result.
   */
  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const tail = new Promise<void>((resolve) => {
      release = resolve;
    });
    const chained = previous.then(() => tail);
    this.tails.set(key, chained);
    try {
      await previous;
      return await task();
    } finally {
      release();
      // Forget the key once nobody queued behind us, so the map does not grow.
      if (this.tails.get(key) === chained) this.tails.delete(key);
    }
  }

  /** Number of keys with queued or running work (for tests and metrics). */
  get size(): number {
    return this.tails.size;
  }
}
