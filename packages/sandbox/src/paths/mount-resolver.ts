/**
 * Symlink-aware resolution of virtual paths to host paths. Lexical checks
 * (`..`, prefixes) come from `virtual-paths.ts`; this module adds what only
 * the filesystem can tell: where symlinks really lead, and whether that is
 * still inside the mount (and still writable).
 */
import fs from "node:fs/promises";
import path from "node:path";
import { SandboxError } from "../errors.js";
import type { Mount } from "../mount.js";
import { notFoundError, toSandboxError } from "./fs-errors.js";
import { realpathLoose } from "./real-path.js";
import {
  ESCAPE_MESSAGE,
  NOT_ALLOWED_MESSAGE,
  hostToVirtual,
  isHostPathWithin,
  matchMount,
  normalizeVirtualPath,
} from "./virtual-paths.js";

/** Whether the caller will only read, or also write. */
export type AccessMode = "read" | "write";

/** A virtual path resolved to the host. */
export interface ResolvedPath {
  /** The normalised virtual path (use it in messages). */
  readonly virtualPath: string;
  /** The mount covering the virtual path. */
  readonly mount: Mount;
  /** POSIX path relative to the mount's virtual root (`""` for the root). */
  readonly relative: string;
  /** Real host path: every existing symlink followed, the missing tail appended. */
  readonly hostPath: string;
  /** Real host path of the mount's root; `hostPath` is always inside it. */
  readonly hostRoot: string;
}

/**
 * Resolves virtual paths against a fixed list of mounts.
 *
 * @example
 * const resolver = new MountResolver(mounts);
 * const { hostPath } = await resolver.resolve("/mnt/user-data/workspace/a.txt", "write");
 */
export class MountResolver {
  /** The mounts, as given. */
  readonly mounts: readonly Mount[];
  private readonly realRoots = new Map<Mount, string>();

  /** @param mounts - The sandbox's mounts (absolute virtual and host paths). */
  constructor(mounts: readonly Mount[]) {
    this.mounts = mounts;
  }

  /**
   * Resolves a virtual path to the host.
   *
   * @param virtualPath - The path as the agent wrote it.
   * @param access - `write` also refuses read-only mounts, including a
   *   read-only mount reached through a symlink from a writable one.
   * @returns The resolution.
   * @throws {@link SandboxError} `PATH_ESCAPE` (`..` segment, or a symlink
   *   leaving the mount), `PATH_NOT_ALLOWED` (outside every mount), `READ_ONLY`
   *   (`Read-only file system: <path>`), `NOT_FOUND` (the mount's host directory is gone).
   */
  async resolve(virtualPath: string, access: AccessMode = "read"): Promise<ResolvedPath> {
    const normalized = normalizeVirtualPath(virtualPath);
    const match = matchMount(this.mounts, normalized);
    if (match === undefined) {
      throw new SandboxError("PATH_NOT_ALLOWED", NOT_ALLOWED_MESSAGE, { path: normalized });
    }
    if (access === "write" && match.mount.readOnly) throw readOnlyError(normalized);
    const hostRoot = await this.realRoot(match.mount, normalized);
    const lexical = match.relative === "" ? hostRoot : path.join(hostRoot, ...match.relative.split("/"));
    let hostPath: string;
    try {
      hostPath = await realpathLoose(lexical);
    } catch (err) {
      throw toSandboxError(err, normalized);
    }
    if (!isHostPathWithin(hostRoot, hostPath)) {
      throw new SandboxError("PATH_ESCAPE", ESCAPE_MESSAGE, { path: normalized });
    }
    if (access === "write" && (await this.ownerOf(hostPath))?.readOnly === true) throw readOnlyError(normalized);
    return { virtualPath: normalized, mount: match.mount, relative: match.relative, hostPath, hostRoot };
  }

  /**
   * The real host path of a mount's root (cached once it resolves).
   *
   * @param mount - One of {@link MountResolver.mounts}.
   * @param virtualPath - The path to name if the root is missing.
   * @returns The realpath of `mount.hostPath`.
   * @throws {@link SandboxError} `NOT_FOUND` when the host directory does not exist.
   */
  async realRoot(mount: Mount, virtualPath: string = mount.virtualPath): Promise<string> {
    const cached = this.realRoots.get(mount);
    if (cached !== undefined) return cached;
    let real: string;
    try {
      real = await fs.realpath(mount.hostPath);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") throw notFoundError(virtualPath, "path");
      throw toSandboxError(err, virtualPath);
    }
    this.realRoots.set(mount, real);
    return real;
  }

  /**
   * Maps a host path back to a virtual path, trying the mounts' configured
   * host paths and their real paths (longest root first).
   *
   * @param hostPath - An absolute host path.
   * @returns The virtual path, or `undefined` when no mount contains it.
   */
  toVirtual(hostPath: string): string | undefined {
    const candidates: Mount[] = [...this.mounts];
    for (const [mount, real] of this.realRoots) candidates.push({ ...mount, hostPath: real });
    return hostToVirtual(candidates, hostPath);
  }

  /** The mount whose real root most specifically contains a real host path. */
  private async ownerOf(realHostPath: string): Promise<Mount | undefined> {
    let owner: Mount | undefined;
    let ownerRoot = "";
    for (const mount of this.mounts) {
      let root: string;
      try {
        root = await this.realRoot(mount);
      } catch {
        continue;
      }
      if (isHostPathWithin(root, realHostPath) && root.length > ownerRoot.length) {
        owner = mount;
        ownerRoot = root;
      }
    }
    return owner;
  }
}

/** The READ_ONLY error for a virtual path. */
function readOnlyError(virtualPath: string): SandboxError {
  return new SandboxError("READ_ONLY", `Read-only file system: ${virtualPath}`, { path: virtualPath });
}
