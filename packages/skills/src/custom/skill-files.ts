/**
 * Small file operations of the custom-skill store: optional text reads for
 * history, support-file removal and skill-directory removal.
 */
import { promises as fs } from "node:fs";
import { SkillsError } from "../errors.js";

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Reads a file as UTF-8 for a history record.
 *
 * @param file - the file to read.
 * @returns its text; `null` when it does not exist, is not a regular file or is
 *   not valid UTF-8 (a binary asset must never block the change being recorded).
 */
export async function readOptionalText(file: string): Promise<string | null> {
  let bytes: Buffer;
  try {
    const stat = await fs.stat(file);
    if (!stat.isFile()) return null;
    bytes = await fs.readFile(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return null;
    throw err;
  }
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

/**
 * Throws unless `target` is not a directory (it may be missing).
 *
 * @param target - the resolved support file path.
 * @param relativePath - the path as the caller gave it (for the message).
 * @throws SkillsError `INVALID_PATH` `"Supporting file path '<rel>' is a directory, not a file."`
 */
export async function ensureNotDirectory(target: string, relativePath: string): Promise<void> {
  let isDirectory = false;
  try {
    isDirectory = (await fs.stat(target)).isDirectory();
  } catch {
    isDirectory = false;
  }
  if (isDirectory) {
    throw new SkillsError("INVALID_PATH", `Supporting file path '${relativePath}' is a directory, not a file.`, {
      details: { path: relativePath },
    });
  }
}

/**
 * Removes a supporting file and returns its previous text.
 *
 * @param target - the resolved support file path.
 * @param relativePath - the path as the caller gave it (for messages).
 * @param skillName - the skill name (for messages).
 * @returns the previous UTF-8 text, or `null` for a binary file.
 * @throws SkillsError `FILE_NOT_FOUND` `"Supporting file '<rel>' not found for skill '<n>'."`,
 *   `INVALID_PATH` for a directory.
 */
export async function removeSupportFile(
  target: string,
  relativePath: string,
  skillName: string,
): Promise<string | null> {
  await ensureNotDirectory(target, relativePath);
  let exists = true;
  try {
    await fs.lstat(target);
  } catch {
    exists = false;
  }
  if (!exists) {
    throw new SkillsError("FILE_NOT_FOUND", `Supporting file '${relativePath}' not found for skill '${skillName}'.`, {
      details: { path: relativePath, name: skillName },
    });
  }
  const previous = await readOptionalText(target);
  await fs.unlink(target);
  return previous;
}

/**
 * Removes a skill directory. A directory that is itself a symlink (an
 * operator-linked package) is unlinked, never followed.
 *
 * @param dir - the skill directory.
 */
export async function removeSkillDirectory(dir: string): Promise<void> {
  let stat;
  try {
    stat = await fs.lstat(dir);
  } catch {
    return;
  }
  if (stat.isSymbolicLink()) await fs.unlink(dir);
  else await fs.rm(dir, { recursive: true, force: true });
}
