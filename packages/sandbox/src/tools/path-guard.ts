/**
 * Checks the file tools make on a virtual path before touching the sandbox:
 * `..` segments, and writes into read-only trees (`/mnt/skills`, the ACP
 * workspace, read-only mounts). The sandbox enforces the same rules itself;
 * checking here first gives the model DeerFlow's specific messages.
 */
import { isPathInside } from "@deerflow/kernel";
import type { Mount } from "../mount.js";
import { SKILLS_PATH } from "../limits.js";

/** DeerFlow's traversal message (also used by the host command policy). */
export const PATH_TRAVERSAL_MESSAGE = "Access denied: path traversal detected";

/** Virtual root of the ACP agents' workspace, read-only for the file tools (as in DeerFlow). */
export const ACP_WORKSPACE_PATH = "/mnt/acp-workspace";

/**
 * True when any segment of the path, split on either slash, is `..`.
 *
 * @param path - A virtual path as the model wrote it.
 * @returns Whether the path tries to climb out of its directory.
 */
export function hasTraversal(path: string): boolean {
  return path.replaceAll("\\", "/").split("/").includes("..");
}

/** A read-only tree that the write tools refuse up front. */
export interface ReadOnlyRoot {
  readonly virtualPath: string;
  readonly readOnly: boolean;
}

/**
 * The message DeerFlow gives for a write into a protected tree, or null when
 * the path may be written. Skills and the ACP workspace are always read-only;
 * for other mounts the longest matching mount decides, so a writable mount
 * nested inside a read-only one stays writable.
 *
 * @param path - The virtual path to write.
 * @param mounts - Mounts known for the sandbox plus configured read-only paths.
 * @returns e.g. `"Write access to skills path is not allowed: /mnt/skills/x"`, or null.
 */
export function writeProtectionMessage(path: string, mounts: readonly ReadOnlyRoot[]): string | null {
  if (isPathInside(path, SKILLS_PATH, { posix: true })) return `Write access to skills path is not allowed: ${path}`;
  if (isPathInside(path, ACP_WORKSPACE_PATH, { posix: true }))
    return `Write access to ACP workspace is not allowed: ${path}`;
  let best: ReadOnlyRoot | undefined;
  for (const mount of mounts) {
    if (
      isPathInside(path, mount.virtualPath, { posix: true }) &&
      (best === undefined || mount.virtualPath.length > best.virtualPath.length)
    )
      best = mount;
  }
  return best?.readOnly === true ? `Write access to read-only mount is not allowed: ${path}` : null;
}

/**
 * The mounts a sandbox exposes, when its implementation has a public
 * `mounts` array (LocalSandbox does; the {@link Sandbox} contract does not require it).
 *
 * @param sandbox - Any sandbox.
 * @returns Its mounts, or an empty list.
 */
export function sandboxMounts(sandbox: object): readonly Mount[] {
  if (!("mounts" in sandbox) || !Array.isArray(sandbox.mounts)) return [];
  return (sandbox.mounts as unknown[]).filter(
    (m): m is Mount =>
      typeof m === "object" &&
      m !== null &&
      typeof (m as Mount).virtualPath === "string" &&
      typeof (m as Mount).readOnly === "boolean",
  );
}
