/**
 * The rule of a login-failure counter, shared by the memory and SQLite stores
 * (the PostgreSQL store writes the same rule as one upsert):
 *
 * - A failure after the counter lapsed (`resetAt`) starts a new window of
 *   `windowMs` with one failure.
 * - Otherwise it adds one; reaching `maxFailures` while not locked locks the
 *   key for `lockMs` from now, and the counter then lapses when the lock ends.
 * - Failures during a lock are counted but do not extend it, so a stream of
 *   attempts cannot keep a shared key (an office's IP) locked forever.
 */
import type { LoginFailurePolicy, LoginFailureState } from "./account-store.js";

/** A stored counter; times in epoch milliseconds. */
export interface FailureCounter {
  failures: number;
  lockedUntil: number | null;
  /** When the counter lapses: the end of its window, or of its lock. */
  resetAt: number;
}

/** The counter after one more failure at `now`. */
export function nextFailureCounter(
  counter: FailureCounter | undefined,
  policy: LoginFailurePolicy,
  now: number,
): FailureCounter {
  const next: FailureCounter =
    counter === undefined || now >= counter.resetAt
      ? { failures: 1, lockedUntil: null, resetAt: now + policy.windowMs }
      : { ...counter, failures: counter.failures + 1 };
  if (next.lockedUntil === null && next.failures >= policy.maxFailures) {
    next.lockedUntil = now + policy.lockMs;
    next.resetAt = next.lockedUntil;
  }
  return next;
}

/** The public state of a counter. */
export function failureState(counter: FailureCounter): LoginFailureState {
  return {
    failures: counter.failures,
    lockedUntil: counter.lockedUntil === null ? null : new Date(counter.lockedUntil).toISOString(),
  };
}

/** The end of the counter's lock as ISO-8601, or `null` when it is not locked at `now`. */
export function lockedUntilAt(counter: FailureCounter | undefined, now: number): string | null {
  return counter?.lockedUntil != null && now < counter.lockedUntil ? new Date(counter.lockedUntil).toISOString() : null;
}
