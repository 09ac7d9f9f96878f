/**
 * Time as the remote provider sees it, injectable so tests can drive the
 * readiness poll and the idle reaper without waiting.
 */

/** Time source and timers. */
export interface Clock {
  /** Milliseconds since some fixed origin (`Date.now()` for the system clock). */
  now(): number;
  /** Resolves after `ms` milliseconds. */
  sleep(ms: number): Promise<void>;
  /**
   * Calls `task` every `ms` milliseconds until the returned function is called.
   * The system clock's timer does not keep the process alive.
   */
  every(ms: number, task: () => void): () => void;
}

/** The real clock: `Date.now`, `setTimeout`, an unref'd `setInterval`. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  every: (ms, task) => {
    const timer = setInterval(task, ms);
    timer.unref();
    return () => clearInterval(timer);
  },
};
