/**
 * Hands the writable mounts to the sandbox user.
 *
 * When the server runs as root, bubblewrap commands run as an unprivileged
 * uid (65534 by default) so that RLIMIT_NPROC applies and the command holds no
 * root-owned powers. That uid must be able to write the thread's writable
 * directories, including files the server itself created there (as root)
 * between two commands. Before each command, everything in those directories
 * still owned by root is therefore given to the sandbox uid. Files the sandbox
 * writes stay owned by that uid, which root can always read and write.
 *
 * `chown -R -h` (coreutils) walks the tree without following symlinks and
 * changes links themselves, so a symlink planted by an earlier command cannot
 * redirect the ownership change outside the mount; `--from` limits the change
 * to root-owned entries, leaving files of other users alone.
 */
import { createHash } from "node:crypto";
import type { Mount } from "../mount.js";
import { execFile } from "node:child_process";
import { silentLogger, type Logger } from "../logger.js";
import { findExecutable } from "./executables.js";

/** The user and group sandboxed commands run as. */
/** First uid of the range {@link perSandboxIdentity} draws from. */
export const PER_SANDBOX_UID_BASE = 200_000;
/** Size of that range. */
export const PER_SANDBOX_UID_SPAN = 1_000_000;

/**
 * One uid (and gid) per sandbox, derived from the host paths of its writable
 * mounts, so it is stable across commands and differs between threads.
 * RLIMIT_NPROC counts processes per uid: with a uid of its own, a fork bomb in
 * one thread cannot use up the process budget of the others. Two sandboxes
 * share a uid only on a hash collision in a range of one million.
 *
 * @param mounts - the sandbox's mounts.
 * @returns an identity in `[PER_SANDBOX_UID_BASE, PER_SANDBOX_UID_BASE + PER_SANDBOX_UID_SPAN)`.
 */
export function perSandboxIdentity(mounts: readonly Mount[]): SandboxIdentity {
  const key = mounts
    .filter((m) => !m.readOnly)
    .map((m) => m.hostPath)
    .sort()
    .join("\0");
  const uid = PER_SANDBOX_UID_BASE + (createHash("sha256").update(key).digest().readUInt32BE(0) % PER_SANDBOX_UID_SPAN);
  return { uid, gid: uid };
}

export interface SandboxIdentity {
  readonly uid: number;
  readonly gid: number;
}

/**
 * Drops directories nested in another listed directory (the outer walk covers them).
 *
 * @param dirs - absolute, resolved directories.
 * @returns the outermost directories, sorted.
 */
export function outermostDirectories(dirs: readonly string[]): string[] {
  const sorted = [...new Set(dirs)].sort();
  const out: string[] = [];
  for (const dir of sorted) {
    const last = out[out.length - 1];
    if (last !== undefined && (dir === last || dir.startsWith(last === "/" ? "/" : `${last}/`))) continue;
    out.push(dir);
  }
  return out;
}

/**
 * Gives root-owned entries of `dirs` (recursively) to the sandbox identity.
 * Failures are logged, not thrown: the command then runs and reports its own
 * permission errors.
 *
 * @param dirs - host directories of the writable mounts (resolved).
 * @param identity - the sandbox uid/gid.
 * @param options - `fromUid`: owner whose entries change (default 0);
 *   `logger` for failures.
 * @returns once `chown` finished.
 */
export async function adoptForSandbox(
  dirs: readonly string[],
  identity: SandboxIdentity,
  options: { readonly fromUid?: number; readonly logger?: Logger } = {},
): Promise<void> {
  const targets = outermostDirectories(dirs);
  const logger = options.logger ?? silentLogger;
  if (targets.length === 0) return;
  const chown = findExecutable("chown");
  if (chown === undefined) {
    logger.warn({}, "chown not found: writable mounts keep their owner and may not be writable by the sandbox user");
    return;
  }
  const args = ["-R", "-h", `--from=${options.fromUid ?? 0}`, `${identity.uid}:${identity.gid}`, "--", ...targets];
  await new Promise<void>((resolve) => {
    execFile(
      chown,
      args,
      { env: { PATH: "/usr/bin:/bin", LC_ALL: "C" }, maxBuffer: 1 << 20 },
      (err, _stdout, stderr) => {
        if (err !== null)
          logger.warn(
            { err: err.message, stderr: String(stderr).slice(0, 2000) },
            "could not hand writable mounts to the sandbox user",
          );
        resolve();
      },
    );
  });
}
