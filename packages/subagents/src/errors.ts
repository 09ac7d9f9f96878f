/**
 * Typed errors for `@deerflow/subagents`.
 *
 * Every error thrown by this package is a {@link SubagentError} with a stable
 * {@link SubagentErrorCode}. Callers switch on `code`, never on message text.
 * The brand is a registry symbol shared by all `@deerflow/*` packages, so
 * {@link isDeerflowError} works across package copies and realms where
 * `instanceof` does not.
 *
 * @example
 * ```ts
 * try { registry.get("researcher"); }
 * catch (err) {
 *   if (SubagentError.isInstance(err) && err.code === "UNKNOWN_SUBAGENT") { ... }
 * }
 * ```
 */

const DEERFLOW_ERROR = Symbol.for("@deerflow/error");
const SUBAGENT_ERROR = Symbol.for("@deerflow/subagents/error");

/** Stable error codes of this package. */
export type SubagentErrorCode = "UNKNOWN_SUBAGENT" | "CONFIG_INVALID" | "MODEL_UNAVAILABLE";

/** True for any error created by a `@deerflow/*` package. */
export function isDeerflowError(value: unknown): value is Error & { code: string } {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[DEERFLOW_ERROR] === true;
}

/** Base class of every error thrown by `@deerflow/subagents`. */
export class SubagentError extends Error {
  /** Stable machine-readable code. */
  readonly code: SubagentErrorCode;
  /** Structured detail for callers and HTTP layers (never host paths). */
  readonly details: Readonly<Record<string, unknown>> | undefined;

  /**
   * @param code - stable code callers switch on
   * @param message - human-readable message naming the offending value
   * @param options - optional `cause` and structured `details`
   */
  constructor(code: SubagentErrorCode, message: string, options?: { cause?: unknown; details?: Record<string, unknown> }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "SubagentError";
    this.code = code;
    this.details = options?.details;
    Object.defineProperty(this, DEERFLOW_ERROR, { value: true });
    Object.defineProperty(this, SUBAGENT_ERROR, { value: true });
  }

  /** Brand check that survives duplicate package copies (unlike `instanceof`). */
  static isInstance(value: unknown): value is SubagentError {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[SUBAGENT_ERROR] === true;
  }
}
