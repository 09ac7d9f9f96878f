/**
 * `listDir` over mounts: absolute virtual entries, directories suffixed `/`,
 * ignored names and escaping symlinks left out, nested mounts overlaid (each
 * listed once, their contents taken from the nested mount), sorted. A virtual
 * directory that exists only as the parent of mounts (`/mnt/user-data` when
 * only its children are mounted) lists those mounts, as DeerFlow does.
 */
import { SandboxError } from "../errors.js";
import type { Logger } from "../logger.js";
import type { Mount } from "../mount.js";
import { usingDir, type DirHandle } from "../paths/dir-handle.js";
import { notFoundError } from "../paths/fs-errors.js";
import type { MountResolver } from "../paths/mount-resolver.js";
import { openDirectory } from "../paths/safe-open.js";
import {
  NOT_ALLOWED_MESSAGE,
  joinVirtual,
  matchMount,
  mountsBelow,
  normalizeVirtualPath,
} from "../paths/virtual-paths.js";
import { walkTree } from "../search/walk.js";
import { linkKind } from "./link-kind.js";

/**
 * Lists a virtual directory.
 *
 * @param resolver - The sandbox's mounts.
 * @param virtualPath - Directory to list.
 * @param maxDepth - Levels to descend (1 = direct children); a positive integer.
 * @param logger - Receives unreadable directories at debug level.
 * @returns Sorted virtual paths, directories ending in `/`.
 * @throws {@link SandboxError} `NOT_FOUND` (`Directory not found: <path>`), `NOT_A_DIRECTORY`,
 *   `PATH_ESCAPE`, `PATH_NOT_ALLOWED`, `INVALID_ARGUMENT` for a bad depth.
 */
export async function listVirtualDir(
  resolver: MountResolver,
  virtualPath: string,
  maxDepth: number,
  logger: Logger,
): Promise<string[]> {
  if (!Number.isInteger(maxDepth) || maxDepth < 1) {
    throw new SandboxError("INVALID_ARGUMENT", `maxDepth must be an integer >= 1, got ${String(maxDepth)}`);
  }
  const normalized = normalizeVirtualPath(virtualPath);
  const nested = mountsBelow(resolver.mounts, normalized);
  const mountPoints = new Set(nested.map((mount) => mount.virtualPath.replace(/\/+$/, "")));
  const entries = new Set<string>();

  /** Walks `dir`, which lies at `base` below `mount`'s root and at `virtualDir` in the listing. */
  const walk = async (
    dir: DirHandle,
    mount: Mount,
    base: readonly string[],
    virtualDir: string,
    depth: number,
  ): Promise<void> => {
    const omit = (rel: string): boolean => mountPoints.has(joinVirtual(virtualDir, rel));
    for await (const entry of walkTree(dir, { maxDepth: depth, omit, logger })) {
      const entryPath = joinVirtual(virtualDir, entry.relativePath);
      const kind =
        entry.kind === "symlink"
          ? await linkKind(resolver, mount, [...base, ...entry.relativePath.split("/")], entryPath)
          : entry.kind;
      if (kind === undefined) continue;
      entries.add(kind === "directory" ? `${entryPath}/` : entryPath);
    }
  };

  const covering = matchMount(resolver.mounts, normalized);
  if (covering === undefined && nested.length === 0) {
    throw new SandboxError("PATH_NOT_ALLOWED", NOT_ALLOWED_MESSAGE, { path: normalized });
  }
  if (covering !== undefined) {
    await resolver.withEntry(
      normalized,
      "read",
      (entry) => usingDir(openDirectory(entry), (dir) => walk(dir, entry.mount, entry.segments, normalized, maxDepth)),
      { target: "directory" },
    );
  }

  let overlaid = false;
  for (const mount of nested) {
    const mountPath = mount.virtualPath.replace(/\/+$/, "");
    let root: DirHandle;
    try {
      root = await resolver.openRoot(mount);
    } catch {
      // A mount whose folder is missing is not shown (no phantom entries).
      continue;
    }
    await usingDir(root, async () => {
      overlaid = true;
      const segments = (normalized === "/" ? mountPath.slice(1) : mountPath.slice(normalized.length + 1)).split("/");
      segments.forEach((_, index) => {
        if (index < maxDepth) entries.add(`${joinVirtual(normalized, segments.slice(0, index + 1).join("/"))}/`);
      });
      if (segments.length < maxDepth) await walk(root, mount, [], mountPath, maxDepth - segments.length);
    });
  }
  if (covering === undefined && !overlaid) throw notFoundError(normalized, "directory");
  return [...entries].sort();
}
