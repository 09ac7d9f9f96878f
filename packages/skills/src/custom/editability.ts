/**
 * Which skills a store may change, with DeerFlow's exact messages: only custom
 * skills are editable; a built-in (public) name is read-only; anything else is
 * not found.
 */
import { promises as fs } from "node:fs";
import { SkillsError } from "../errors.js";
import { customSkillFile, publicSkillFile } from "./skill-paths.js";

/** DeerFlow's messages about editability and existence of custom skills. */
export const EDITABILITY_MESSAGES = {
  /** @param name - the skill name. @returns the read-only message for a built-in skill. */
  readOnly: (name: string): string =>
    `'${name}' is a built-in skill. Use the skill_manage tool to create your own version — it will shadow the built-in one.`,
  /** @param name - the skill name. @returns the message for an unknown action on a built-in name. */
  readOnlyAction: (name: string): string =>
    `'${name}' is a read-only skill (built-in or legacy shared). To customise it, create your own version with the same name.`,
  /** @param name - the skill name. @returns the not-found message. */
  notFound: (name: string): string => `Custom skill '${name}' not found.`,
  /** @param name - the skill name. @returns the already-exists message. */
  alreadyExists: (name: string): string => `Custom skill '${name}' already exists.`,
} as const;

/**
 * The `SKILL_NOT_FOUND` error for a custom skill.
 *
 * @param name - the skill name.
 * @returns the error with DeerFlow's message `"Custom skill '<n>' not found."`.
 */
export function customSkillNotFound(name: string): SkillsError {
  return new SkillsError("SKILL_NOT_FOUND", EDITABILITY_MESSAGES.notFound(name), { details: { name } });
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await fs.stat(file)).isFile();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return false;
    throw err;
  }
}

/**
 * Whether `<customRoot>/<name>/SKILL.md` exists.
 *
 * @param customRoot - the custom skills root.
 * @param name - the skill name (checked).
 * @returns true when the custom skill exists.
 * @throws SkillsError `INVALID_NAME` for a bad name.
 */
export async function customSkillExists(customRoot: string, name: string): Promise<boolean> {
  return isFile(customSkillFile(customRoot, name));
}

/**
 * Whether `<publicRoot>/<name>/SKILL.md` exists (false without a public root).
 *
 * @param publicRoot - the built-in skills root, if any.
 * @param name - the skill name (checked).
 * @returns true when a built-in skill of that name exists.
 * @throws SkillsError `INVALID_NAME` for a bad name.
 */
export async function publicSkillExists(publicRoot: string | undefined, name: string): Promise<boolean> {
  return publicRoot === undefined ? false : isFile(publicSkillFile(publicRoot, name));
}

/**
 * Throws unless a custom skill of that name exists.
 *
 * @param customRoot - the custom skills root.
 * @param publicRoot - the built-in skills root, if any.
 * @param name - the skill name (checked).
 * @throws SkillsError `SKILL_READ_ONLY` when only a built-in skill has that name,
 *   `SKILL_NOT_FOUND` when none does, `INVALID_NAME` for a bad name.
 */
export async function ensureCustomSkillEditable(
  customRoot: string,
  publicRoot: string | undefined,
  name: string,
): Promise<void> {
  if (await customSkillExists(customRoot, name)) return;
  if (await publicSkillExists(publicRoot, name)) {
    throw new SkillsError("SKILL_READ_ONLY", EDITABILITY_MESSAGES.readOnly(name), { details: { name } });
  }
  throw customSkillNotFound(name);
}
