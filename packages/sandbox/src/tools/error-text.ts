/**
 * Turns failures into the `Error: …` texts DeerFlow's tools return. Expected
 * failures arrive as {@link SandboxError}s and map by code to per-tool texts;
 * anything else is an unexpected error whose message is scrubbed of host paths.
 */
import { SandboxError } from "../errors.js";
import type { Mount } from "../mount.js";
import { formatWriteFileFailure, truncateWriteFileError } from "./truncation.js";

/** The tool a failure happened in; selects the wording. */
export type ToolKind = "bash" | "ls" | "glob" | "grep" | "read_file" | "write_file" | "str_replace";

/** What each tool says in `Error: Unexpected error {verb}: …`. */
const UNEXPECTED_VERB: Record<Exclude<ToolKind, "write_file">, string> = {
  bash: "executing command",
  ls: "listing directory",
  glob: "searching paths",
  grep: "searching file contents",
  read_file: "reading file",
  str_replace: "replacing string",
};

/** Python's `PermissionError` family: DeerFlow words these per tool. */
const PERMISSION_CODES = new Set(["PERMISSION_DENIED", "PATH_NOT_ALLOWED", "PATH_ESCAPE"]);

/** Same lookbehinds as the host command policy: not after a word char, `:` or `:/` (URLs). */
const ABSOLUTE_PATH = /(?<![:\p{L}\p{N}_])(?<!:\/)\/[^\s"'`;&|<>()]+/gu;
const VIRTUAL_ROOT = /^\/mnt\//;

/**
 * Replaces host paths in a message: known mount host paths become their
 * virtual paths, any other absolute path outside `/mnt/` becomes `<host path>`.
 *
 * @param message - An error message that may name host files.
 * @param mounts - The sandbox's mounts, when known.
 * @returns A message safe to show the model.
 */
export function maskHostPaths(message: string, mounts: readonly Mount[] = []): string {
  return mapMountPaths(message, mounts).replace(ABSOLUTE_PATH, (path) =>
    VIRTUAL_ROOT.test(path) ? path : "<host path>",
  );
}

/**
 * Replaces the host path of each known mount (longest first, at a segment
 * boundary) with its virtual path; leaves every other text alone.
 *
 * @param message - Text that may name mounted host directories.
 * @param mounts - The sandbox's mounts.
 * @returns The text with virtual paths.
 */
function mapMountPaths(message: string, mounts: readonly Mount[]): string {
  let mapped = message;
  for (const mount of [...mounts].sort((a, b) => b.hostPath.length - a.hostPath.length)) {
    if (mount.hostPath.length <= 1) continue;
    mapped = mapped.replace(new RegExp(`${escapeRegExp(mount.hostPath)}(?=/|$|[^\\w.-])`, "g"), mount.virtualPath);
  }
  return mapped;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * `{Type}: {message}` for an unexpected error, the way Python prints
 * `f"{type(e).__name__}: {e}"`, with host paths masked.
 *
 * @param err - Anything thrown.
 * @param mounts - The sandbox's mounts, when known.
 * @returns e.g. `"TypeError: x is not a function"`.
 */
function describeError(err: unknown, mounts: readonly Mount[] = []): string {
  if (err instanceof Error) return maskHostPaths(`${err.name}: ${err.message}`, mounts);
  return maskHostPaths(`${typeof err}: ${String(err)}`, mounts);
}

/**
 * The text a tool returns for a failure of the sandbox call on `path`.
 * SandboxErrors map by code (`NOT_FOUND` → `File not found` / `Directory not found`,
 * `IS_A_DIRECTORY`, `NOT_A_DIRECTORY`, permission family, `READ_ONLY`); other
 * codes give `Error: {message}`; non-SandboxErrors give
 * `Error: Unexpected error {verb}: {Type}: {msg}` (`write_file`: `Error: Failed to
 * write file '{p}': {Type}: {msg}`, bounded to 2000 characters).
 *
 * @param kind - The tool.
 * @param err - What the sandbox threw.
 * @param path - The path as the model wrote it (empty for bash).
 * @param mounts - The sandbox's mounts, for host path masking.
 * @returns The `Error: …` text.
 */
export function toolErrorText(kind: ToolKind, err: unknown, path: string, mounts: readonly Mount[] = []): string {
  if (kind === "write_file") return writeFileErrorText(err, path, mounts);
  if (!SandboxError.isInstance(err))
    return `Error: Unexpected error ${UNEXPECTED_VERB[kind]}: ${describeError(err, mounts)}`;
  // SandboxError messages are virtual by contract; mapping known mounts is defence in depth.
  const message = mapMountPaths(err.message, mounts);
  if (kind === "bash") return `Error: ${message}`;
  const code = err.code;
  const searching = kind === "ls" || kind === "glob" || kind === "grep";
  if (searching) {
    if (code === "NOT_FOUND") return `Error: Directory not found: ${path}`;
    if (code === "NOT_A_DIRECTORY") return `Error: Path is not a directory: ${path}`;
    if (PERMISSION_CODES.has(code) || code === "READ_ONLY") return `Error: Permission denied: ${path}`;
    return `Error: ${message}`;
  }
  if (code === "NOT_FOUND" || code === "NOT_A_DIRECTORY") return `Error: File not found: ${path}`;
  if (code === "IS_A_DIRECTORY") return `Error: Path is a directory, not a file: ${path}`;
  if (kind === "read_file") {
    if (PERMISSION_CODES.has(code) || code === "READ_ONLY") return `Error: Permission denied reading file: ${path}`;
    return `Error: ${message}`;
  }
  // str_replace
  if (code === "READ_ONLY") return `Error: Write access to read-only mount is not allowed: ${path}`;
  if (PERMISSION_CODES.has(code)) return `Error: Permission denied accessing file: ${path}`;
  return `Error: ${message}`;
}

function writeFileErrorText(err: unknown, path: string, mounts: readonly Mount[]): string {
  if (SandboxError.isInstance(err)) {
    if (err.code === "READ_ONLY")
      return truncateWriteFileError(`Error: Write access to read-only mount is not allowed: ${path}`);
    if (PERMISSION_CODES.has(err.code))
      return truncateWriteFileError(`Error: Permission denied writing to file: ${path}`);
    if (err.code === "IS_A_DIRECTORY") return truncateWriteFileError(`Error: Path is a directory, not a file: ${path}`);
  }
  return formatWriteFileFailure(path, describeError(err, mounts));
}

/**
 * The text for a failure to obtain the sandbox: `Error: {message}` for a
 * SandboxError, else `Error: Unexpected error initializing sandbox: {Type}: {msg}`.
 *
 * @param err - What `getSandbox` threw.
 * @returns The `Error: …` text.
 */
export function sandboxInitErrorText(err: unknown): string {
  if (SandboxError.isInstance(err)) return `Error: ${err.message}`;
  return `Error: Unexpected error initializing sandbox: ${describeError(err)}`;
}
