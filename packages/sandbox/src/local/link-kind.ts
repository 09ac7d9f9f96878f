/**
 * What a symlink met during a walk (`listDir`, `glob`) stands for: it is
 * resolved virtually from its own place in the mount, like any path (see
 * `MountResolver`), so a link counts as its target only while the target
 * stays inside the mount.
 */
import type { Mount } from "../mount.js";
import type { MountResolver } from "../paths/mount-resolver.js";
import { OpenRefusedError, openTarget } from "../paths/safe-open.js";
import type { EntryKind } from "../search/walk.js";

/**
 * Classifies a symlink by its target.
 *
 * @param resolver - The sandbox's mounts.
 * @param mount - The mount the link lies in.
 * @param segments - The link's path below the mount's root (its name last).
 * @param virtualPath - The link's virtual path (for errors, which are swallowed).
 * @returns `file`, `directory` or `other` (FIFO, socket...), or `undefined`
 *   for a dangling link, a loop, or a target outside the mount (skipped by every walk).
 */
export async function linkKind(
  resolver: MountResolver,
  mount: Mount,
  segments: readonly string[],
  virtualPath: string,
): Promise<EntryKind | undefined> {
  try {
    return await resolver.withMountEntry(mount, segments, virtualPath, "read", async (entry) => {
      try {
        const target = await openTarget(entry);
        if (target.kind === "directory") await target.dir.close();
        else await target.file.close();
        return target.kind;
      } catch (err) {
        if (err instanceof OpenRefusedError) return "other";
        throw err;
      }
    });
  } catch {
    return undefined;
  }
}
