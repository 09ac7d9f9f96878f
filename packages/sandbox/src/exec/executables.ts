/**
 * Finding the executables the runners depend on (`prlimit`, `setpriv`,
 * `bwrap`, `chown`, a shell). Lookups hit the filesystem once per process.
 */
import { accessSync, constants, statSync } from "node:fs";
import path from "node:path";

/** Directories searched when `PATH` lacks a tool (servers often run with a trimmed `PATH`). */
const SYSTEM_DIRS = ["/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"];

/** DeerFlow's shell preference. */
export const SHELL_CANDIDATES: readonly string[] = ["/bin/zsh", "/bin/bash", "/bin/sh"];

const cache = new Map<string, string | null>();

/**
 * Tells whether `file` is an executable regular file.
 *
 * @param file - an absolute path.
 */
function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Finds an executable by name on `PATH`, then in the usual system directories.
 *
 * @param name - a bare name such as `prlimit`, or an absolute path (checked as is).
 * @param searchPath - the `PATH` to search; defaults to this process's.
 * @returns the absolute path, or `undefined` when not found. Cached per name.
 */
export function findExecutable(name: string, searchPath: string | undefined = process.env["PATH"]): string | undefined {
  const key = `${name}\0${searchPath ?? ""}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit ?? undefined;
  let found: string | null = null;
  if (path.isAbsolute(name)) {
    found = isExecutableFile(name) ? name : null;
  } else {
    const dirs = [...(searchPath ?? "").split(path.delimiter).filter((d) => path.isAbsolute(d)), ...SYSTEM_DIRS];
    found = dirs.map((dir) => path.join(dir, name)).find(isExecutableFile) ?? null;
  }
  cache.set(key, found);
  return found ?? undefined;
}

/**
 * Picks the shell: `/bin/zsh`, then `/bin/bash`, then `/bin/sh`, then `sh` on
 * `PATH` (DeerFlow's order).
 *
 * @returns the shell's path, or `undefined` when none exists.
 */
export function findShell(): string | undefined {
  for (const candidate of SHELL_CANDIDATES) if (findExecutable(candidate) !== undefined) return candidate;
  return findExecutable("sh");
}

/**
 * Tells whether this process runs as root (so RLIMIT_NPROC would be ignored
 * and privileges must be dropped before running untrusted code).
 */
export function isRoot(): boolean {
  return typeof process.geteuid === "function" && process.geteuid() === 0;
}
