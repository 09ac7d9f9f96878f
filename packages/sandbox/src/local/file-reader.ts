/**
 * Reading files behind virtual paths: UTF-8 text (whole, or a streamed line
 * range) and raw bytes, each under a size cap. The file is opened relative
 * to its parent directory as the resolver holds it, never by host path.
 */
import type { FileHandle } from "node:fs/promises";
import { SandboxError } from "../errors.js";
import { MAX_READ_BYTES } from "../limits.js";
import type { MountResolver } from "../paths/mount-resolver.js";
import { openRegularFile } from "../paths/safe-open.js";
import type { ReadFileOptions } from "../sandbox.js";
import { isBinaryFile, readLines } from "../search/text-file.js";

/** The TOO_LARGE message of `readBytes` (DeerFlow's download cap). */
const READ_BYTES_TOO_LARGE_MESSAGE = `File exceeds maximum download size of ${MAX_READ_BYTES} bytes`;

/**
 * Checks a line range: both ends integers `>= 1`, start not after end.
 *
 * @param options - The range.
 * @throws {@link SandboxError} `INVALID_ARGUMENT` naming the bad bound.
 */
export function validateLineRange(options: ReadFileOptions): void {
  const { startLine, endLine } = options;
  if (startLine !== undefined && !(Number.isInteger(startLine) && startLine >= 1)) {
    throw new SandboxError("INVALID_ARGUMENT", `startLine must be an integer >= 1, got ${String(startLine)}`);
  }
  if (endLine !== undefined && !(Number.isInteger(endLine) && endLine >= 1)) {
    throw new SandboxError("INVALID_ARGUMENT", `endLine must be an integer >= 1, got ${String(endLine)}`);
  }
  if (startLine !== undefined && endLine !== undefined && startLine > endLine) {
    throw new SandboxError(
      "INVALID_ARGUMENT",
      `startLine (${startLine}) must not be greater than endLine (${endLine})`,
    );
  }
}

/**
 * Reads a text file. Without a range the content comes back verbatim (line
 * endings included); with one, lines `startLine..endLine` are streamed (lines
 * before the range are skipped undecoded, reading stops after it) and joined
 * with `\n`, without a trailing newline.
 *
 * @param resolver - The sandbox's mounts.
 * @param virtualPath - The file.
 * @param options - Optional 1-based inclusive range (already validated).
 * @returns The text.
 * @throws {@link SandboxError} `NOT_FOUND` (`File not found: <path>`), `IS_A_DIRECTORY`,
 *   `INVALID_ARGUMENT` for binary files, `TOO_LARGE` past 100 MiB of text, path errors.
 */
export function readTextFile(
  resolver: MountResolver,
  virtualPath: string,
  options: ReadFileOptions = {},
): Promise<string> {
  return withReadHandle(resolver, virtualPath, (handle, shownPath) => readText(handle, shownPath, options));
}

async function readText(handle: FileHandle, virtualPath: string, options: ReadFileOptions): Promise<string> {
  if (await isBinaryFile(handle)) throw binaryFileError(virtualPath);
  if (options.startLine === undefined && options.endLine === undefined) {
    if ((await handle.stat()).size > MAX_READ_BYTES) throw textTooLarge(virtualPath);
    return (await handle.readFile()).toString("utf8");
  }
  const lines: string[] = [];
  let total = 0;
  const range = {
    maxLineBytes: MAX_READ_BYTES,
    ...(options.startLine === undefined ? {} : { startLine: options.startLine }),
    ...(options.endLine === undefined ? {} : { endLine: options.endLine }),
  };
  for await (const line of readLines(handle, range)) {
    if (line.text === undefined) throw textTooLarge(virtualPath);
    total += line.text.length + 1;
    if (total > MAX_READ_BYTES) throw textTooLarge(virtualPath);
    lines.push(line.text);
  }
  return lines.join("\n");
}

/**
 * Reads a file's bytes, refusing anything over 100 MiB (also when the file
 * grows while being read).
 *
 * @param resolver - The sandbox's mounts.
 * @param virtualPath - The file.
 * @returns The bytes.
 * @throws {@link SandboxError} `TOO_LARGE` with DeerFlow's message, `NOT_FOUND`, `IS_A_DIRECTORY`, path errors.
 */
export function readFileBytes(resolver: MountResolver, virtualPath: string): Promise<Uint8Array> {
  return withReadHandle(resolver, virtualPath, readBytesOf);
}

async function readBytesOf(handle: FileHandle, virtualPath: string): Promise<Uint8Array> {
  const { size } = await handle.stat();
  if (size > MAX_READ_BYTES) throw bytesTooLarge(virtualPath);
  // One byte more than expected, so a file that grew past the cap since stat() is still refused.
  // Buffer.alloc is never pooled: the returned view's `.buffer` holds nothing but this file.
  const capacity = Math.min(size, MAX_READ_BYTES) + 1;
  const buffer = Buffer.alloc(capacity);
  let length = 0;
  while (length < capacity) {
    const { bytesRead } = await handle.read(buffer, length, capacity - length, length);
    if (bytesRead === 0) break;
    length += bytesRead;
  }
  if (length > MAX_READ_BYTES) throw bytesTooLarge(virtualPath);
  return new Uint8Array(buffer.buffer, buffer.byteOffset, length);
}

/** Opens the regular file at `virtualPath` (links followed inside the mount) and runs `read` on it. */
function withReadHandle<T>(
  resolver: MountResolver,
  virtualPath: string,
  read: (handle: FileHandle, virtualPath: string) => Promise<T>,
): Promise<T> {
  return resolver.withEntry(
    virtualPath,
    "read",
    async (entry) => {
      const handle = await openRegularFile(entry.dir, entry.name, "read");
      try {
        return await read(handle, entry.virtualPath);
      } finally {
        await handle.close().catch(() => undefined);
      }
    },
    { target: "file" },
  );
}

/**
 * The error for reading a binary file as text (DeerFlow's `read_file` wording).
 *
 * @param virtualPath - The file.
 * @returns An `INVALID_ARGUMENT` error.
 */
function binaryFileError(virtualPath: string): SandboxError {
  return new SandboxError(
    "INVALID_ARGUMENT",
    `cannot read '${virtualPath}' as text — it appears to be a binary file (e.g. .xlsx, .pdf, or an image). ` +
      "read_file only supports UTF-8 text. Use bash with a suitable library instead (pandas/openpyxl for spreadsheets), " +
      "or view_image for images.",
    { path: virtualPath },
  );
}

function textTooLarge(virtualPath: string): SandboxError {
  return new SandboxError(
    "TOO_LARGE",
    `File exceeds maximum read size of ${MAX_READ_BYTES} bytes; read a line range instead: ${virtualPath}`,
    { path: virtualPath },
  );
}

function bytesTooLarge(virtualPath: string): SandboxError {
  return new SandboxError("TOO_LARGE", READ_BYTES_TOO_LARGE_MESSAGE, { path: virtualPath });
}
