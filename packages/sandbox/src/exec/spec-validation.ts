/**
 * Checks shared by every runner before anything is spawned. Messages name
 * virtual paths only: they reach agents.
 */
import { lstat, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { SandboxError } from "../errors.js";
import type { Mount } from "../mount.js";
import type { CommandSpec } from "./command-runner.js";
import { validateEnvironment } from "./environment.js";
import type { PathMapping } from "./path-rewrite.js";
import { validateLimits } from "./rlimits.js";

/** A mount whose host directory was resolved through symlinks. */
export interface ResolvedMount extends Mount {
  /** `realpath` of {@link Mount.hostPath}. */
  readonly realHostPath: string;
}

function isNormalAbsolute(p: string): boolean {
  return p.startsWith("/") && !p.includes("\0") && path.posix.normalize(p) === p && (p === "/" || !p.endsWith("/"));
}

/**
 * Validates a command spec.
 *
 * @param spec - the spec to check.
 * @throws SandboxError `INVALID_ARGUMENT` (command with NUL, bad env name,
 *   bad timeout/limits), `PATH_ESCAPE` (`..` in the working directory),
 *   `CONFIG_INVALID` (a mount that is not absolute and normalized).
 */
export function validateSpec(spec: CommandSpec): void {
  if (typeof spec.command !== "string" || spec.command.includes("\0")) {
    throw new SandboxError("INVALID_ARGUMENT", "Command must be a string without NUL bytes");
  }
  validateEnvironment(spec.env);
  if (!Number.isFinite(spec.timeoutMs) || spec.timeoutMs <= 0) {
    throw new SandboxError("INVALID_ARGUMENT", "timeoutMs must be a positive number");
  }
  if (!Number.isSafeInteger(spec.maxOutputBytes) || spec.maxOutputBytes < 0) {
    throw new SandboxError("INVALID_ARGUMENT", "maxOutputBytes must be a non-negative integer");
  }
  validateLimits(spec.limits);
  for (const mount of spec.mounts) {
    if (!isNormalAbsolute(mount.virtualPath) || mount.virtualPath === "/") {
      throw new SandboxError("CONFIG_INVALID", `Mount path must be absolute and normalized: ${mount.virtualPath}`);
    }
    if (!path.isAbsolute(mount.hostPath) || mount.hostPath.includes("\0")) {
      throw new SandboxError("CONFIG_INVALID", `Host directory of mount ${mount.virtualPath} must be an absolute path`);
    }
  }
  if (spec.cwd.split("/").includes("..")) {
    throw new SandboxError("PATH_ESCAPE", "Access denied: path traversal detected", { path: spec.cwd });
  }
  if (!isNormalAbsolute(path.posix.normalize(spec.cwd)) || spec.cwd.includes("\0")) {
    throw new SandboxError("INVALID_ARGUMENT", `Working directory must be an absolute path: ${spec.cwd}`, {
      path: spec.cwd,
    });
  }
}

/**
 * Resolves every mount's host directory.
 *
 * @param mounts - the spec's mounts.
 * @returns the mounts with `realHostPath`, in the given order.
 * @throws SandboxError `CONFIG_INVALID` when a host directory is missing or not a directory.
 */
export async function resolveMounts(mounts: readonly Mount[]): Promise<ResolvedMount[]> {
  return Promise.all(
    mounts.map(async (mount) => {
      try {
        const realHostPath = await realpath(mount.hostPath);
        if (!(await stat(realHostPath)).isDirectory()) throw new Error("not a directory");
        return { ...mount, realHostPath };
      } catch {
        // No `cause`: the fs error's message carries the host path.
        throw new SandboxError(
          "CONFIG_INVALID",
          `Host directory of mount ${mount.virtualPath} is missing or not a directory`,
          {
            path: mount.virtualPath,
          },
        );
      }
    }),
  );
}

/**
 * Rewriter mappings for resolved mounts: the real path first (used for
 * forward rewriting), then the configured spelling when it differs.
 *
 * @param mounts - resolved mounts.
 */
export function mountMappings(mounts: readonly ResolvedMount[]): PathMapping[] {
  return mounts.flatMap((m) => {
    const real = { virtualPath: m.virtualPath, hostPath: m.realHostPath };
    return m.hostPath === m.realHostPath
      ? [real]
      : [real, { virtualPath: m.virtualPath, hostPath: path.resolve(m.hostPath) }];
  });
}

/** The mount with the longest virtual prefix covering `virtualPath`. */
function coveringMount<T extends Mount>(mounts: readonly T[], virtualPath: string): T | undefined {
  let best: T | undefined;
  for (const m of mounts) {
    if (virtualPath !== m.virtualPath && !virtualPath.startsWith(`${m.virtualPath}/`)) continue;
    if (best === undefined || m.virtualPath.length > best.virtualPath.length) best = m;
  }
  return best;
}

/**
 * Checks that a virtual working directory lies in a mount and exists.
 *
 * @param mounts - resolved mounts.
 * @param cwd - the virtual working directory (already validated).
 * @param options - `followSymlinksOnHost`: resolve the directory on the host
 *   and require it to stay in its mount (host runner); otherwise a symlink is
 *   accepted as is, since inside bubblewrap it resolves in the sandbox's view.
 * @returns the host path of the working directory.
 * @throws SandboxError `PATH_NOT_ALLOWED`, `NOT_FOUND`, `NOT_A_DIRECTORY`, `PATH_ESCAPE`.
 */
export async function resolveWorkingDirectory(
  mounts: readonly ResolvedMount[],
  cwd: string,
  options: { readonly followSymlinksOnHost: boolean },
): Promise<string> {
  const virtual = path.posix.normalize(cwd);
  const mount = coveringMount(mounts, virtual);
  if (mount === undefined) {
    throw new SandboxError("PATH_NOT_ALLOWED", `Working directory is not inside a sandbox mount: ${cwd}`, {
      path: cwd,
    });
  }
  const hostPath = mount.realHostPath + virtual.slice(mount.virtualPath.length);
  try {
    if (options.followSymlinksOnHost) {
      const real = await realpath(hostPath);
      if (real !== mount.realHostPath && !real.startsWith(`${mount.realHostPath}/`)) {
        throw new SandboxError("PATH_ESCAPE", "Access denied: path escapes mounted directory", { path: cwd });
      }
      if (!(await stat(real)).isDirectory())
        throw new SandboxError("NOT_A_DIRECTORY", `Not a directory: ${cwd}`, { path: cwd });
      return real;
    }
    const info = await lstat(hostPath);
    if (!info.isDirectory() && !info.isSymbolicLink())
      throw new SandboxError("NOT_A_DIRECTORY", `Not a directory: ${cwd}`, { path: cwd });
    return hostPath;
  } catch (err) {
    if (SandboxError.isInstance(err)) throw err;
    throw new SandboxError("NOT_FOUND", `Working directory not found: ${cwd}`, { path: cwd });
  }
}
