/**
 * Waiting helpers: a sleep that ends early on a wake-up call or an abort, used
 * by loops that poll a shared store but also hear about local changes.
 */

/** A set of sleepers that can all be woken at once. */
export class WakeSet {
  private readonly sleepers = new Set<() => void>();

  /** Wakes every current sleeper. */
  wakeAll(): void {
    for (const wake of [...this.sleepers]) wake();
  }

  /** Sleeps up to `ms`, or until {@link wakeAll} or the signal aborts. Never rejects. */
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const done = (): void => {
        clearTimeout(timer);
        this.sleepers.delete(done);
        signal?.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      timer.unref?.();
      this.sleepers.add(done);
      signal?.addEventListener("abort", done, { once: true });
    });
  }
}
