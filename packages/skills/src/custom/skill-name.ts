/**
 * The storage-layer skill name check. It is stricter than the frontmatter
 * validator (no leading, trailing or doubled hyphens) and it is the only way a
 * name becomes part of a host path, so `../../escaped` can never reach `path.join`.
 */
import { SkillsError } from "../errors.js";
import { MAX_SKILL_NAME_LENGTH } from "../limits.js";

/** Hyphen-case: lowercase alphanumeric words joined by single hyphens. */
const STORAGE_SKILL_NAME_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** DeerFlow's message for a name that is not hyphen-case. */
const SKILL_NAME_FORMAT_MESSAGE = "Skill name must be hyphen-case using lowercase letters, digits, and hyphens only.";
/** DeerFlow's message for a name longer than {@link MAX_SKILL_NAME_LENGTH}. */
const SKILL_NAME_LENGTH_MESSAGE = `Skill name must be ${MAX_SKILL_NAME_LENGTH} characters or fewer.`;

/**
 * Trims and checks a skill name the way DeerFlow's storage layer does.
 *
 * @param name - the requested name (untrusted: from a tool call or a URL).
 * @returns the trimmed, valid name.
 * @throws SkillsError `INVALID_NAME` with DeerFlow's message when the name is
 *   not hyphen-case or is longer than 64 characters.
 * @example
 * ```ts
 * normalizeSkillName("  my-skill ");   // "my-skill"
 * normalizeSkillName("../../escaped"); // throws INVALID_NAME (hyphen-case)
 * ```
 */
export function normalizeSkillName(name: unknown): string {
  const trimmed = typeof name === "string" ? name.trim() : "";
  if (!STORAGE_SKILL_NAME_PATTERN.test(trimmed)) {
    throw new SkillsError("INVALID_NAME", SKILL_NAME_FORMAT_MESSAGE, {
      details: { name: typeof name === "string" ? name : null },
    });
  }
  if (trimmed.length > MAX_SKILL_NAME_LENGTH) {
    throw new SkillsError("INVALID_NAME", SKILL_NAME_LENGTH_MESSAGE, { details: { name: trimmed } });
  }
  return trimmed;
}

/**
 * Non-throwing form of {@link normalizeSkillName}.
 *
 * @param name - the candidate name.
 * @returns true when the trimmed name passes the storage check.
 */
export function isValidSkillName(name: unknown): boolean {
  try {
    normalizeSkillName(name);
    return true;
  } catch {
    return false;
  }
}
