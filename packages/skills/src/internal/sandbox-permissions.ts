/**
 * Makes an installed skill readable by the sandbox user, which is usually not
 * the user that installed it, while keeping it unwritable by anyone but the
 * owner (DeerFlow's `make_sandbox_readable`).
 */
import { chmod, lstat, readdir } from "node:fs/promises";
import path from "node:path";

/**
 * The sandbox-readable form of a mode: group/other write dropped, read (and
 * for directories, search) added for everyone, execute bits kept. Files:
 * `0o777` → `0o755`, `0o600` → `0o644`; directories: `0o700` → `0o755`.
 *
 * @param mode - the current mode (file type bits are ignored).
 * @param isDirectory - whether the mode belongs to a directory.
 */
export function sandboxReadableMode(mode: number, isDirectory: boolean): number {
  return (mode & 0o7777 & ~0o022) | (isDirectory ? 0o555 : 0o444);
}

/**
 * Applies {@link sandboxReadableMode} to `root` and
 * everything below it, hidden entries included. Symlinks are left alone (a
 * chmod would change their target).
 *
 * @param root - the directory to fix up.
 */
export async function makeSandboxReadable(root: string): Promise<void> {
  const info = await lstat(root);
  if (info.isSymbolicLink()) return;
  if (info.isDirectory()) {
    await chmod(root, sandboxReadableMode(info.mode, true));
    for (const name of await readdir(root)) await makeSandboxReadable(path.join(root, name));
  } else if (info.isFile()) {
    await chmod(root, sandboxReadableMode(info.mode, false));
  }
}
