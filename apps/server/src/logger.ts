/**
 * The structured logger every server component takes. It is pino's call shape
 * (`logger.warn({ ...fields }, "message")`), so the server's pino or Fastify
 * logger is passed in directly; library code never writes to the console.
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
