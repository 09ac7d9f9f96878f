/**
 * Typed errors of the configuration loader. Callers switch on `code`; the
 * message names the file, the exact key path and the problem, e.g.
 * `config.yaml: models[0].api_key: must be string`.
 */

import { DeerflowError } from "@deerflow/kernel";

/** Stable codes of {@link ServerConfigError}. */
export type ServerConfigErrorCode =
  /** An explicitly named config file (or extensions config) does not exist or cannot be read. */
  | "CONFIG_NOT_FOUND"
  /** The file is not valid YAML / JSON (the message carries line and column). */
  | "CONFIG_PARSE"
  /** A `$VAR` / `${VAR}` reference names an unset environment variable, or is malformed. */
  | "CONFIG_ENV"
  /** Schema violations or inconsistent values (every problem is listed). */
  | "CONFIG_INVALID";

/** One problem found in a config file. */
export interface ConfigProblem {
  /** Key path like `models[0].api_key`; `""` for the document itself. */
  readonly path: string;
  readonly message: string;
}

/**
 * Error thrown while loading `config.yaml` or `extensions_config.json`.
 *
 * @example
 * ```ts
 * try { await loadConfig(); }
 * catch (err) {
 *   if (ServerConfigError.isInstance(err) && err.code === "CONFIG_INVALID") for (const p of err.problems) log(p.path, p.message);
 * }
 * ```
 */
export class ServerConfigError extends DeerflowError<ServerConfigErrorCode> {
  static override readonly brand: symbol = Symbol.for("@deerflow/server/config-error");
  override name = "ServerConfigError";
  /** Every problem found (one entry for parse and environment errors). */
  readonly problems: readonly ConfigProblem[];

  /**
   * @param code - stable code
   * @param message - full message (one line per problem)
   * @param options - problems and cause
   */
  constructor(
    code: ServerConfigErrorCode,
    message: string,
    options: { problems?: readonly ConfigProblem[]; cause?: unknown } = {},
  ) {
    super(code, message, { cause: options.cause });
    this.problems = options.problems ?? [];
  }
}

/**
 * Builds a {@link ServerConfigError} whose message has one `label: path: message` line per problem.
 *
 * @param code - error code
 * @param label - file label, e.g. `config.yaml`
 * @param problems - at least one problem
 * @returns the error
 */
export function configError(
  code: ServerConfigErrorCode,
  label: string,
  problems: readonly ConfigProblem[],
  cause?: unknown,
): ServerConfigError {
  const lines = problems.map((p) => (p.path === "" ? `${label}: ${p.message}` : `${label}: ${p.path}: ${p.message}`));
  return new ServerConfigError(code, lines.join("\n"), { problems, ...(cause === undefined ? {} : { cause }) });
}
