/**
 * Polls a readiness probe until it succeeds or a deadline passes.
 */
import type { Clock } from "./clock.js";

/** Options of {@link waitUntilReady}. */
export interface ReadinessOptions {
  /** Pause between probes. */
  readonly intervalMs: number;
  /** Give up after this long. */
  readonly timeoutMs: number;
  readonly clock: Clock;
}

/**
 * Calls `probe` until it resolves true; a probe that throws counts as "not yet".
 * The probe always runs at least once, and once more at the deadline.
 *
 * @param probe - E.g. `GET /v1/sandbox`.
 * @param options - Interval, total timeout, clock.
 * @returns True when ready, false when the deadline passed first.
 */
export async function waitUntilReady(probe: () => Promise<boolean>, options: ReadinessOptions): Promise<boolean> {
  const deadline = options.clock.now() + options.timeoutMs;
  for (;;) {
    const ready = await probe().catch(() => false);
    if (ready) return true;
    const remaining = deadline - options.clock.now();
    if (remaining <= 0) return false;
    await options.clock.sleep(Math.min(options.intervalMs, remaining));
  }
}
