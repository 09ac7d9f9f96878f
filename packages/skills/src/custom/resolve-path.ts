/**
 * Symlink-following path resolution for targets that may not exist yet (the
 * equivalent of Python's `Path.resolve(strict=False)`). Containment of the
 * result is checked with the kernel's `isPathInside`.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { SkillsError } from "../errors.js";

// Linux gives up after 40 links (MAXSYMLINKS); so do we.
const MAX_SYMLINK_HOPS = 40;

function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}

/**
 * Resolves an absolute path, following every symlink that exists along it,
 * including a dangling link at the end. Components that do not exist are
 * appended as they are.
 *
 * @param target - the path to resolve (made absolute against the cwd).
 * @returns the canonical path the target refers to.
 * @throws SkillsError `INVALID_PATH` on a symlink loop.
 * @example
 * ```ts
 * // references/out -> /etc (a symlink)
 * await resolveRealPath("/skills/s/references/out/new.txt"); // "/etc/new.txt"
 * ```
 */
export async function resolveRealPath(target: string): Promise<string> {
  let pending = path.resolve(target);
  for (let hops = 0; hops <= MAX_SYMLINK_HOPS; hops++) {
    const resolved = await resolveOnce(pending);
    if (resolved.kind === "done") return resolved.path;
    pending = resolved.path;
  }
  throw new SkillsError("INVALID_PATH", "Too many levels of symbolic links.", {
    details: { path: path.basename(target) },
  });
}

type Step = { kind: "done"; path: string } | { kind: "retry"; path: string };

async function resolveOnce(target: string): Promise<Step> {
  try {
    return { kind: "done", path: await fs.realpath(target) };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ELOOP") {
      throw new SkillsError("INVALID_PATH", "Too many levels of symbolic links.", {
        cause: err,
        details: { path: path.basename(target) },
      });
    }
    if (!isMissing(err)) throw err;
  }
  // Something along the path is missing: find the deepest existing ancestor.
  const parent = path.dirname(target);
  const base = path.basename(target);
  if (parent === target) return { kind: "done", path: target };
  let stat;
  try {
    stat = await fs.lstat(target);
  } catch (err) {
    if (!isMissing(err)) throw err;
  }
  if (stat?.isSymbolicLink()) {
    // A dangling link: follow its text, which may point anywhere.
    const link = await fs.readlink(target);
    return { kind: "retry", path: path.resolve(parent, link) };
  }
  const realParent = await resolveRealPath(parent);
  return { kind: "done", path: path.join(realParent, base) };
}
