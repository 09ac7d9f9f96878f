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

import { DeerflowError } from "@deerflow/kernel";

export { isDeerflowError } from "@deerflow/kernel";

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

/** Base class of every error thrown by `@deerflow/skills` (the file header says what it carries). */
export class SkillsError extends DeerflowError<SkillsErrorCode> {
  static override readonly brand: symbol = Symbol.for("@deerflow/skills/error");
  override name = "SkillsError";
}
