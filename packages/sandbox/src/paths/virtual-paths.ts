/**
 * Lexical handling of virtual paths: normalisation, traversal rejection, and
 * the mapping between virtual paths and mounts (both directions). Nothing in
 * this module touches the filesystem; symlink-aware resolution lives in
 * `mount-resolver.ts`.
 */
import path from "node:path";
import { isPathInside } from "@deerflow/kernel";
import { SandboxError } from "../errors.js";
import type { Mount } from "../mount.js";

/** DeerFlow's message for any `..` segment in a path. */
const TRAVERSAL_MESSAGE = "Access denied: path traversal detected";
/** DeerFlow's message for a path (or symlink) that leaves its mount's host directory. */
export const ESCAPE_MESSAGE = "Access denied: path escapes mounted directory";
/** DeerFlow's message for a path outside every allowed prefix. */
export const NOT_ALLOWED_MESSAGE =
  "Only paths under /mnt/user-data/, /mnt/skills/, or configured mount paths are allowed";

/** A mount that covers a virtual path, and the path's place inside it. */
export interface MountMatch {
  readonly mount: Mount;
  /** POSIX path relative to the mount's virtual root; `""` for the root itself. */
  readonly relative: string;
}

/**
 * Normalises an absolute virtual path: collapses repeated slashes, drops `.`
 * segments and any trailing slash. Backslashes are ordinary characters in a
 * POSIX file name, but a `..` segment delimited by either slash is refused, so
 * `a\..\b` cannot sneak past a host that treats `\` as a separator.
 * Percent-encoded forms (`%2e%2e`) are literal names and pass unchanged.
 *
 * @param input - The path as the agent wrote it.
 * @returns The canonical form, e.g. `/mnt/user-data/workspace/a.txt`.
 * @throws {@link SandboxError} `PATH_ESCAPE` for a `..` segment, `PATH_NOT_ALLOWED`
 *   for a relative or empty path, `INVALID_ARGUMENT` for a NUL character.
 * @example
 * normalizeVirtualPath("/mnt/user-data//workspace/./a/"); // "/mnt/user-data/workspace/a"
 */
export function normalizeVirtualPath(input: string): string {
  if (input.includes("\0")) {
    throw new SandboxError("INVALID_ARGUMENT", "Path must not contain NUL characters");
  }
  if (input.split(/[/\\]/).some((segment) => segment === "..")) {
    throw new SandboxError("PATH_ESCAPE", TRAVERSAL_MESSAGE, { path: input });
  }
  if (!input.startsWith("/")) {
    throw new SandboxError("PATH_NOT_ALLOWED", NOT_ALLOWED_MESSAGE, { path: input });
  }
  const segments = input.split("/").filter((segment) => segment !== "" && segment !== ".");
  return `/${segments.join("/")}`;
}

/**
 * Picks the mount covering a normalised virtual path: the longest mount path
 * that is a prefix at a segment boundary, so `/mnt/user-data/workspace-extra`
 * never matches `/mnt/user-data/workspace`.
 *
 * @param mounts - The sandbox's mounts.
 * @param virtualPath - A path already passed through {@link normalizeVirtualPath}.
 * @returns The match, or `undefined` when the path is outside every mount.
 */
export function matchMount(mounts: readonly Mount[], virtualPath: string): MountMatch | undefined {
  let best: Mount | undefined;
  for (const mount of mounts) {
    const root = trimVirtualRoot(mount.virtualPath);
    if (!isPathInside(virtualPath, root, { posix: true })) continue;
    if (best === undefined || root.length > trimVirtualRoot(best.virtualPath).length) best = mount;
  }
  if (best === undefined) return undefined;
  const root = trimVirtualRoot(best.virtualPath);
  const relative = root === "/" ? virtualPath.slice(1) : virtualPath.slice(root.length + 1);
  return { mount: best, relative };
}

/**
 * Mounts strictly below a virtual directory (for overlays such as
 * `/mnt/skills/public` under `/mnt/skills`), shortest path first.
 *
 * @param mounts - The sandbox's mounts.
 * @param virtualDir - A normalised virtual directory.
 * @returns The nested mounts.
 */
export function mountsBelow(mounts: readonly Mount[], virtualDir: string): Mount[] {
  return mounts
    .filter((mount) => {
      const root = trimVirtualRoot(mount.virtualPath);
      return root !== virtualDir && isPathInside(root, virtualDir, { posix: true });
    })
    .sort((a, b) => a.virtualPath.length - b.virtualPath.length);
}

/**
 * Maps a host path back to its virtual path: the mount with the longest host
 * root containing the path (at a segment boundary) wins.
 *
 * @param mounts - The sandbox's mounts (their `hostPath` is compared lexically;
 *   pass mounts with real paths to match realpath'd input).
 * @param hostPath - An absolute host path.
 * @returns The virtual path, or `undefined` when no mount contains it.
 * @example
 * hostToVirtual([{ virtualPath: "/mnt/x", hostPath: "/srv/x", readOnly: false }], "/srv/x/a/b"); // "/mnt/x/a/b"
 */
export function hostToVirtual(mounts: readonly Mount[], hostPath: string): string | undefined {
  const target = path.resolve(hostPath);
  let best: Mount | undefined;
  let bestRoot = "";
  for (const mount of mounts) {
    const root = path.resolve(mount.hostPath);
    if (!isPathInside(target, root)) continue;
    if (best === undefined || root.length > bestRoot.length) {
      best = mount;
      bestRoot = root;
    }
  }
  if (best === undefined) return undefined;
  const relative = path.relative(bestRoot, target).split(path.sep).join("/");
  const root = trimVirtualRoot(best.virtualPath);
  if (relative === "") return root;
  return root === "/" ? `/${relative}` : `${root}/${relative}`;
}

/**
 * Joins a normalised virtual directory and a POSIX relative path.
 *
 * @param virtualDir - Normalised virtual directory.
 * @param relative - Relative POSIX path (may be empty).
 * @returns The joined virtual path.
 */
export function joinVirtual(virtualDir: string, relative: string): string {
  if (relative === "") return virtualDir;
  return virtualDir === "/" ? `/${relative}` : `${virtualDir}/${relative}`;
}

/** A mount's virtual path without a trailing slash (`/` stays `/`). */
function trimVirtualRoot(virtualPath: string): string {
  const trimmed = virtualPath.replace(/\/+$/, "");
  return trimmed === "" ? "/" : trimmed;
}
