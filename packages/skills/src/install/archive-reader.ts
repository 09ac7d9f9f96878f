/**
 * Opens a `.skill` (zip) archive by its central directory, the authoritative
 * listing: symlink bits live only there, and a name patched in the local
 * header alone cannot hide from it.
 *
 * Every byte range unzipper reads goes through one tracked source, so
 * {@link OpenedArchive.close} can release the file descriptors of member
 * streams that an aborted extraction left paused mid-file.
 */
import { createReadStream, type ReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import type { Readable } from "node:stream";
import unzipper, { type CentralDirectory, type File as ZipRecord } from "unzipper";
import { SkillsError } from "../errors.js";
import { MAX_ARCHIVE_ENTRIES } from "../limits.js";
import { toPosixMemberName } from "./member-name.js";
import { NOT_A_ZIP_MESSAGE, readZipEnd } from "./zip-entry-count.js";

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

/** One member of an opened archive, as the central directory describes it. */
export interface ArchiveEntry {
  /** The raw member name (may contain `\`; not yet checked for safety). */
  readonly name: string;
  /** True for directory entries (name ends with `/` or `\`). */
  readonly isDirectory: boolean;
  /** True when the Unix mode in the external attributes is `S_IFLNK`. */
  readonly isSymlink: boolean;
  /** True when the Unix mode grants owner execute (scripts keep their `+x`). */
  readonly isExecutable: boolean;
  /** Uncompressed size the directory declares. Informational only: never trusted as a limit. */
  readonly declaredSize: number;
}

/** An archive whose central directory has been read. */
export interface OpenedArchive {
  /** Members in central-directory order. */
  readonly entries: readonly ArchiveEntry[];
  /** Opens the decompressed data of `entry` (one of {@link entries}). */
  openEntry(entry: ArchiveEntry): Readable;
  /** Releases every file descriptor still held. Idempotent. */
  close(): void;
}

/** Options of {@link openSkillArchive}. */
export interface OpenArchiveOptions {
  /** Most entries accepted (inclusive). Default {@link MAX_ARCHIVE_ENTRIES}. */
  readonly maxEntries?: number;
}

/**
 * Builds the DeerFlow "too many entries" error.
 *
 * @param count - the number of entries found.
 * @param max - the cap that was exceeded.
 */
function tooManyEntriesError(count: number, max: number): SkillsError {
  return new SkillsError("ARCHIVE_TOO_LARGE", `Skill archive contains too many entries (${count} > ${max}).`, {
    details: { entries: count, maxEntries: max },
  });
}

/**
 * Reads the central directory of a zip file.
 *
 * The entry cap is checked twice: against the count in the end record before
 * any record is parsed, and against the parsed list.
 *
 * @param file - path of the archive.
 * @param options - see {@link OpenArchiveOptions}.
 * @returns the opened archive; call `close()` when done with it.
 * @throws SkillsError `ARCHIVE_INVALID` ("File is not a valid ZIP archive"),
 *   `ARCHIVE_TOO_LARGE` ("Skill archive contains too many entries (<n> > 4096).").
 * @example
 * ```ts
 * const archive = await openSkillArchive("demo.skill");
 * try { console.log(archive.entries.map((e) => e.name)); } finally { archive.close(); }
 * ```
 */
export async function openSkillArchive(file: string, options: OpenArchiveOptions = {}): Promise<OpenedArchive> {
  const maxEntries = options.maxEntries ?? MAX_ARCHIVE_ENTRIES;
  const end = await readZipEnd(file);
  if (end.entryCount > maxEntries) throw tooManyEntriesError(end.entryCount, maxEntries);

  const streams = new Set<ReadStream>();
  let closed = false;
  const source = {
    size: async (): Promise<number> => (await stat(file)).size,
    stream: (offset: number, length?: number): ReadStream => {
      const s = createReadStream(file, length ? { start: offset, end: offset + length - 1 } : { start: offset });
      if (closed) s.destroy();
      streams.add(s);
      s.on("close", () => streams.delete(s));
      // A read error is reported through unzipper's own stream; never crash the process.
      s.on("error", () => {});
      return s;
    },
  };
  const close = (): void => {
    closed = true;
    for (const s of streams) s.destroy();
    streams.clear();
  };

  let directory: CentralDirectory;
  try {
    // unzipper looks for the end record in the last `tailSize` bytes (80 by
    // default, too few once there is an archive comment) and takes the first
    // match; starting exactly at the record we found avoids both problems.
    const openCustom = unzipper.Open.custom as (
      src: typeof source,
      options: { tailSize: number },
    ) => Promise<CentralDirectory>;
    directory = await openCustom(source, { tailSize: end.size - end.endRecordOffset });
  } catch (cause) {
    close();
    throw new SkillsError("ARCHIVE_INVALID", NOT_A_ZIP_MESSAGE, { cause });
  }
  // The directory stream is fully consumed; release it before extraction starts.
  close();
  closed = false;

  if (directory.files.length > maxEntries) throw tooManyEntriesError(directory.files.length, maxEntries);
  const byEntry = new Map<ArchiveEntry, ZipRecord>();
  const entries = directory.files.map((f) => {
    const mode = (f.externalFileAttributes >>> 16) & 0xffff;
    const entry: ArchiveEntry = {
      name: f.path,
      isDirectory: toPosixMemberName(f.path).endsWith("/"),
      isSymlink: (mode & S_IFMT) === S_IFLNK,
      isExecutable: (mode & 0o100) !== 0,
      declaredSize: f.uncompressedSize,
    };
    byEntry.set(entry, f);
    return entry;
  });

  return {
    entries,
    openEntry(entry) {
      const f = byEntry.get(entry);
      if (f === undefined) throw new Error("openEntry: entry does not belong to this archive");
      const s = f.stream();
      // unzipper re-emits source and inflate errors on the entry, sometimes after
      // the consumer has gone; an unhandled 'error' would crash the process.
      s.on("error", () => {});
      return s;
    },
    close,
  };
}
