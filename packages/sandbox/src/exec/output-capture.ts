/**
 * Bounded capture of one output stream of a command.
 *
 * A command can print without end (`yes`), so a stream is drained for as long
 * as the process lives but only the first `maxBytes` are kept; the rest is
 * counted and dropped. This mirrors DeerFlow's `_BoundedPipeCapture`, with one
 * improvement: a multi-byte UTF-8 character cut by the cap is dropped whole
 * instead of decoding to U+FFFD.
 */

/**
 * DeerFlow's truncation notice, including its leading newline.
 *
 * @param keptBytes - bytes returned to the caller.
 * @param totalBytes - bytes the stream produced.
 * @returns `"\n... [output truncated after {kept} of {total} bytes; remaining output discarded] ..."`.
 */
export function truncationNotice(keptBytes: number, totalBytes: number): string {
  return `\n... [output truncated after ${keptBytes} of ${totalBytes} bytes; remaining output discarded] ...`;
}

/**
 * Length of `bytes` once an incomplete UTF-8 sequence at its end is removed.
 * Only a sequence that is a valid-looking prefix of a longer character is
 * removed; stray continuation bytes stay (they decode to U+FFFD like any other
 * invalid byte).
 *
 * @param bytes - the kept prefix of a stream.
 * @returns an index at a character boundary, at most `bytes.length`.
 */
export function utf8BoundaryLength(bytes: Uint8Array): number {
  const end = bytes.length;
  // A UTF-8 character is at most 4 bytes: look back over up to 3 continuation bytes.
  for (let back = 1; back <= Math.min(4, end); back += 1) {
    const byte = bytes[end - back] as number;
    if ((byte & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead
    const expected = byte >= 0xf0 && byte <= 0xf4 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc2 && byte < 0xe0 ? 2 : 1;
    return expected > back ? end - back : end;
  }
  return end;
}

/** A snapshot of what a capture kept. */
export interface CapturedOutput {
  /** The kept bytes decoded as UTF-8 (invalid bytes → U+FFFD), without any notice. */
  readonly text: string;
  /** Bytes behind {@link text}. */
  readonly keptBytes: number;
  /** Bytes the stream produced in all. */
  readonly totalBytes: number;
  /** True when bytes were discarded. */
  readonly truncated: boolean;
}

/**
 * Accumulates at most `maxBytes` of a stream.
 *
 * @example
 * ```ts
 * const capture = new OutputCapture(10 * 1024 * 1024);
 * child.stdout.on("data", (chunk: Buffer) => capture.write(chunk));
 * // ...after exit:
 * const { text, truncated, keptBytes, totalBytes } = capture.result();
 * ```
 */
export class OutputCapture {
  readonly #maxBytes: number;
  readonly #chunks: Uint8Array[] = [];
  #retained = 0;
  #total = 0;

  /**
   * @param maxBytes - bytes to keep (0 keeps nothing but still counts).
   * @throws RangeError when `maxBytes` is negative or not an integer.
   */
  constructor(maxBytes: number) {
    if (!Number.isInteger(maxBytes) || maxBytes < 0)
      throw new RangeError(`maxBytes must be a non-negative integer, got ${maxBytes}`);
    this.#maxBytes = maxBytes;
  }

  /**
   * Counts a chunk and keeps the part of it that still fits. The chunk is
   * copied when only a slice is kept, so a large discarded tail is never
   * pinned in memory.
   *
   * @param chunk - bytes read from the stream.
   */
  write(chunk: Uint8Array): void {
    this.#total += chunk.length;
    const room = this.#maxBytes - this.#retained;
    if (room <= 0 || chunk.length === 0) return;
    const kept = chunk.length <= room ? chunk : Uint8Array.prototype.slice.call(chunk, 0, room);
    this.#chunks.push(kept);
    this.#retained += kept.length;
  }

  /**
   * Counts bytes the stream produced that were dropped before they reached
   * this capture (the sandbox executor forwards only the bytes that fit).
   *
   * @param bytes - how many were dropped.
   * @throws RangeError when `bytes` is negative or not an integer.
   */
  countDiscarded(bytes: number): void {
    if (!Number.isSafeInteger(bytes) || bytes < 0)
      throw new RangeError(`discarded bytes must be a non-negative integer, got ${bytes}`);
    this.#total += bytes;
  }

  /** Bytes seen so far. */
  get totalBytes(): number {
    return this.#total;
  }

  /** Bytes held in memory (never more than `maxBytes`). */
  get retainedBytes(): number {
    return this.#retained;
  }

  /** True once more bytes arrived than fit. */
  get truncated(): boolean {
    return this.#total > this.#retained;
  }

  /**
   * Decodes what was kept.
   *
   * @returns the decoded text and counters; see {@link CapturedOutput}.
   */
  result(): CapturedOutput {
    const joined = Buffer.concat(this.#chunks, this.#retained);
    const truncated = this.truncated;
    // Only a cut made by the cap can split a character; an incomplete
    // sequence at the real end of the stream is genuinely invalid output.
    const keptBytes = truncated ? utf8BoundaryLength(joined) : joined.length;
    const text = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true }).decode(joined.subarray(0, keptBytes));
    return { text, keptBytes, totalBytes: this.#total, truncated };
  }

  /**
   * The kept text with DeerFlow's notice appended when bytes were discarded.
   *
   * @returns the text a caller shows.
   */
  text(): string {
    const { text, keptBytes, totalBytes, truncated } = this.result();
    return truncated ? text + truncationNotice(keptBytes, totalBytes) : text;
  }
}
