/**
 * Reading a graph's stream so that an abort can stop it cleanly. LangGraph
 * stops at its signal, but the step in progress and its checkpoint writes
 * still land afterwards; until they have, a rollback or the thread's next run
 * could be overtaken by a late write of this run. So the step being awaited
 * stays reachable, and {@link GraphSteps.stop} waits for it (bounded) before
 * closing the iterator.
 */
import { raceAbort } from "../internal/race-abort.js";

/** Rejection of a wait raced with the run's signal when the signal aborted first. */
export const ABORTED = Symbol("aborted");

/** The graph stream of one run, one step at a time. */
export class GraphSteps {
  private iterator: AsyncIterator<unknown> | undefined;
  private pending: Promise<unknown> | undefined;

  /** Starts reading `iterable`. */
  open(iterable: AsyncIterable<unknown>): void {
    this.iterator = iterable[Symbol.asyncIterator]();
  }

  /**
   * The next chunk of the stream, raced with `signal` (rejects with
   * {@link ABORTED} when it aborts first; the step itself goes on). Done
   * before {@link GraphSteps.open} and after {@link GraphSteps.stop}.
   */
  next(signal: AbortSignal): Promise<IteratorResult<unknown>> {
    // Not open, or stopped: nothing more comes.
    if (this.iterator === undefined) return Promise.resolve({ done: true, value: undefined });
    const next = this.iterator.next();
    this.pending = next;
    next.catch(() => {}); // after an abort nobody awaits it; its rejection is expected
    return raceAbort(next, signal, ABORTED);
  }

  /** The stream ended: no step is in progress. */
  finished(): void {
    this.pending = undefined;
  }

  /**
   * Waits, at most `graceMs`, for the step in progress and for `writes` (the
   * run's checkpoint writes in flight) to settle, then closes the iterator
   * without waiting. Resolves false when the grace period ran out first.
   */
  async stop(graceMs: number, writes: Promise<unknown> | undefined): Promise<boolean> {
    const pending = this.pending;
    const grace = delay(graceMs);
    let settled = false;
    const stepDone = pending?.then(
      () => undefined,
      () => undefined,
    );
    const quiet = Promise.all([stepDone, writes]).then(() => (settled = true));
    await Promise.race([quiet, grace.promise]);
    grace.cancel();
    const iterator = this.iterator;
    this.iterator = undefined;
    this.pending = undefined;
    if (iterator?.return) {
      try {
        void Promise.resolve(iterator.return()).catch(() => {});
      } catch {
        // a synchronous throw from return() changes nothing: the run is over
      }
    }
    return settled;
  }
}

function delay(ms: number): { promise: Promise<void>; cancel(): void } {
  let timer: NodeJS.Timeout | undefined;
  const promise = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
    timer.unref?.();
  });
  return { promise, cancel: () => clearTimeout(timer) };
}
