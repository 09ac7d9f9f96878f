/**
 * Reading text files in bounded memory: a binary probe (a NUL in the first
 * 8 KiB, as DeerFlow) and a line reader that skips unwanted lines by scanning
 * bytes for `\n`, without decoding or keeping them, and stops as soon as the
 * requested range is done.
 */
import type { FileHandle } from "node:fs/promises";
import { BINARY_PROBE_BYTES } from "../limits.js";

/** Bytes read from the file per `read` call. */
const CHUNK_BYTES = 64 * 1024;

/**
 * True when the first {@link BINARY_PROBE_BYTES} bytes of the file contain a NUL.
 *
 * @param handle - An open file (its position is not used).
 * @returns Whether the file looks binary.
 */
export async function isBinaryFile(handle: FileHandle): Promise<boolean> {
  const probe = Buffer.alloc(BINARY_PROBE_BYTES);
  const { bytesRead } = await handle.read(probe, 0, probe.length, 0);
  return probe.subarray(0, bytesRead).includes(0);
}

/** Options of {@link readLines}. */
export interface ReadLinesOptions {
  /** First line to yield (1-based). Earlier lines are skipped undecoded. Default 1. */
  readonly startLine?: number;
  /** Last line to yield; nothing after it is read. Default: to the end. */
  readonly endLine?: number;
  /** A longer line is yielded with `text: undefined` and never held in memory. Default unlimited. */
  readonly maxLineBytes?: number;
}

/** One line of a file. */
export interface TextLine {
  /** 1-based line number. */
  readonly number: number;
  /** The line decoded as UTF-8 (invalid bytes → U+FFFD), without `\n` or a trailing `\r`;
   * `undefined` when the line exceeded `maxLineBytes`. */
  readonly text: string | undefined;
}

/**
 * Yields a file's lines. A final line without `\n` counts; the empty string
 * after a trailing `\n` does not (as Python's line iteration).
 *
 * @param handle - An open file, read from offset 0.
 * @param options - Range and per-line memory bound.
 * @yields The lines in `[startLine, endLine]`.
 * @example
 * for await (const line of readLines(handle, { startLine: 3, endLine: 5 })) console.log(line.text);
 */
export async function* readLines(handle: FileHandle, options: ReadLinesOptions = {}): AsyncGenerator<TextLine> {
  const start = options.startLine ?? 1;
  const end = options.endLine ?? Number.POSITIVE_INFINITY;
  const maxLineBytes = options.maxLineBytes ?? Number.POSITIVE_INFINITY;
  if (end < start) return;
  const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  let lineNumber = 1;
  let parts: Buffer[] = [];
  let lineBytes = 0;
  let pending = false;
  let overlong = false;
  let position = 0;
  const take = (): TextLine => {
    const text = overlong ? undefined : stripCarriageReturn(Buffer.concat(parts, lineBytes).toString("utf8"));
    const line = { number: lineNumber, text };
    parts = [];
    lineBytes = 0;
    pending = false;
    overlong = false;
    return line;
  };
  for (;;) {
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    const data = chunk.subarray(0, bytesRead);
    let offset = 0;
    while (offset < bytesRead) {
      const newline = data.indexOf(10, offset);
      const stop = newline === -1 ? bytesRead : newline;
      if (lineNumber >= start) {
        pending = true;
        if (!overlong) {
          lineBytes += stop - offset;
          if (lineBytes > maxLineBytes) {
            overlong = true;
            parts = [];
          } else if (stop > offset) {
            // Copy: `chunk` is reused by the next read.
            parts.push(Buffer.from(data.subarray(offset, stop)));
          }
        }
      }
      if (newline === -1) break;
      if (lineNumber >= start) yield take();
      lineNumber++;
      if (lineNumber > end) return;
      offset = newline + 1;
    }
  }
  if (pending && (lineBytes > 0 || overlong) && lineNumber >= start) yield take();
}

function stripCarriageReturn(line: string): string {
  return line.endsWith("\r") ? line.slice(0, -1) : line;
}
