/**
 * Writes inside a skill directory, atomically (the kernel's `writeFileAtomic`:
 * temp file in the target's own directory, fsync, rename). The target is
 * resolved (symlinks followed) and must stay inside the skill directory, so a
 * planted link can never redirect a write outside it; rename replaces a link
 * rather than writing through it.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { SkillsError } from "../errors.js";
import { isPathInside, writeFileAtomic } from "@deerflow/kernel";
import { sandboxReadableMode } from "../internal/sandbox-permissions.js";
import { resolveRealPath } from "./resolve-path.js";

/** DeerFlow's message for a write target outside the skill directory. */
export const WRITE_ESCAPE_MESSAGE = "relative_path must resolve within the skill directory.";

async function makeAncestorsReadable(root: string, dir: string): Promise<void> {
  for (let current = dir; isPathInside(current, root); current = path.dirname(current)) {
    const stat = await fs.stat(current);
    const wanted = sandboxReadableMode(stat.mode, true);
    if ((stat.mode & 0o7777) !== wanted) await fs.chmod(current, wanted);
    if (current === root) break;
  }
}

/**
 * Writes UTF-8 text atomically to `target`, which must resolve strictly inside
 * `root`. Missing parent directories are created. An existing file keeps its
 * mode (made sandbox-readable); a new file gets 0644. The written file and its
 * ancestors up to `root` are made sandbox-readable; siblings are not touched.
 *
 * @param root - the boundary directory (the skill directory); must exist.
 * @param target - absolute path of the file to write.
 * @param content - the text (UTF-8) or bytes to write.
 * @returns the canonical path that was written.
 * @throws SkillsError `INVALID_PATH` (`"relative_path must resolve within the skill directory."`)
 *   when the target, following symlinks, is outside `root`.
 * @example
 * ```ts
 * await writeTextAtomic(skillDir, path.join(skillDir, "SKILL.md"), text);
 * ```
 */
export async function writeTextAtomic(root: string, target: string, content: string | Uint8Array): Promise<string> {
  const realRoot = await fs.realpath(root);
  const resolved = await resolveRealPath(target);
  if (!isPathInside(resolved, realRoot, { strict: true })) {
    throw new SkillsError("INVALID_PATH", WRITE_ESCAPE_MESSAGE, { details: { path: path.basename(target) } });
  }
  const dir = path.dirname(resolved);
  await fs.mkdir(dir, { recursive: true, mode: 0o755 });
  // Re-check after mkdir: a link swapped in meanwhile must not move the write.
  const realDir = await fs.realpath(dir);
  if (realDir !== dir || !isPathInside(realDir, realRoot)) {
    throw new SkillsError("INVALID_PATH", WRITE_ESCAPE_MESSAGE, { details: { path: path.basename(target) } });
  }
  await writeFileAtomic(resolved, content, { mode: (existing) => sandboxReadableMode(existing ?? 0o644, false) });
  await makeAncestorsReadable(realRoot, dir);
  return resolved;
}
