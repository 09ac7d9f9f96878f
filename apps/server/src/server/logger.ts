/**
 * The server's structured logger: pino writing one JSON object per line to
 * stdout (or a given stream). Fastify, the runtime and the agent all log
 * through it, so every record of a run carries the same fields.
 */
import { pino, type DestinationStream, type Logger as PinoLogger } from "pino";
import type { LogLevel } from "./deployment.js";

/** Options of {@link createServerLogger}. */
export interface ServerLoggerOptions {
  /** Minimum level. Default `info`. */
  readonly level?: LogLevel;
  /** Where the JSON lines go. Default stdout. */
  readonly destination?: DestinationStream;
}

/** The logger type of the server (a pino logger). */
export type ServerLogger = PinoLogger;

/**
 * Creates the server's pino logger. Records carry `name: "deerflow-server"`,
 * `pid` and `hostname`; errors under `err` are serialized with their stack.
 *
 * @param options - level and destination
 * @returns a pino logger
 * @example
 * ```ts
 * const logger = createServerLogger({ level: "debug" });
 * logger.info({ port: 2024 }, "listening");
 * ```
 */
export function createServerLogger(options: ServerLoggerOptions = {}): ServerLogger {
  const config = {
    name: "deerflow-server",
    level: options.level ?? "info",
    serializers: { err: pino.stdSerializers.err },
  };
  return options.destination === undefined ? pino(config) : pino(config, options.destination);
}
