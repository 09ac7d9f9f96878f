/**
 * Promise-based wake-ups for subscribers of the in-memory bridge: a subscriber
 * parks on a {@link WaitList} and is resumed by the next publish, by its
 * heartbeat timer, or by its stop signal — never by polling.
 */

/** Why {@link WaitList.wait} returned. */
export type WaitOutcome = "wake" | "timeout" | "stop";

/** A set of parked subscribers. */
export class WaitList {
  private waiters = new Set<() => void>();

  /** Number of parked subscribers. */
  get size(): number {
    return this.waiters.size;
  }

  /**
   * Parks until {@link wakeAll}, `timeoutMs` elapses, or `signal` aborts.
   * The timer is unref'd so an idle subscription does not keep the process alive.
   */
  wait(timeoutMs: number, signal: AbortSignal): Promise<WaitOutcome> {
    if (signal.aborted) return Promise.resolve("stop");
    return new Promise((resolve) => {
      const finish = (outcome: WaitOutcome): void => {
        clearTimeout(timer);
        this.waiters.delete(onWake);
        signal.removeEventListener("abort", onStop);
        resolve(outcome);
      };
      const onWake = (): void => finish("wake");
      const onStop = (): void => finish("stop");
      const timer = setTimeout(() => finish("timeout"), timeoutMs);
      timer.unref();
      this.waiters.add(onWake);
      signal.addEventListener("abort", onStop, { once: true });
    });
  }

  /** Resumes every parked subscriber. */
  wakeAll(): void {
    if (this.waiters.size === 0) return;
    // Swap first: a woken subscriber that parks again joins the next round.
    const woken = this.waiters;
    this.waiters = new Set();
    for (const wake of woken) wake();
  }
}
