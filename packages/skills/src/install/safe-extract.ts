/**
 * Bounded, hostile-input-safe extraction of a `.skill` archive.
 *
 * Memory stays constant whatever the archive claims: members are streamed to
 * disk one at a time and the caps are enforced on the bytes that actually come
 * out of the decompressor, so forged size fields cannot widen them. Every name
 * is checked before anything is written, files are created with
 * `O_EXCL | O_NOFOLLOW` (never through a symlink, never over an existing
 * file), and symlink members are skipped.
 */
import { constants as fsConstants } from "node:fs";
import { lstat, mkdir, open, realpath, rm } from "node:fs/promises";
import path from "node:path";
import { Transform, type TransformCallback } from "node:stream";
import { pipeline } from "node:stream/promises";
import { isPathInside } from "@deerflow/kernel";
import { SkillsError } from "../errors.js";
import { executableKind } from "../scanning/static/magic.js";
import { MAX_ARCHIVE_FILE_BYTES, MAX_ARCHIVE_TOTAL_BYTES } from "../limits.js";
import { silentLogger, type Logger } from "../logger.js";
import { openSkillArchive, type ArchiveEntry, type OpenArchiveOptions, type OpenedArchive } from "./archive-reader.js";
import { isUnsafeMemberName, memberPathParts } from "./member-name.js";

/** Options of {@link extractArchive} and {@link safeExtractSkillArchive}. */
export interface ExtractOptions extends OpenArchiveOptions {
  /** Receives a warning for each skipped symlink member. */
  readonly logger?: Logger;
  /** Aborts the extraction between and during members. */
  readonly signal?: AbortSignal;
  /** Most decompressed bytes in total. Default {@link MAX_ARCHIVE_TOTAL_BYTES}. */
  readonly maxTotalBytes?: number;
  /** Most decompressed bytes of one member. Default {@link MAX_ARCHIVE_FILE_BYTES}. */
  readonly maxFileBytes?: number;
}

/** What an extraction wrote. */
export interface ExtractResult {
  /** Regular files written. */
  readonly files: number;
  /** Decompressed bytes written. */
  readonly bytes: number;
  /** Raw names of symlink members that were skipped. */
  readonly skippedSymlinks: readonly string[];
}

/** Bytes needed to recognise every executable magic. */
const MAGIC_PROBE_BYTES = 4;
const TOO_LARGE_MESSAGE = "Skill archive is too large or appears highly compressed.";
const CREATE_FLAGS = fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_EXCL | fsConstants.O_NOFOLLOW;

function tooLarge(name: string, limit: "total" | "file"): SkillsError {
  return new SkillsError("ARCHIVE_TOO_LARGE", TOO_LARGE_MESSAGE, { details: { member: name, limit } });
}

function conflicting(name: string): SkillsError {
  return new SkillsError("ARCHIVE_INVALID", `Archive contains conflicting member path: '${name}'`, {
    details: { member: name },
  });
}

function errnoCode(err: unknown): string | undefined {
  return typeof err === "object" && err !== null ? (err as NodeJS.ErrnoException).code : undefined;
}

/**
 * Checks every member name before anything is written.
 *
 * @returns the path parts of each entry (empty for names to skip).
 * @throws SkillsError `ARCHIVE_UNSAFE` for an unsafe name or an escaping path.
 */
function planMembers(entries: readonly ArchiveEntry[], destReal: string): string[][] {
  return entries.map((entry) => {
    if (isUnsafeMemberName(entry.name)) {
      throw new SkillsError("ARCHIVE_UNSAFE", `Archive contains unsafe member path: '${entry.name}'`, {
        details: { member: entry.name },
      });
    }
    const parts = memberPathParts(entry.name);
    const resolved = path.resolve(destReal, ...parts);
    if (!isPathInside(resolved, destReal)) {
      throw new SkillsError("ARCHIVE_UNSAFE", `Zip entry escapes destination: '${entry.name}'`, {
        details: { member: entry.name },
      });
    }
    return parts;
  });
}

/** Creates `parts` under `dest` one level at a time, refusing anything that is not a real directory. */
async function ensureDirectories(
  dest: string,
  parts: readonly string[],
  made: Set<string>,
  name: string,
): Promise<void> {
  let current = dest;
  for (const part of parts) {
    current = path.join(current, part);
    if (made.has(current)) continue;
    try {
      await mkdir(current, { mode: 0o755 });
    } catch (err) {
      if (errnoCode(err) !== "EEXIST") throw err;
      const st = await lstat(current);
      if (!st.isDirectory() || st.isSymbolicLink()) throw conflicting(name);
    }
    made.add(current);
  }
}

/** Counts real bytes, enforces the caps and checks the executable magic on the first bytes. */
class MemberGuard extends Transform {
  private fileBytes = 0;
  private head: Buffer[] = [];
  private headLength = 0;
  private probed = false;

  constructor(
    private readonly name: string,
    private readonly totals: { bytes: number },
    private readonly maxFileBytes: number,
    private readonly maxTotalBytes: number,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.fileBytes += chunk.length;
    this.totals.bytes += chunk.length;
    if (this.totals.bytes > this.maxTotalBytes) return callback(tooLarge(this.name, "total"));
    if (this.fileBytes > this.maxFileBytes) return callback(tooLarge(this.name, "file"));
    if (this.probed) return callback(null, chunk);
    this.head.push(chunk);
    this.headLength += chunk.length;
    if (this.headLength < MAGIC_PROBE_BYTES) return callback();
    this.releaseHead(callback);
  }

  override _flush(callback: TransformCallback): void {
    if (this.probed || this.headLength === 0) return callback();
    this.releaseHead(callback);
  }

  private releaseHead(callback: TransformCallback): void {
    const head = Buffer.concat(this.head, this.headLength);
    this.head = [];
    this.probed = true;
    if (executableKind(head) !== null) {
      return callback(
        new SkillsError("ARCHIVE_UNSAFE", `Archive contains executable binary member: '${this.name}'`, {
          details: { member: this.name },
        }),
      );
    }
    callback(null, head);
  }
}

/**
 * Extracts an opened archive into `dest`, an existing empty directory the
 * caller owns. On failure `dest` may hold partial output: remove it (as
 * {@link safeExtractSkillArchive} does).
 *
 * @param archive - from {@link openSkillArchive}; not closed by this function.
 * @param dest - destination directory.
 * @param options - caps, logger and abort signal.
 * @returns what was written.
 * @throws SkillsError `ARCHIVE_UNSAFE` (unsafe name, escaping path, executable
 *   member), `ARCHIVE_TOO_LARGE` (caps), `ARCHIVE_INVALID` (duplicate or
 *   conflicting member, corrupt data).
 */
export async function extractArchive(
  archive: OpenedArchive,
  dest: string,
  options: ExtractOptions = {},
): Promise<ExtractResult> {
  const logger = options.logger ?? silentLogger;
  const maxTotalBytes = options.maxTotalBytes ?? MAX_ARCHIVE_TOTAL_BYTES;
  const maxFileBytes = options.maxFileBytes ?? MAX_ARCHIVE_FILE_BYTES;
  const destReal = await realpath(dest);
  const plan = planMembers(archive.entries, destReal);

  // Honest size fields let a plain bomb fail before a single byte is written;
  // the streaming guard below catches the forged ones.
  let declared = 0;
  for (const entry of archive.entries) {
    if (entry.isSymlink || entry.isDirectory) continue;
    if (entry.declaredSize > maxFileBytes) throw tooLarge(entry.name, "file");
    declared += entry.declaredSize;
    if (declared > maxTotalBytes) throw tooLarge(entry.name, "total");
  }

  const made = new Set<string>();
  const totals = { bytes: 0 };
  const skippedSymlinks: string[] = [];
  let files = 0;
  for (const [index, entry] of archive.entries.entries()) {
    options.signal?.throwIfAborted();
    const parts = plan[index] ?? [];
    if (entry.isSymlink) {
      skippedSymlinks.push(entry.name);
      logger.warn({ member: entry.name }, "Skipping symlink member of skill archive");
      continue;
    }
    if (parts.length === 0) continue;
    if (entry.isDirectory) {
      await ensureDirectories(destReal, parts, made, entry.name);
      continue;
    }
    await ensureDirectories(destReal, parts.slice(0, -1), made, entry.name);
    const target = path.join(destReal, ...parts);
    let handle;
    try {
      handle = await open(target, CREATE_FLAGS, entry.isExecutable ? 0o755 : 0o644);
    } catch (err) {
      const code = errnoCode(err);
      if (code === "EEXIST" || code === "ELOOP" || code === "EISDIR" || code === "ENOTDIR")
        throw conflicting(entry.name);
      throw err;
    }
    const output = handle.createWriteStream();
    const guard = new MemberGuard(entry.name, totals, maxFileBytes, maxTotalBytes);
    try {
      await pipeline(archive.openEntry(entry), guard, output, options.signal ? { signal: options.signal } : {});
    } catch (err) {
      if (SkillsError.isInstance(err) || (err instanceof Error && err.name === "AbortError")) throw err;
      throw new SkillsError("ARCHIVE_INVALID", `Archive member could not be decompressed: '${entry.name}'`, {
        cause: err,
        details: { member: entry.name },
      });
    }
    files += 1;
  }
  return { files, bytes: totals.bytes, skippedSymlinks };
}

/**
 * Opens `file` and extracts it into `dest`, which must not exist yet: it is
 * created (mode 0700) and removed again if anything fails, so a rejected
 * archive leaves nothing behind.
 *
 * @param file - path of the zip archive.
 * @param dest - directory to create and fill.
 * @param options - caps, logger and abort signal.
 * @returns what was written.
 * @throws SkillsError as {@link openSkillArchive} and {@link extractArchive} do.
 * @example
 * ```ts
 * await safeExtractSkillArchive("demo.skill", path.join(tmp, "out"), { logger });
 * ```
 */
export async function safeExtractSkillArchive(
  file: string,
  dest: string,
  options: ExtractOptions = {},
): Promise<ExtractResult> {
  const archive = await openSkillArchive(file, options);
  try {
    await mkdir(dest, { mode: 0o700 });
    try {
      return await extractArchive(archive, dest, options);
    } catch (err) {
      archive.close();
      await rm(dest, { recursive: true, force: true });
      throw err;
    }
  } finally {
    archive.close();
  }
}
