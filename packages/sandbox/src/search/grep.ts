/**
 * `grep` over a host file or directory tree with DeerFlow's rules: skip files
 * over 1,000,000 bytes, binary files (NUL in the first 8 KiB), lines over 2000
 * characters (a guard against pathological regexes on minified files),
 * symlinks under a directory root, and ignored names; matched lines are cut to
 * 200 characters (`197 + "..."`); case-insensitive by default. Files are read
 * line by line, so memory stays bounded whatever their size.
 */
import type { FileHandle } from "node:fs/promises";
import type { Logger } from "../logger.js";
import { silentLogger } from "../logger.js";
import { SandboxError } from "../errors.js";
import {
  BINARY_PROBE_BYTES,
  DEFAULT_GREP_RESULTS,
  GREP_MATCH_DISPLAY_CHARS,
  GREP_MAX_FILE_BYTES,
  GREP_MAX_LINE_CHARS,
  MAX_GREP_RESULTS,
} from "../limits.js";
import type { DirHandle } from "../paths/dir-handle.js";
import { openRegularFile } from "../paths/safe-open.js";
import { compileGlob, type GlobMatcher } from "./glob-pattern.js";
import { escapeRegExp } from "./ignore.js";
import { collector, effectiveMaxResults, type CappedResult } from "./result-cap.js";
import { isBinaryFile, readLines } from "./text-file.js";
import { walkTree } from "./walk.js";

/** Options of {@link grepFiles}. */
export interface GrepFilesOptions {
  /** Only search files whose relative path matches this glob; one without `/` matches file names at any depth. */
  readonly glob?: string;
  /** Treat the pattern as literal text. */
  readonly literal?: boolean;
  /** Default false. */
  readonly caseSensitive?: boolean;
  /** Default 100, capped at 500; `<= 0` means the default. */
  readonly maxResults?: number;
  /** Relative paths to leave out with their subtrees (nested mount points). */
  readonly omit?: (relativePath: string) => boolean;
  /** Prepended (with `/`) to relative paths before glob filtering and in results. */
  readonly pathPrefix?: string;
  readonly logger?: Logger;
}

/** One match found by {@link grepFiles}. */
export interface HostGrepMatch {
  /** POSIX path relative to the root; `""` when the root is the file itself. */
  readonly relativePath: string;
  /** 1-based line number. */
  readonly line: number;
  /** The line, cut to 200 characters. */
  readonly text: string;
}

/**
 * Searches file contents under the directory `root` (or in one open file).
 *
 * @param root - An open directory, or an open regular file and its name (neither is closed here).
 * @param pattern - A JavaScript regular expression (a leading `(?i)` is
 *   accepted), or literal text with `literal`.
 * @param options - Filters, case, cap.
 * @returns Matches in path then line order, and whether more existed.
 * @throws {@link SandboxError} `INVALID_ARGUMENT` (`Invalid regex pattern: <detail>`,
 *   or a malformed `glob`).
 * @example
 * const { matches } = await grepFiles(dir, "TODO", { glob: "**" + "/*.ts" });
 */
export async function grepFiles(
  root: DirHandle | GrepFileRoot,
  pattern: string,
  options: GrepFilesOptions = {},
): Promise<CappedResult<HostGrepMatch>> {
  const regex = compileSearchRegex(pattern, options.literal === true, options.caseSensitive === true);
  const filter = options.glob === undefined ? undefined : compileGlob(options.glob, { matchBase: true });
  const cap = effectiveMaxResults(options.maxResults, DEFAULT_GREP_RESULTS, MAX_GREP_RESULTS);
  const results = collector<HostGrepMatch>(cap);
  const logger = options.logger ?? silentLogger;
  const prefix = options.pathPrefix ?? "";
  const push = (match: HostGrepMatch): boolean => results.push(match);

  if (!isDirHandle(root)) {
    // A single-file root: the glob filter sees its name, as DeerFlow's does.
    if (matchesFilter(filter, root.name)) {
      await searchHandle(root.file, "", regex, push).catch((err: unknown) => {
        logger.debug({ code: (err as NodeJS.ErrnoException).code }, "grep stopped reading a file");
      });
    }
    return results.result();
  }
  const walkOptions = {
    ...(options.omit === undefined ? {} : { omit: options.omit }),
    logger,
  };
  // Files are searched a chunk at a time, concurrently (the cost per file is
  // I/O latency, not CPU), and their matches are added in walk order, so the
  // result is the same as a sequential search. Each queued file keeps its
  // directory open (retained) until it has been searched.
  let chunk: { parent: DirHandle; name: string; relativePath: string }[] = [];
  const flush = async (): Promise<boolean> => {
    const files = chunk;
    chunk = [];
    const perFile = await Promise.all(
      files.map(async (file) => {
        const found: HostGrepMatch[] = [];
        try {
          await searchFile(file.parent, file.name, file.relativePath, regex, (m) => found.push(m) <= cap, logger);
        } finally {
          await file.parent.close().catch(() => undefined);
        }
        return found;
      }),
    );
    for (const found of perFile) for (const match of found) if (!results.push(match)) return false;
    return true;
  };
  try {
    for await (const entry of walkTree(root, walkOptions)) {
      // Symlinks under a directory root are skipped outright, as DeerFlow does.
      if (entry.kind !== "file") continue;
      const relativePath = prefix === "" ? entry.relativePath : `${prefix}/${entry.relativePath}`;
      if (!matchesFilter(filter, relativePath)) continue;
      chunk.push({ parent: entry.parent.retain(), name: entry.name, relativePath });
      if (chunk.length >= GREP_CHUNK_FILES && !(await flush())) return results.result();
    }
    if (chunk.length > 0) await flush();
  } finally {
    await Promise.all(chunk.map((file) => file.parent.close().catch(() => undefined)));
  }
  return results.result();
}

/** An open regular file searched on its own, and the name the glob filter sees. */
export interface GrepFileRoot {
  readonly file: FileHandle;
  readonly name: string;
}

function isDirHandle(root: DirHandle | GrepFileRoot): root is DirHandle {
  return !("file" in root);
}

/**
 * Compiles the grep pattern.
 *
 * @param pattern - Regex source or literal text.
 * @param literal - Escape the pattern.
 * @param caseSensitive - Otherwise the `i` flag is set (also by a leading `(?i)`).
 * @returns The regex (no `g` flag, so `test` is stateless).
 * @throws {@link SandboxError} `INVALID_ARGUMENT` with `Invalid regex pattern: <detail>`.
 */
export function compileSearchRegex(pattern: string, literal: boolean, caseSensitive: boolean): RegExp {
  let source = literal ? escapeRegExp(pattern) : pattern;
  let ignoreCase = !caseSensitive;
  if (!literal && source.startsWith("(?i)")) {
    source = source.slice(4);
    ignoreCase = true;
  }
  try {
    return new RegExp(source, ignoreCase ? "i" : "");
  } catch (err) {
    const detail = err instanceof Error ? err.message : String(err);
    throw new SandboxError("INVALID_ARGUMENT", `Invalid regex pattern: ${detail}`);
  }
}

/**
 * Cuts a matched line to 200 characters (197 + `...`), counting code points
 * so a surrogate pair is never split.
 *
 * @param line - The matched line.
 * @returns The display text.
 */
export function truncateMatchLine(line: string): string {
  if (line.length <= GREP_MATCH_DISPLAY_CHARS) return line;
  const codePoints = Array.from(line);
  if (codePoints.length <= GREP_MATCH_DISPLAY_CHARS) return line;
  return `${codePoints.slice(0, GREP_MATCH_DISPLAY_CHARS - 3).join("")}...`;
}

function matchesFilter(filter: GlobMatcher | undefined, relativePath: string): boolean {
  return filter === undefined || filter(relativePath);
}

/** Opens and searches one file of a walk; returns false once the collector is full. Unreadable files are skipped. */
async function searchFile(
  parent: DirHandle,
  name: string,
  relativePath: string,
  regex: RegExp,
  push: (match: HostGrepMatch) => boolean,
  logger: Logger,
): Promise<boolean> {
  let handle;
  try {
    // O_NOFOLLOW: a file swapped for a symlink since the listing is skipped, not followed.
    handle = await openRegularFile(parent, name, "read");
  } catch (err) {
    logger.debug({ code: (err as NodeJS.ErrnoException).code }, "grep skipped a file it could not open");
    return true;
  }
  try {
    return await searchHandle(handle, relativePath, regex, push);
  } catch (err) {
    logger.debug({ code: (err as NodeJS.ErrnoException).code }, "grep stopped reading a file");
    return true;
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** Searches an open file; returns false once the collector is full. */
async function searchHandle(
  handle: FileHandle,
  relativePath: string,
  regex: RegExp,
  push: (match: HostGrepMatch) => boolean,
): Promise<boolean> {
  const { size } = await handle.stat();
  if (size > GREP_MAX_FILE_BYTES) return true;
  const fast = await searchWholeText(handle, size, regex, relativePath, push);
  if (fast !== undefined) return fast;
  if (await isBinaryFile(handle)) return true;
  // 4 bytes per character at most: anything longer is over the character limit too.
  for await (const line of readLines(handle, { maxLineBytes: GREP_MAX_LINE_CHARS * 4 })) {
    if (line.text === undefined || line.text.length > GREP_MAX_LINE_CHARS) continue;
    if (!regex.test(line.text)) continue;
    if (!push({ relativePath, line: line.number, text: truncateMatchLine(line.text) })) return false;
  }
  return true;
}

/** Files searched concurrently per chunk. */
const GREP_CHUNK_FILES = 32;

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });
const LOOKAROUND = /\(\?<?[=!]/;
const multilineCache = new WeakMap<RegExp, RegExp | null>();

/**
 * Fast path for the common case: most files do not match, and one multiline
 * test over the whole text rejects them without splitting lines. Only used
 * when it cannot disagree with the line-by-line search: valid UTF-8, no `\r`
 * (a line-end `$` would see it), and no lookaround in the pattern (it could
 * look across a newline). The file is read once (binary probe included).
 * Returns `undefined` to fall back to line reading.
 */
async function searchWholeText(
  handle: FileHandle,
  size: number,
  regex: RegExp,
  relativePath: string,
  push: (match: HostGrepMatch) => boolean,
): Promise<boolean | undefined> {
  let multiline = multilineCache.get(regex);
  if (multiline === undefined) {
    multiline = LOOKAROUND.test(regex.source) ? null : new RegExp(regex.source, `${regex.flags}m`);
    multilineCache.set(regex, multiline);
  }
  if (multiline === null) return undefined;
  const buffer = Buffer.alloc(size);
  let length = 0;
  while (length < size) {
    const { bytesRead } = await handle.read(buffer, length, size - length, length);
    if (bytesRead === 0) break;
    length += bytesRead;
  }
  // The same binary probe as isBinaryFile, on the bytes already read.
  if (buffer.subarray(0, Math.min(length, BINARY_PROBE_BYTES)).includes(0)) return true;
  let text: string;
  try {
    text = strictUtf8.decode(buffer.subarray(0, length));
  } catch {
    return undefined;
  }
  if (text.includes("\r")) return undefined;
  if (!multiline.test(text)) return true;
  const lines = text.split("\n");
  if (text.endsWith("\n")) lines.pop();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.length > GREP_MAX_LINE_CHARS || !regex.test(line)) continue;
    if (!push({ relativePath, line: i + 1, text: truncateMatchLine(line) })) return false;
  }
  return true;
}
