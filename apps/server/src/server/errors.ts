/**
 * Typed errors of the server's composition root and CLI.
 */

import { DeerflowError } from "@deerflow/kernel";

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
export class ServerStartError extends DeerflowError<ServerStartErrorCode> {
  static override readonly brand: symbol = Symbol.for("@deerflow/server/server-error");
  override name = "ServerStartError";
}
