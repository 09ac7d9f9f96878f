/**
 * The structured logger every server component takes: pino's call shape
 * (`logger.warn({ ...fields }, "message")`), the same interface every
 * `@deerflow/*` package accepts, so the server's pino logger is passed in directly.
 */
export { silentLogger, type Logger } from "@deerflow/runtime";
