/** Timing helpers for the benchmarks: warm-up runs, then percentiles of N samples. */

/** Options of {@link sampleNs}. */
export interface SampleOptions {
  /** Untimed runs first, to warm caches, the JIT and connections. */
  readonly warmup: number;
  /** Timed runs. */
  readonly runs: number;
}

/**
 * Wall time of each of `runs` calls of `fn`, in nanoseconds, measured with
 * `process.hrtime.bigint()` after `warmup` untimed calls.
 *
 * @param fn - The work to time (awaited).
 * @param options - Warm-up and run counts.
 * @returns One sample per run, in run order.
 */
export async function sampleNs(fn: () => Promise<unknown>, options: SampleOptions): Promise<number[]> {
  for (let i = 0; i < options.warmup; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < options.runs; i++) {
    const start = process.hrtime.bigint();
    await fn();
    samples.push(Number(process.hrtime.bigint() - start));
  }
  return samples;
}

/**
 * Like {@link sampleNs} for several functions at once, called in alternation
 * (the order flipped every round), so that all of them are measured under the
 * same load: on a shared machine the load drifts between two separate series.
 *
 * @param fns - The work to time (each awaited on its own).
 * @param options - Warm-up and run counts, per function.
 * @returns One list of samples per function, in the order given.
 */
export async function sampleInterleavedNs(
  fns: readonly (() => Promise<unknown>)[],
  options: SampleOptions,
): Promise<number[][]> {
  for (let i = 0; i < options.warmup; i++) for (const fn of fns) await fn();
  const samples = fns.map(() => [] as number[]);
  for (let i = 0; i < options.runs; i++) {
    const order = i % 2 === 0 ? fns.map((_, k) => k) : fns.map((_, k) => fns.length - 1 - k);
    for (const k of order) {
      const start = process.hrtime.bigint();
      await (fns[k] as () => Promise<unknown>)();
      (samples[k] as number[]).push(Number(process.hrtime.bigint() - start));
    }
  }
  return samples;
}

/**
 * The `p`-th percentile (nearest rank) of a non-empty list: p50 is the median
 * of an odd-length list, p99 of 200 samples is the 198th smallest.
 *
 * @param values - Samples.
 * @param p - Percentile in (0, 100].
 * @returns The sample at that rank.
 */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) throw new RangeError("percentile of no samples");
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1] as number;
}

/** Formats nanoseconds with a readable unit. */
export function formatNs(ns: number): string {
  if (ns >= 1e9) return `${(ns / 1e9).toFixed(2)} s`;
  if (ns >= 1e6) return `${(ns / 1e6).toFixed(2)} ms`;
  if (ns >= 1e3) return `${(ns / 1e3).toFixed(2)} µs`;
  return `${ns.toFixed(0)} ns`;
}
