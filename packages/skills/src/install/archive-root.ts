/**
 * Finds the skill root inside an extracted archive. Archives come in two
 * shapes: one top-level folder holding SKILL.md (what `zip -r my-skill.skill
 * my-skill/` and `packSkillDirectory` make), or flat (SKILL.md at the top).
 * Finder and editor litter (`__MACOSX/`, `.DS_Store`, `._x`) is ignored.
 */
import { readdir } from "node:fs/promises";
import path from "node:path";
import { SkillsError } from "../errors.js";

/**
 * True for top-level names root detection ignores: `__MACOSX` and anything
 * starting with `.`.
 *
 * @param name - a top-level entry name.
 */
function isIgnoredArchiveTopLevelName(name: string): boolean {
  return name === "__MACOSX" || name.startsWith(".");
}

/**
 * Returns the skill root of an extracted archive.
 *
 * Ignoring `__MACOSX` and dot entries: nothing left is an error; exactly one
 * entry left that is a directory is the root; otherwise `extractDir` itself
 * is (a flat archive).
 *
 * @param extractDir - the directory the archive was extracted into.
 * @returns the absolute path of the skill root.
 * @throws SkillsError `ARCHIVE_INVALID` "Skill archive is empty".
 * @example
 * ```ts
 * const root = await detectArchiveRoot(tmp); // tmp/my-skill, or tmp for a flat archive
 * ```
 */
export async function detectArchiveRoot(extractDir: string): Promise<string> {
  const entries = (await readdir(extractDir, { withFileTypes: true })).filter(
    (e) => !isIgnoredArchiveTopLevelName(e.name),
  );
  if (entries.length === 0) throw new SkillsError("ARCHIVE_INVALID", "Skill archive is empty");
  const only = entries[0];
  if (entries.length === 1 && only !== undefined && only.isDirectory()) return path.join(extractDir, only.name);
  return extractDir;
}
