/**
 * Typed errors of the server's composition root and CLI.
 */

const DEERFLOW_ERROR = Symbol.for("@deerflow/error");
const SERVER_ERROR = Symbol.for("@deerflow/server/server-error");

/** Stable codes of {@link ServerStartError}. */
export type ServerStartErrorCode =
  /** A `DEERFLOW_*` / `LOG_LEVEL` environment variable has an invalid value. */
  | "SERVER_ENV_INVALID"
  /** Bad command-line arguments (`deerflow-server --help` lists the valid ones). */
  | "SERVER_USAGE"
  /** A runtime component (run store, stream bridge, coordinator, checkpointer) could not be created or reached. */
  | "SERVER_COMPONENT_FAILED";

/**
 * Error thrown while starting the server; the message names the variable,
 * argument or component at fault (never a secret).
 *
 * @example
 * ```ts
 * try { await createServer(loaded); }
 * catch (err) { if (ServerStartError.isInstance(err)) logger.error({ code: err.code }, err.message); }
 * ```
 */
export class ServerStartError extends Error {
  /** Stable machine-readable code. */
  readonly code: ServerStartErrorCode;

  /**
   * @param code - stable code
   * @param message - what went wrong
   * @param options - cause
   */
  constructor(code: ServerStartErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ServerStartError";
    this.code = code;
    Object.defineProperty(this, DEERFLOW_ERROR, { value: true });
    Object.defineProperty(this, SERVER_ERROR, { value: true });
  }

  /** Brand check that survives duplicate module copies (unlike `instanceof`). */
  static isInstance(value: unknown): value is ServerStartError {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[SERVER_ERROR] === true;
  }
}
