/**
 * Minimal structured logger accepted by every component. It is the call shape
 * of pino (`logger.warn({ skill }, "message")`), so a Fastify or pino logger can
 * be passed in directly.
 */
export interface Logger {
  debug(obj: Record<string, unknown>, msg: string): void;
  info(obj: Record<string, unknown>, msg: string): void;
  warn(obj: Record<string, unknown>, msg: string): void;
  error(obj: Record<string, unknown>, msg: string): void;
}

const noop = (): void => {};

/** A logger that drops everything; the default when none is injected. */
export const silentLogger: Logger = { debug: noop, info: noop, warn: noop, error: noop };
