/**
 * Host paths of custom skills, their history files and public skills. Every
 * helper runs the storage name check first, so no untrusted name is ever joined
 * into a path unchecked.
 */
import path from "node:path";
import { SKILL_FILE_NAME } from "../limits.js";
import { normalizeSkillName } from "./skill-name.js";

/** Name of the hidden folder under the custom root that holds history files. */
const HISTORY_DIRECTORY_NAME = ".history";

/**
 * Directory of a custom skill: `<customRoot>/<name>`.
 *
 * @param customRoot - the custom skills root.
 * @param name - the skill name (checked).
 * @returns the absolute directory path.
 * @throws SkillsError `INVALID_NAME` for a name that is not hyphen-case.
 */
export function customSkillDir(customRoot: string, name: string): string {
  return path.join(path.resolve(customRoot), normalizeSkillName(name));
}

/**
 * SKILL.md of a custom skill: `<customRoot>/<name>/SKILL.md`.
 *
 * @param customRoot - the custom skills root.
 * @param name - the skill name (checked).
 * @returns the absolute file path.
 * @throws SkillsError `INVALID_NAME` for a name that is not hyphen-case.
 */
export function customSkillFile(customRoot: string, name: string): string {
  return path.join(customSkillDir(customRoot, name), SKILL_FILE_NAME);
}

/**
 * History file of a custom skill: `<customRoot>/.history/<name>.jsonl`.
 *
 * @param customRoot - the custom skills root.
 * @param name - the skill name (checked).
 * @returns the absolute file path.
 * @throws SkillsError `INVALID_NAME` for a name that is not hyphen-case.
 */
export function skillHistoryFile(customRoot: string, name: string): string {
  return path.join(path.resolve(customRoot), HISTORY_DIRECTORY_NAME, `${normalizeSkillName(name)}.jsonl`);
}

/**
 * SKILL.md of a built-in skill: `<publicRoot>/<name>/SKILL.md`.
 *
 * @param publicRoot - the public (read-only) skills root.
 * @param name - the skill name (checked).
 * @returns the absolute file path.
 * @throws SkillsError `INVALID_NAME` for a name that is not hyphen-case.
 */
export function publicSkillFile(publicRoot: string, name: string): string {
  return path.join(path.resolve(publicRoot), normalizeSkillName(name), SKILL_FILE_NAME);
}
