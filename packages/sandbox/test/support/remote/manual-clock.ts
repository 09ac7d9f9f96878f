/**
 * A {@link Clock} tests move by hand: `sleep` advances time instantly and
 * interval tasks run only when `tick` is called.
 */
import type { Clock } from "../../../src/remote/client/clock.js";

/** Hand-driven clock. */
export class ManualClock implements Clock {
  /** Current time in ms. */
  time = 1_000_000;
  readonly #tasks = new Set<{ ms: number; task: () => void }>();

  now(): number {
    return this.time;
  }

  async sleep(ms: number): Promise<void> {
    this.time += ms;
  }

  every(ms: number, task: () => void): () => void {
    const entry = { ms, task };
    this.#tasks.add(entry);
    return () => this.#tasks.delete(entry);
  }

  /** Interval tasks registered and not cancelled. */
  get timers(): number {
    return this.#tasks.size;
  }

  /** Advances time by `ms` and runs every interval task once. */
  tick(ms: number): void {
    this.time += ms;
    for (const { task } of this.#tasks) task();
  }
}
