/**
 * Bounded, symlink-safe walk of a package directory. Entries are examined with
 * `lstat` and symlinks are reported, never followed, so a link to `/etc` or to
 * another user's files cannot pull foreign content into a scan.
 */
import { promises as fs } from "node:fs";
import path from "node:path";

/** One entry met during the walk. */
export type WalkEntry =
  | { readonly kind: "file"; readonly relPath: string; readonly absPath: string; readonly size: number }
  | { readonly kind: "dir" | "symlink" | "other"; readonly relPath: string; readonly absPath: string };

/** Result of a walk; `truncated` when more than `maxEntries` were met. */
export interface WalkResult {
  readonly entries: readonly WalkEntry[];
  readonly truncated: boolean;
  /** Entries counted before stopping (at most `maxEntries + 1`). */
  readonly count: number;
}

/** Replaces an fs error (whose message holds the host path) by `<relative path>: <code>`. */
function rethrowRelative(relPath: string): (err: unknown) => never {
  return (err: unknown) => {
    const code = (err as { code?: unknown } | null)?.code;
    throw new Error(`cannot read ${relPath}: ${typeof code === "string" ? code : "I/O error"}`, { cause: err });
  };
}

/**
 * Lists every entry under `root` (not `root` itself), children sorted by name.
 * Stops after `maxEntries + 1` entries so a huge tree costs a bounded amount.
 *
 * @param root - absolute directory path.
 * @param maxEntries - how many entries are allowed.
 * @param signal - checked between directories.
 * @returns the entries with package-relative POSIX paths.
 * @throws the signal's reason when aborted; `Error("cannot read <relative path>: <code>")`
 *   when a directory cannot be listed (the scan fails closed, without host paths).
 */
export async function walkPackage(root: string, maxEntries: number, signal?: AbortSignal): Promise<WalkResult> {
  const entries: WalkEntry[] = [];
  const queue: string[] = [""];
  let count = 0;
  while (queue.length > 0) {
    signal?.throwIfAborted();
    const relDir = queue.shift() ?? "";
    const names = (
      await fs.readdir(path.join(root, ...relDir.split("/").filter(Boolean))).catch(rethrowRelative(relDir || "."))
    ).sort();
    for (const name of names) {
      count++;
      if (count > maxEntries) return { entries, truncated: true, count };
      const relPath = relDir === "" ? name : `${relDir}/${name}`;
      const absPath = path.join(root, ...relPath.split("/"));
      const stat = await fs.lstat(absPath).catch(rethrowRelative(relPath));
      if (stat.isSymbolicLink()) entries.push({ kind: "symlink", relPath, absPath });
      else if (stat.isDirectory()) {
        entries.push({ kind: "dir", relPath, absPath });
        queue.push(relPath);
      } else if (stat.isFile()) entries.push({ kind: "file", relPath, absPath, size: stat.size });
      else entries.push({ kind: "other", relPath, absPath });
    }
  }
  return { entries, truncated: false, count };
}
