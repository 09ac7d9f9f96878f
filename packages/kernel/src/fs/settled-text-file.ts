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
import { statSync, type BigIntStats } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";

/** How long before a read the file and its folder must have last changed for the read to be kept. */
export const SETTLED_FILE_MS = 2_000;

/** Options of {@link settledFile} and {@link settledTextFile}. */
export interface SettledTextFileOptions {
  /** Clock in ms (default `Date.now`); tests move it. */
  readonly now?: () => number;
}

/** What a kept read vouches for. */
interface Kept<T> {
  /** The folder's stamp (what vouches for a missing file). */
  readonly folder: string;
  /** Absent when the file had no entry in the folder. */
  readonly file: string | undefined;
  readonly value: T | undefined;
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

/**
 * The check of a kept read: one metadata syscall, made synchronously. The
 * folder is the host's own (its data folder, which the run store and the
 * checkpointer already use synchronously through SQLite); sync it costs ~2 µs,
 * where a promise `stat` costs 15-40 µs of CPU (thread pool, request, promise)
 * on every run or model call.
 */
function checkStat(target: string): BigIntStats | undefined {
  try {
    return statSync(target, { bigint: true, throwIfNoEntry: false });
  } catch (err) {
    if (gone(err)) return undefined;
    throw err;
  }
}

const stampOf = (s: BigIntStats): string => `${s.dev}:${s.ino}:${s.mtimeNs}:${s.ctimeNs}:${s.size}`;
const changedMs = (s: BigIntStats): number => Number((s.mtimeNs > s.ctimeNs ? s.mtimeNs : s.ctimeNs) / 1_000_000n);

/**
 * A reader of one file that answers from memory while nothing changed.
 *
 * @param file - the file (its folder need not exist)
 * @param parse - what to keep of the file: its bytes and the stat read with them, made into a value (once per read)
 * @param options - the clock
 * @returns a function giving the parsed file, `undefined` while it (or its folder) is missing; other
 *   file system errors are thrown as `fs` throws them (and `parse`'s as it throws them)
 * @example
 * ```ts
 * const size = settledFile("/data/extensions_config.json", (bytes) => bytes.length);
 * ```
 */
export function settledFile<T>(
  file: string,
  parse: (bytes: Buffer, stat: BigIntStats) => T,
  options: SettledTextFileOptions = {},
): () => Promise<T | undefined> {
  const now = options.now ?? Date.now;
  const folderPath = path.dirname(file);
  let kept: Kept<T> | undefined;
  return async () => {
    if (kept?.file !== undefined) {
      // A kept file: its own stat tells any change (a rename over it brings another inode).
      const stat = checkStat(file);
      if (stat !== undefined && stampOf(stat) === kept.file) return kept.value;
    } else if (kept !== undefined) {
      // Kept missing: no entry can appear in an unchanged folder.
      const folder = checkStat(folderPath);
      if (folder !== undefined && stampOf(folder) === kept.folder) return undefined;
    }
    const folder = await statOf(folderPath);
    if (folder === undefined) {
      kept = undefined;
      return undefined;
    }
    const folderStamp = stampOf(folder);
    const readAt = now();
    const [stat, bytes] = await Promise.all([
      statOf(file),
      fs.readFile(file).catch((err: unknown) => {
        if (gone(err)) return undefined;
        throw err;
      }),
    ]);
    if (bytes !== undefined && stat !== undefined) {
      const value = parse(bytes, stat);
      const latest = Math.max(changedMs(folder), changedMs(stat));
      kept = readAt - latest > SETTLED_FILE_MS ? { folder: folderStamp, file: stampOf(stat), value } : undefined;
      return value;
    }
    // Read without a stat (removed meanwhile), or a dangling symlink (its target may appear elsewhere): not kept.
    if (bytes !== undefined || stat !== undefined || (await statOf(file, true)) !== undefined) {
      kept = undefined;
      return undefined;
    }
    kept =
      readAt - changedMs(folder) > SETTLED_FILE_MS
        ? { folder: folderStamp, file: undefined, value: undefined }
        : undefined;
    return undefined;
  };
}

/**
 * A reader of one UTF-8 text file that answers from memory while nothing changed ({@link settledFile}).
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
  return settledFile(file, (bytes) => bytes.toString("utf8"), options);
}
