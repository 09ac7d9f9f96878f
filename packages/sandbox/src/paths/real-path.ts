/**
 * `realpath` for paths that may not exist yet. A write target usually does
 * not exist, and a plain `realpath` of its deepest existing ancestor misses a
 * dangling symlink at the first missing component (`link -> /etc/new-file`):
 * writing through it would create a file outside the mount. This resolver
 * follows such links itself.
 */
import fs from "node:fs/promises";
import path from "node:path";

/** Most symlinks followed in one resolution, as Linux's `MAXSYMLINKS`. */
const MAX_SYMLINK_HOPS = 40;

/** Thrown (as a Node-style error with code `ELOOP`) when symlinks form a cycle. */
function loopError(): NodeJS.ErrnoException {
  return Object.assign(new Error("Too many levels of symbolic links"), { code: "ELOOP" });
}

/**
 * Resolves every symlink along `hostPath`, including dangling ones, and
 * returns where an `open(..., O_CREAT)` of the path would land. Missing
 * components are appended literally once no link remains to follow.
 *
 * @param hostPath - An absolute host path.
 * @returns The absolute real path (no symlinks in any existing component).
 * @throws A Node error with code `ELOOP` for symlink cycles; other I/O errors
 *   (except `ENOENT`/`ENOTDIR`, which mean "stop resolving here") propagate.
 * @example
 * await realpathLoose("/srv/ws/link/new.txt"); // "/srv/ws/target/new.txt"
 */
export async function realpathLoose(hostPath: string): Promise<string> {
  return resolve(path.resolve(hostPath), { hops: 0 });
}

async function resolve(hostPath: string, state: { hops: number }): Promise<string> {
  try {
    return await fs.realpath(hostPath);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR") throw err;
  }
  const parent = path.dirname(hostPath);
  if (parent === hostPath) return hostPath;
  const realParent = await resolve(parent, state);
  const candidate = path.join(realParent, path.basename(hostPath));
  let stats;
  try {
    stats = await fs.lstat(candidate);
  } catch {
    // Missing (or under a non-directory): nothing left to follow.
    return candidate;
  }
  if (!stats.isSymbolicLink()) return candidate;
  state.hops += 1;
  if (state.hops > MAX_SYMLINK_HOPS) throw loopError();
  const target = await fs.readlink(candidate);
  return resolve(path.resolve(realParent, target), state);
}
