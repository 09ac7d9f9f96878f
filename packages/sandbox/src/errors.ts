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

import { DeerflowError } from "@deerflow/kernel";

export { isDeerflowError } from "@deerflow/kernel";

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

/** Base class of every error thrown by `@deerflow/sandbox` (the file header says what it carries). */
export class SandboxError extends DeerflowError<SandboxErrorCode> {
  static override readonly brand: symbol = Symbol.for("@deerflow/sandbox/error");
  override name = "SandboxError";
  /** The virtual path concerned, when there is one. */
  readonly path: string | undefined;

  /**
   * @param code - stable code callers switch on.
   * @param message - message naming the virtual path (never a host path).
   * @param options - optional `cause` and the virtual `path`.
   */
  constructor(code: SandboxErrorCode, message: string, options?: { cause?: unknown; path?: string }) {
    super(code, message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.path = options?.path;
  }
}
