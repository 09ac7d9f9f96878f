/**
 * DeerFlow's `validate_skill_markdown_content`: strict validation of proposed
 * SKILL.md text, then the frontmatter name must equal the requested name.
 */
import { SkillsError } from "../errors.js";
import { MAX_ARCHIVE_FILE_BYTES, MAX_SKILL_FILE_BYTES } from "../limits.js";
import { validateSkillMarkdown, validationMessage } from "../parsing/validate.js";
import { normalizeSkillName } from "./skill-name.js";

/**
 * Validates SKILL.md text for the custom skill `name`.
 *
 * The name comparison runs after the full strict validation (not as one of its
 * issues), so the first message is exactly the one DeerFlow reports.
 *
 * @param name - the requested skill name (checked).
 * @param content - the proposed SKILL.md text.
 * @throws SkillsError `SKILL_TOO_LARGE` above {@link MAX_SKILL_FILE_BYTES}; `SKILL_INVALID`
 *   with the validator's message, or `"Frontmatter name '<p>' must match requested skill name '<n>'."`;
 *   `INVALID_NAME` for a bad name.
 * @example
 * ```ts
 * validateSkillContent("my-skill", "---\nname: other\ndescription: d\n---\n");
 * // throws SKILL_INVALID "Frontmatter name 'other' must match requested skill name 'my-skill'."
 * ```
 */
export function validateSkillContent(name: string, content: string): void {
  const requested = normalizeSkillName(name);
  const size = Buffer.byteLength(content, "utf8");
  if (size > MAX_SKILL_FILE_BYTES) {
    throw new SkillsError(
      "SKILL_TOO_LARGE",
      `SKILL.md is too large (${size} bytes). Maximum is ${MAX_SKILL_FILE_BYTES} bytes.`,
      {
        details: { size, max: MAX_SKILL_FILE_BYTES },
      },
    );
  }
  const result = validateSkillMarkdown(content, { requireDirectoryNameMatch: false });
  if (!result.ok) {
    throw new SkillsError("SKILL_INVALID", validationMessage(result), { details: { errors: result.errors } });
  }
  if (result.name !== requested) {
    throw new SkillsError(
      "SKILL_INVALID",
      `Frontmatter name '${result.name ?? ""}' must match requested skill name '${requested}'.`,
      {
        details: { expected: requested, actual: result.name ?? null },
      },
    );
  }
}

/**
 * Checks the size of a supporting file's text.
 *
 * @param relativePath - the support path (for the message).
 * @param content - the proposed text.
 * @throws SkillsError `SKILL_TOO_LARGE` above the per-file archive limit (64 MiB).
 */
export function checkSupportFileSize(relativePath: string, content: string): void {
  const size = Buffer.byteLength(content, "utf8");
  if (size > MAX_ARCHIVE_FILE_BYTES) {
    throw new SkillsError(
      "SKILL_TOO_LARGE",
      `Supporting file '${relativePath}' is too large (${size} bytes). Maximum is ${MAX_ARCHIVE_FILE_BYTES} bytes.`,
      {
        details: { path: relativePath, size, max: MAX_ARCHIVE_FILE_BYTES },
      },
    );
  }
}
