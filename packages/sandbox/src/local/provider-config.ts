/**
 * Validation of `LocalSandboxProvider` configuration: user and thread ids
 * (they become folder names) and operator-configured extra mounts.
 */
import { statSync } from "node:fs";
import path from "node:path";
import { SandboxError } from "../errors.js";
import { SKILLS_PATH, USER_DATA_ROOT } from "../limits.js";
import type { Mount } from "../mount.js";
import { isPathInside } from "@deerflow/kernel";
import { normalizeVirtualPath } from "../paths/virtual-paths.js";

/** Characters allowed in user and thread ids (`.` and `..` alone are refused too). */
const SANDBOX_ID_PATTERN = /^[A-Za-z0-9_.-]+$/;

/** Virtual prefixes the provider mounts itself; extra mounts may not overlap them. */
const RESERVED_VIRTUAL_PATHS: readonly string[] = [USER_DATA_ROOT, SKILLS_PATH];

/** An extra folder an operator exposes to every sandbox. */
export interface ExtraMountConfig {
  /** Absolute virtual path, outside `/mnt/user-data` and `/mnt/skills`. */
  readonly virtualPath: string;
  /** Absolute path of an existing host directory. */
  readonly hostPath: string;
  readonly readOnly: boolean;
}

/**
 * Checks a user or thread id before it becomes a folder name.
 *
 * @param kind - `user` or `thread` (names the id in the message).
 * @param value - The id.
 * @returns The id, unchanged.
 * @throws {@link SandboxError} `INVALID_ARGUMENT` for anything but `[A-Za-z0-9_.-]+`, `.` or `..`.
 */
export function validateSandboxIdPart(kind: "user" | "thread", value: string): string {
  if (typeof value !== "string" || !SANDBOX_ID_PATTERN.test(value) || value === "." || value === "..") {
    const shown = typeof value === "string" ? JSON.stringify(value.slice(0, 100)) : String(value);
    throw new SandboxError(
      "INVALID_ARGUMENT",
      `Invalid ${kind} id ${shown}: use letters, digits, '_', '.' and '-' only`,
    );
  }
  return value;
}

/**
 * Validates extra mounts and turns them into {@link Mount}s (host paths
 * resolved, virtual paths normalised).
 *
 * @param mounts - The configured mounts.
 * @returns The mounts to add to every sandbox.
 * @throws {@link SandboxError} `CONFIG_INVALID` naming the mount and the problem:
 *   a relative or `..`-bearing virtual path, one overlapping a reserved path or
 *   another mount's path exactly, a relative host path, or a host path that is
 *   not an existing directory.
 */
export function validateExtraMounts(mounts: readonly ExtraMountConfig[]): Mount[] {
  const seen = new Set<string>();
  return mounts.map((mount) => {
    const virtualPath = validateVirtualPath(mount.virtualPath);
    if (seen.has(virtualPath)) throw configError(`Duplicate mount path ${virtualPath}`);
    seen.add(virtualPath);
    if (typeof mount.hostPath !== "string" || !path.isAbsolute(mount.hostPath)) {
      throw configError(`Mount ${virtualPath}: host path must be absolute, got ${JSON.stringify(mount.hostPath)}`);
    }
    const hostPath = path.resolve(mount.hostPath);
    assertDirectory(hostPath, `Mount ${virtualPath}: host path`);
    if (typeof mount.readOnly !== "boolean") throw configError(`Mount ${virtualPath}: readOnly must be a boolean`);
    return { virtualPath, hostPath, readOnly: mount.readOnly };
  });
}

/**
 * Fails unless `hostPath` is an existing directory.
 *
 * @param hostPath - Absolute host path.
 * @param what - Names the setting in the message.
 * @throws {@link SandboxError} `CONFIG_INVALID`.
 */
export function assertDirectory(hostPath: string, what: string): void {
  let isDirectory = false;
  try {
    isDirectory = statSync(hostPath).isDirectory();
  } catch {
    throw configError(`${what} does not exist: ${hostPath}`);
  }
  if (!isDirectory) throw configError(`${what} is not a directory: ${hostPath}`);
}

function validateVirtualPath(raw: string): string {
  if (typeof raw !== "string" || !raw.startsWith("/")) {
    throw configError(`Mount path must be absolute, got ${JSON.stringify(raw)}`);
  }
  let virtualPath: string;
  try {
    virtualPath = normalizeVirtualPath(raw);
  } catch {
    throw configError(`Mount path must not contain '..' or NUL: ${JSON.stringify(raw)}`);
  }
  for (const reserved of RESERVED_VIRTUAL_PATHS) {
    if (isPathInside(virtualPath, reserved, { posix: true }) || isPathInside(reserved, virtualPath, { posix: true })) {
      throw configError(`Mount path ${virtualPath} overlaps the reserved path ${reserved}`);
    }
  }
  return virtualPath;
}

function configError(message: string): SandboxError {
  return new SandboxError("CONFIG_INVALID", message);
}
