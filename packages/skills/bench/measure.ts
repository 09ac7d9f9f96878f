/** Timing helpers for the benchmarks: warm-up runs, then the median of N. */

/** Options of {@link medianNs}. */
export interface MeasureOptions {
  /** Untimed runs first, to warm caches and the JIT. */
  readonly warmup: number;
  /** Timed runs; the median is reported. */
  readonly runs: number;
  /** Calls per timed run; the run's time is divided by it (for sub-microsecond work). */
  readonly batch?: number;
}

/**
 * Median wall time of `fn` in nanoseconds per call, measured with
 * `process.hrtime.bigint()`.
 *
 * @param fn - The work to time (awaited when it returns a promise).
 * @param options - Warm-up, runs and batch size.
 * @returns Nanoseconds per call (median over runs).
 */
export async function medianNs(fn: () => unknown, options: MeasureOptions): Promise<number> {
  const batch = options.batch ?? 1;
  for (let i = 0; i < options.warmup; i++) for (let j = 0; j < batch; j++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < options.runs; i++) {
    const start = process.hrtime.bigint();
    for (let j = 0; j < batch; j++) await fn();
    samples.push(Number(process.hrtime.bigint() - start) / batch);
  }
  return median(samples);
}

/** The median of a non-empty list. */
function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Formats nanoseconds with a readable unit. */
export function formatNs(ns: number): string {
  if (ns >= 1e9) return `${(ns / 1e9).toFixed(2)} s`;
  if (ns >= 1e6) return `${(ns / 1e6).toFixed(2)} ms`;
  if (ns >= 1e3) return `${(ns / 1e3).toFixed(2)} µs`;
  return `${ns.toFixed(0)} ns`;
}
