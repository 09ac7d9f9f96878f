/**
 * Bounding a wait on a backing service. A command a client holds while its
 * server is down (ioredis' offline queue) may wait for as long as the outage
 * lasts; racing it with a signal (`AbortSignal.timeout(ms)`) ends the wait,
 * not the command, which callers must therefore be able to see complete late.
 */

/**
 * Settles like `promise`, or rejects as soon as `signal` aborts (at once when
 * it already has) with `abortError`, by default the signal's reason. A late
 * rejection of `promise` is swallowed, never left unhandled.
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal, abortError?: unknown): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(abortError === undefined ? signal.reason : abortError);
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
