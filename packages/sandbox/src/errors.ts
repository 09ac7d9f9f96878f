/**
 * Typed errors of `@deerflow/sandbox`. Every error carries a stable
 * {@link SandboxErrorCode}; messages use **virtual** paths only, never host
 * paths, because they reach agents.
 *
 * @example
 * ```ts
 * try { await sandbox.readFile("/mnt/user-data/workspace/a.txt"); }
 * catch (err) { if (SandboxError.isInstance(err) && err.code === "NOT_FOUND") { ... } }
 * ```
 */

const DEERFLOW_ERROR = Symbol.for("@deerflow/error");
const SANDBOX_ERROR = Symbol.for("@deerflow/sandbox/error");

/** Stable error codes of this package. */
export type SandboxErrorCode =
  /** The path does not exist. */
  | "NOT_FOUND"
  /** A write to a read-only mount (`/mnt/skills`, read-only extra mounts). */
  | "READ_ONLY"
  /** `..` or a symlink would leave the mounted directory. */
  | "PATH_ESCAPE"
  /** The path is outside every allowed virtual prefix. */
  | "PATH_NOT_ALLOWED"
  /** A file or payload is over a size limit. */
  | "TOO_LARGE"
  /** A write would cross the thread's disk quota (bytes or entries). */
  | "QUOTA_EXCEEDED"
  /** A command or request ran out of time. */
  | "TIMEOUT"
  /** The operation was aborted through its `AbortSignal`. */
  | "ABORTED"
  | "NOT_A_DIRECTORY"
  | "IS_A_DIRECTORY"
  | "PERMISSION_DENIED"
  /** Bad arguments: env names, line ranges, patterns... */
  | "INVALID_ARGUMENT"
  /** Host execution refused: no isolation available and `allowHostBash` is off. */
  | "HOST_EXECUTION_DISABLED"
  /** The sandbox (or its remote service) cannot be reached or is gone. */
  | "UNAVAILABLE"
  /** Bad provider or mount configuration. */
  | "CONFIG_INVALID";

/** True for any error created by a `@deerflow/*` package. */
export function isDeerflowError(value: unknown): value is Error & { code: string } {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[DEERFLOW_ERROR] === true;
}

/** Base class of every error thrown by `@deerflow/sandbox`. */
export class SandboxError extends Error {
  readonly code: SandboxErrorCode;
  /** The virtual path concerned, when there is one. */
  readonly path: string | undefined;

  constructor(code: SandboxErrorCode, message: string, options?: { cause?: unknown; path?: string }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "SandboxError";
    this.code = code;
    this.path = options?.path;
    Object.defineProperty(this, DEERFLOW_ERROR, { value: true });
    Object.defineProperty(this, SANDBOX_ERROR, { value: true });
  }

  /** Brand check that survives duplicate package copies (unlike `instanceof`). */
  static isInstance(value: unknown): value is SandboxError {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[SANDBOX_ERROR] === true;
  }
}
