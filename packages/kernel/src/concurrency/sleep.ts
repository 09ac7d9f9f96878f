/**
 * A wait that an abort cuts short: retry loops (the runtime's backoff, the
 * agent's model-call retries) must not hold a cancelled run for a full delay.
 */

/**
 * Resolves after `ms`, or at once when `signal` aborts (never rejects). The
 * timer is unref'd: a pending retry alone does not keep the process alive.
 *
 * @param ms - the wait; ≤ 0 resolves at once
 * @param signal - cuts the wait short
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted === true || ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    timer.unref();
    signal?.addEventListener("abort", done, { once: true });
  });
}
