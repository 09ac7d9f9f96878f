/**
 * Writing files behind resolved virtual paths. Replacements are atomic (a
 * temp file in the same directory, then `rename`), so readers and concurrent
 * writers see one whole version; appends use `O_APPEND`. Parent directories
 * are created, then re-checked: a symlink planted while they were being
 * created must not redirect the write out of the mount.
 */
import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { SandboxError } from "../errors.js";
import { isDirectoryError, toSandboxError } from "../paths/fs-errors.js";
import type { ResolvedPath } from "../paths/mount-resolver.js";
import { openRegularFileWithin } from "../paths/safe-open.js";
import { ESCAPE_MESSAGE, isHostPathWithin } from "../paths/virtual-paths.js";

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
/** Mode of new files before the umask, as `fs.writeFile`. */
const NEW_FILE_MODE = 0o666;

/**
 * Replaces (or creates) a file atomically. An existing file keeps its mode.
 *
 * @param resolved - The target (resolved for writing).
 * @param data - Text (written as UTF-8) or bytes.
 * @throws {@link SandboxError} `IS_A_DIRECTORY`, `NOT_A_DIRECTORY` (a parent is a
 *   file), `PATH_ESCAPE`, `PERMISSION_DENIED`...; the old content survives any failure.
 */
export async function writeFileAtomic(resolved: ResolvedPath, data: string | Uint8Array): Promise<void> {
  try {
    const target = await prepareTarget(resolved);
    const existing = await fs.lstat(target).catch(() => undefined);
    if (existing?.isDirectory() === true) throw isDirectoryError(resolved.virtualPath);
    const mode = existing?.isFile() === true ? existing.mode & 0o7777 : undefined;
    const name = path.basename(target).slice(0, 100);
    const temp = path.join(path.dirname(target), `.${name}.${randomBytes(6).toString("hex")}.tmp`);
    try {
      const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW;
      const handle = await fs.open(temp, flags, mode ?? NEW_FILE_MODE);
      try {
        await handle.writeFile(data);
        // open() applies the umask; an existing file's exact mode is restored.
        if (mode !== undefined) await handle.chmod(mode);
      } finally {
        await handle.close();
      }
      await fs.rename(temp, target);
    } catch (err) {
      await fs.rm(temp, { force: true }).catch(() => undefined);
      throw err;
    }
  } catch (err) {
    throw toSandboxError(err, resolved.virtualPath, "file");
  }
}

/**
 * Appends to a file, creating it (and its parents) when missing.
 *
 * @param resolved - The target (resolved for writing).
 * @param data - Text (written as UTF-8) or bytes.
 * @throws {@link SandboxError} as {@link writeFileAtomic}; a symlink swapped in
 *   for the file is refused (`PATH_ESCAPE`) instead of followed.
 */
export async function appendToFile(resolved: ResolvedPath, data: string | Uint8Array): Promise<void> {
  try {
    const target = await prepareTarget(resolved);
    const handle = await openRegularFileWithin(target, "append", resolved.hostRoot);
    try {
      await handle.writeFile(data);
    } finally {
      await handle.close();
    }
  } catch (err) {
    throw toSandboxError(err, resolved.virtualPath, "file");
  }
}

/** Creates the parent directories and returns the target's host path under the real parent. */
async function prepareTarget(resolved: ResolvedPath): Promise<string> {
  if (resolved.hostPath === resolved.hostRoot) throw isDirectoryError(resolved.virtualPath);
  const parent = path.dirname(resolved.hostPath);
  await fs.mkdir(parent, { recursive: true });
  const realParent = await fs.realpath(parent);
  if (!isHostPathWithin(resolved.hostRoot, realParent)) {
    throw new SandboxError("PATH_ESCAPE", ESCAPE_MESSAGE, { path: resolved.virtualPath });
  }
  return path.join(realParent, path.basename(resolved.hostPath));
}
