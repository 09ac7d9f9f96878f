/**
 * A set of callbacks where one that throws cannot starve the others or the
 * coordinator's timers: its error is logged and the next handler still runs.
 */
import type { Logger } from "../logger.js";

/** Registered handlers of one event kind. */
export class HandlerRegistry<Args extends unknown[]> {
  private readonly handlers = new Set<(...args: Args) => void>();

  /**
   * @param event - Names the event in log lines.
   * @param logger - Receives handler errors.
   */
  constructor(
    private readonly event: string,
    private readonly logger: Logger,
  ) {}

  /** Number of registered handlers. */
  get size(): number {
    return this.handlers.size;
  }

  /** Registers `handler`; the returned function removes it (calling it again is harmless). */
  add(handler: (...args: Args) => void): () => void {
    // Wrapped so that registering the same function twice yields two independent registrations.
    const entry = (...args: Args): void => handler(...args);
    this.handlers.add(entry);
    return () => {
      this.handlers.delete(entry);
    };
  }

  /** Calls every handler registered now with `args`. */
  emit(...args: Args): void {
    for (const handler of [...this.handlers]) {
      try {
        handler(...args);
      } catch (err) {
        this.logger.error({ event: this.event, err }, `a ${this.event} handler threw`);
      }
    }
  }

  /** Drops every handler. */
  clear(): void {
    this.handlers.clear();
  }
}
