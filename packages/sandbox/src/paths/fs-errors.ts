/**
 * Translation of Node filesystem errors into {@link SandboxError}s. Node's
 * messages embed host paths (`ENOENT: no such file or directory, open
 * '/srv/...'`), so the original error is never attached as `cause`: the
 * message names the virtual path only.
 */
import { SandboxError } from "../errors.js";
import { ESCAPE_MESSAGE } from "./virtual-paths.js";
import { OpenRefusedError } from "./open-refused-error.js";

/** What the failed operation expected at the path (chooses the NOT_FOUND wording). */
export type FsTarget = "file" | "directory" | "path";

/**
 * Builds the `SandboxError` for a failed filesystem call on `virtualPath`.
 * A `SandboxError` passes through unchanged.
 *
 * @param err - Whatever the filesystem call threw.
 * @param virtualPath - The virtual path the caller asked about.
 * @param target - Whether a file or a directory was expected.
 * @returns The error to throw.
 * @example
 * try { await fs.readFile(host); } catch (err) { throw toSandboxError(err, "/mnt/user-data/workspace/a", "file"); }
 */
export function toSandboxError(err: unknown, virtualPath: string, target: FsTarget = "path"): SandboxError {
  if (SandboxError.isInstance(err)) return err;
  const at = { path: virtualPath };
  if (err instanceof OpenRefusedError) {
    if (err.reason === "directory") return isDirectoryError(virtualPath);
    return new SandboxError("INVALID_ARGUMENT", `Not a regular file: ${virtualPath}`, at);
  }
  const code = errnoOf(err);
  switch (code) {
    case "ENOENT":
      return notFoundError(virtualPath, target);
    case "EISDIR":
      return isDirectoryError(virtualPath);
    case "ENOTDIR":
    case "EEXIST":
      return new SandboxError("NOT_A_DIRECTORY", `Path is not a directory: ${virtualPath}`, at);
    case "EACCES":
    case "EPERM":
      return new SandboxError("PERMISSION_DENIED", `Permission denied: ${virtualPath}`, at);
    case "EROFS":
      return new SandboxError("READ_ONLY", `Read-only file system: ${virtualPath}`, at);
    case "ELOOP":
      return new SandboxError("PATH_ESCAPE", ESCAPE_MESSAGE, at);
    case "EFBIG":
      return new SandboxError("TOO_LARGE", `File too large: ${virtualPath}`, at);
    case "ENOSPC":
    case "EDQUOT":
      return new SandboxError("TOO_LARGE", `No space left on device: ${virtualPath}`, at);
    case "ENAMETOOLONG":
      return new SandboxError("INVALID_ARGUMENT", `File name too long: ${virtualPath}`, at);
    default:
      return new SandboxError("UNAVAILABLE", `I/O error${code === undefined ? "" : ` (${code})`}: ${virtualPath}`, at);
  }
}

/**
 * The errno code of a Node filesystem error (`ENOENT`...), if it has one.
 *
 * @param err - Anything thrown.
 * @returns The code, or `undefined`.
 */
export function errnoOf(err: unknown): string | undefined {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === "string" ? code : undefined;
}

/**
 * The NOT_FOUND error for a virtual path, worded as DeerFlow's tools word it.
 *
 * @param virtualPath - The missing path.
 * @param target - `file` → "File not found", `directory` → "Directory not found".
 * @returns The error.
 */
export function notFoundError(virtualPath: string, target: FsTarget): SandboxError {
  const what = target === "file" ? "File not found" : target === "directory" ? "Directory not found" : "Path not found";
  return new SandboxError("NOT_FOUND", `${what}: ${virtualPath}`, { path: virtualPath });
}

/**
 * The IS_A_DIRECTORY error for a virtual path.
 *
 * @param virtualPath - The directory that was used as a file.
 * @returns The error.
 */
export function isDirectoryError(virtualPath: string): SandboxError {
  return new SandboxError("IS_A_DIRECTORY", `Path is a directory, not a file: ${virtualPath}`, { path: virtualPath });
}

/**
 * The NOT_A_DIRECTORY error for a virtual path.
 *
 * @param virtualPath - The file that was used as a directory.
 * @returns The error.
 */
export function notADirectoryError(virtualPath: string): SandboxError {
  return new SandboxError("NOT_A_DIRECTORY", `Path is not a directory: ${virtualPath}`, { path: virtualPath });
}
