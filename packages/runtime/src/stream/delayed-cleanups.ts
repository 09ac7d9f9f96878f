/**
 * The delayed `cleanup` calls of a stream bridge: each waits on an unref'd
 * timer (a pending cleanup alone does not keep the process alive), and the
 * bridge's `close` cancels those still waiting.
 */
import { integerOption } from "./validate.js";

/** Delayed cleanups of one bridge. */
export class DelayedCleanups {
  private readonly timers = new Set<NodeJS.Timeout>();

  /**
   * The delay of one `cleanup` call in ms: 0 (at once) when absent.
   *
   * @throws RuntimeError `INVALID_ARGUMENT` for a negative or non-integer delay.
   */
  static delayOf(options: { delayMs?: number }): number {
    return integerOption("delayMs", options.delayMs, 0, 0, "INVALID_ARGUMENT");
  }

  /** Runs `task` after `delayMs`, unless {@link DelayedCleanups.cancelAll} comes first. */
  schedule(delayMs: number, task: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      task();
    }, delayMs);
    timer.unref();
    this.timers.add(timer);
  }

  /** Cancels every cleanup still waiting. */
  cancelAll(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
