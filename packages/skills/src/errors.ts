/**
 * Typed errors for `@deerflow/skills`.
 *
 * Every error thrown by this package is a {@link SkillsError} with a stable
 * {@link SkillsErrorCode}. Callers switch on `code`, never on message text.
 * The brand is a registry symbol shared by all `@deerflow/*` packages, so
 * {@link isDeerflowError} works across package copies and realms where
 * `instanceof` does not.
 *
 * @example
 * ```ts
 * try { await installSkillArchive(file, { customRoot }); }
 * catch (err) {
 *   if (SkillsError.isInstance(err) && err.code === "SKILL_ALREADY_EXISTS") { ... }
 * }
 * ```
 */

const DEERFLOW_ERROR = Symbol.for("@deerflow/error");

/** Stable error codes of this package. */
export type SkillsErrorCode =
  | "SKILL_NOT_FOUND"
  | "SKILL_ALREADY_EXISTS"
  | "SKILL_INVALID"
  | "SKILL_READ_ONLY"
  | "SKILL_TOO_LARGE"
  | "INVALID_NAME"
  | "INVALID_PATH"
  | "FILE_NOT_FOUND"
  | "ARCHIVE_INVALID"
  | "ARCHIVE_UNSAFE"
  | "ARCHIVE_TOO_LARGE"
  | "SECURITY_BLOCKED"
  | "SECURITY_SCAN_FAILED"
  | "HISTORY_NOT_FOUND"
  | "CONFIG_INVALID"
  | "CONFIG_NOT_FOUND";

/** True for any error created by a `@deerflow/*` package. */
export function isDeerflowError(value: unknown): value is Error & { code: string } {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[DEERFLOW_ERROR] === true;
}

/** Base class of every error thrown by `@deerflow/skills`. */
export class SkillsError extends Error {
  /** Stable machine-readable code. */
  readonly code: SkillsErrorCode;
  /** Structured detail for callers and HTTP layers (never host paths). */
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(code: SkillsErrorCode, message: string, options?: { cause?: unknown; details?: Record<string, unknown> }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "SkillsError";
    this.code = code;
    this.details = options?.details;
    Object.defineProperty(this, DEERFLOW_ERROR, { value: true });
    Object.defineProperty(this, SKILLS_ERROR, { value: true });
  }

  /** Brand check that survives duplicate package copies (unlike `instanceof`). */
  static isInstance(value: unknown): value is SkillsError {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[SKILLS_ERROR] === true;
  }
}

const SKILLS_ERROR = Symbol.for("@deerflow/skills/error");
