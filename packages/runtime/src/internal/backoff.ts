/**
 * Exponential backoff for calls to a backing service (Redis, PostgreSQL):
 * the delay before retry `n` is `min(maxDelayMs, baseDelayMs * 2^(n-1))`,
 * half of it fixed and half random ("equal jitter"), so many clients that lost
 * the same server do not reconnect in lock-step.
 */
import { sleep } from "@deerflow/kernel";

/** The kernel's abortable wait, re-exported for the stream modules. */
export { sleep };

/** How many times to try and how long to wait in between. */
export interface BackoffOptions {
  /** Total tries including the first (≥ 1). */
  readonly attempts: number;
  /** Delay before the first retry, in ms. */
  readonly baseDelayMs: number;
  /** Upper bound of any single delay, in ms. */
  readonly maxDelayMs: number;
}

/** Options of {@link retryWithBackoff}. */
export interface RetryOptions extends BackoffOptions {
  /** True for errors worth retrying (a lost connection); others are thrown at once. */
  isTransient(error: unknown): boolean;
  /** Stops waiting between tries; the last error is then thrown. */
  readonly signal?: AbortSignal | undefined;
  /** Called before each wait, e.g. to log the failure. */
  onRetry?(error: unknown, attempt: number, delayMs: number): void;
}

/**
 * The delay before retry number `attempt` (1 = the first retry).
 *
 * @param attempt - 1-based retry number.
 * @param options - base and cap of the delay.
 * @param random - source of jitter in [0, 1), injectable for tests.
 */
export function backoffDelay(
  attempt: number,
  options: Pick<BackoffOptions, "baseDelayMs" | "maxDelayMs">,
  random: () => number = Math.random,
): number {
  const exponent = Math.min(Math.max(attempt - 1, 0), 30);
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** exponent);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/**
 * Calls `fn` until it succeeds, a non-transient error occurs, the attempts are
 * spent or the signal aborts; then throws the last error unchanged (callers
 * wrap it in their own error code).
 *
 * @param fn - the operation; receives the 1-based attempt number.
 * @param options - attempts, delays and the transient-error predicate.
 */
export async function retryWithBackoff<T>(fn: (attempt: number) => Promise<T>, options: RetryOptions): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (error) {
      if (attempt >= options.attempts || aborted(options.signal) || !options.isTransient(error)) throw error;
      const delay = backoffDelay(attempt, options);
      options.onRetry?.(error, attempt, delay);
      await sleep(delay, options.signal);
      if (aborted(options.signal)) throw error;
    }
  }
}

// A function, not an inline check: TypeScript would keep `aborted` narrowed across the await.
function aborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}
