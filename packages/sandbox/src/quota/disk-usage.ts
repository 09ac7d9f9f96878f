/**
 * Measuring a thread's folders: a bounded, iterative walk with `lstat` that
 * never follows a symlink. Bytes are the sum of the sizes of regular files
 * (each hard-linked inode once) and of symlinks; entries are every file,
 * folder and link below the roots.
 *
 * The walk is synchronous in slices of {@link SLICE_ENTRIES} entries with a
 * yield to the event loop between slices: a synchronous `lstat` costs about a
 * microsecond, a promise-based one ten times that.
 *
 * What cannot be counted (a folder the server may not read, a path too long
 * or too deep) makes the result `incomplete`: a sandbox must not hide files
 * from its quota behind `chmod 000` or nesting, so callers treat an
 * incomplete measurement as over the quota.
 */
import { lstatSync, opendirSync, type Stats } from "node:fs";
import path from "node:path";

/** Deepest folder level walked below a root by default. */
const DEFAULT_MAX_WALK_DEPTH = 256;

/** Entries handled before the walk yields to the event loop. */
const SLICE_ENTRIES = 512;

/** What a walk found. */
export interface DiskUsage {
  /** Bytes of regular files and symlinks. */
  readonly bytes: number;
  /** Files, folders and links (the roots themselves not counted). */
  readonly files: number;
  /** True when the walk stopped at `maxEntries`: `files` and `bytes` are then lower bounds. */
  readonly stoppedEarly: boolean;
  /** Why part of the tree could not be counted, or `undefined` when everything was. */
  readonly incomplete: string | undefined;
}

/** Options of {@link measureDiskUsage}. */
export interface MeasureOptions {
  /** Stop once more entries than this were seen (a files quota + 1 is enough to know it is exceeded). */
  readonly maxEntries: number;
  /** Deepest level walked; deeper folders make the result incomplete. Default {@link DEFAULT_MAX_WALK_DEPTH}. */
  readonly maxDepth?: number;
}

const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Measures the folders.
 *
 * @param roots - Host folders (missing ones count as empty).
 * @param options - Bounds of the walk.
 * @returns Bytes and entries.
 * @example
 * ```ts
 * const usage = await measureDiskUsage([workspace, uploads, outputs], { maxEntries: 100_001 });
 * if (usage.files > 100_000 || usage.bytes > quotaBytes || usage.incomplete) ...
 * ```
 */
export async function measureDiskUsage(roots: readonly string[], options: MeasureOptions): Promise<DiskUsage> {
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_WALK_DEPTH;
  const seenInodes = new Set<string>();
  const stack: { dir: string; depth: number }[] = [];
  for (const root of roots) {
    const stats = lstatSync(root, { throwIfNoEntry: false });
    if (stats?.isDirectory() === true) stack.push({ dir: root, depth: 0 });
  }
  let bytes = 0;
  let files = 0;
  let sinceYield = 0;
  let incomplete: string | undefined;

  const count = (stats: Stats): void => {
    files += 1;
    if (stats.isSymbolicLink()) bytes += stats.size;
    else if (stats.isFile()) {
      if (stats.nlink > 1) {
        const key = `${stats.dev}:${stats.ino}`;
        if (seenInodes.has(key)) return;
        seenInodes.add(key);
      }
      bytes += stats.size;
    }
  };

  while (stack.length > 0) {
    const { dir, depth } = stack.pop() as { dir: string; depth: number };
    let handle;
    try {
      handle = opendirSync(dir, { bufferSize: 256 });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") incomplete ??= `a folder could not be read (${code ?? "error"})`;
      continue;
    }
    try {
      for (let entry = handle.readSync(); entry !== null; entry = handle.readSync()) {
        if (++sinceYield >= SLICE_ENTRIES) {
          sinceYield = 0;
          await yieldToLoop();
        }
        const full = path.join(dir, entry.name);
        // A folder is one entry with no bytes of its own: its dirent says enough, no lstat needed.
        let folder = entry.isDirectory();
        if (folder) files += 1;
        else {
          let stats: Stats | undefined;
          try {
            stats = lstatSync(full, { throwIfNoEntry: false });
          } catch (err) {
            files += 1;
            incomplete ??= `an entry could not be measured (${(err as NodeJS.ErrnoException).code ?? "error"})`;
            continue;
          }
          if (stats === undefined) continue; // removed meanwhile
          count(stats);
          folder = stats.isDirectory(); // filesystems that report no type in the dirent
        }
        if (folder) {
          if (depth + 1 > maxDepth) incomplete ??= `folders are nested deeper than ${maxDepth} levels`;
          else stack.push({ dir: full, depth: depth + 1 });
        }
        if (files > options.maxEntries) return { bytes, files, stoppedEarly: true, incomplete };
      }
    } catch (err) {
      incomplete ??= `a folder could not be listed (${(err as NodeJS.ErrnoException).code ?? "error"})`;
    } finally {
      handle.closeSync();
    }
  }
  return { bytes, files, stoppedEarly: false, incomplete };
}
