/**
 * A text file read on every run (a default SOUL.md, say) without reading it
 * every time: its content is kept while the file and its folder are unchanged
 * and settled. Changes are told by `stat` (device, inode, mtime, ctime, size:
 * ctime cannot be set back, so even a write that restores mtime and size
 * shows); a folder's stamp changes whenever an entry is created, removed or
 * renamed in it, so a missing file stays known missing from one `stat` of the
 * folder, with no failed open and its error per read. A read within
 * {@link SETTLED_FILE_MS} of the last change is not kept: a write in the same
 * timestamp tick could leave the stat as it was (git's "racily clean").
 */
import type { BigIntStats } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";

/** How long before a read the file and its folder must have last changed for the read to be kept. */
export const SETTLED_FILE_MS = 2_000;

/** Options of {@link settledTextFile}. */
export interface SettledTextFileOptions {
  /** Clock in ms (default `Date.now`); tests move it. */
  readonly now?: () => number;
}

/** What a kept read vouches for. */
interface Kept {
  readonly folder: string;
  /** Absent when the file had no entry in the folder. */
  readonly file: string | undefined;
  readonly text: string | undefined;
}

const gone = (err: unknown): boolean => {
  const code = (err as NodeJS.ErrnoException).code;
  return code === "ENOENT" || code === "ENOTDIR";
};

async function statOf(target: string, link = false): Promise<BigIntStats | undefined> {
  try {
    return await (link ? fs.lstat(target, { bigint: true }) : fs.stat(target, { bigint: true }));
  } catch (err) {
    if (gone(err)) return undefined;
    throw err;
  }
}

const stampOf = (s: BigIntStats): string => `${s.dev}:${s.ino}:${s.mtimeNs}:${s.ctimeNs}:${s.size}`;
const changedMs = (s: BigIntStats): number => Number((s.mtimeNs > s.ctimeNs ? s.mtimeNs : s.ctimeNs) / 1_000_000n);

/**
 * A reader of one UTF-8 text file that answers from memory while nothing changed.
 *
 * @param file - the file (its folder need not exist)
 * @param options - the clock
 * @returns a function giving the file's text, `undefined` while it (or its folder) is missing; other
 *   file system errors are thrown as `fs` throws them
 * @example
 * ```ts
 * const soul = settledTextFile("/data/SOUL.md");
 * const text = await soul(); // read once; later calls cost a stat or two until the file changes
 * ```
 */
export function settledTextFile(file: string, options: SettledTextFileOptions = {}): () => Promise<string | undefined> {
  const now = options.now ?? Date.now;
  const folderPath = path.dirname(file);
  let kept: Kept | undefined;
  return async () => {
    const folder = await statOf(folderPath);
    if (folder === undefined) {
      kept = undefined;
      return undefined;
    }
    const folderStamp = stampOf(folder);
    if (kept !== undefined && kept.folder === folderStamp) {
      // No entry can appear in an unchanged folder; an existing file can change in place.
      if (kept.file === undefined) return undefined;
      const stat = await statOf(file);
      if (stat !== undefined && stampOf(stat) === kept.file) return kept.text;
    }
    const readAt = now();
    const [stat, text] = await Promise.all([
      statOf(file),
      fs.readFile(file, "utf8").catch((err: unknown) => {
        if (gone(err)) return undefined;
        throw err;
      }),
    ]);
    let latest = changedMs(folder);
    let fileStamp: string | undefined;
    if (text !== undefined && stat !== undefined) {
      fileStamp = stampOf(stat);
      latest = Math.max(latest, changedMs(stat));
    } else if (text !== undefined || (await statOf(file, true)) !== undefined) {
      // Read without a stat, or a dangling symlink (its target may appear elsewhere): not kept.
      kept = undefined;
      return text;
    }
    kept = readAt - latest > SETTLED_FILE_MS ? { folder: folderStamp, file: fileStamp, text } : undefined;
    return text;
  };
}
