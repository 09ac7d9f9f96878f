/**
 * HTTP byte ranges (RFC 9110 §14): which part of a file a `Range` header asks
 * for, and whether an `If-Range` validator still allows a partial answer.
 */
import type { ByteRange } from "./thread-files.js";

/** What to answer: the whole file (200), one range (206) or nothing (416). */
export type RangeDecision =
  | { readonly kind: "full" }
  | { readonly kind: "partial"; readonly range: ByteRange }
  | { readonly kind: "unsatisfiable" };

const FULL: RangeDecision = { kind: "full" };
const UNSATISFIABLE: RangeDecision = { kind: "unsatisfiable" };
const SPEC = /^(\d*)-(\d*)$/;

/**
 * Decides a `Range` header against a file of `size` bytes.
 *
 * - `bytes=100-199`, `bytes=100-` (to the end), `bytes=-500` (the last 500
 *   bytes; the whole file when shorter): one range, its end clipped to the file.
 * - A first byte at or past the end, `bytes=-0`, or any range of an empty
 *   file: unsatisfiable (416).
 * - No header, another unit, a malformed or backwards range (`bytes=5-2`):
 *   ignored, as RFC 9110 requires, so the whole file.
 * - Several ranges (`bytes=0-1,5-6`): the whole file; multipart/byteranges
 *   answers are not made (the RFC lets a server ignore `Range`, and it keeps
 *   one request from fanning out into many reads).
 *
 * @param header - the `Range` header, if any.
 * @param size - the file's size in bytes.
 * @returns the decision.
 * @example
 * ```ts
 * parseByteRange("bytes=-500", 2000); // { kind: "partial", range: { start: 1500, end: 1999 } }
 * ```
 */
export function parseByteRange(header: string | undefined, size: number): RangeDecision {
  if (header === undefined) return FULL;
  const eq = header.indexOf("=");
  if (eq < 0 || header.slice(0, eq).trim().toLowerCase() !== "bytes") return FULL;
  const specs = header
    .slice(eq + 1)
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  if (specs.length !== 1) return FULL;
  const match = SPEC.exec(specs[0] ?? "");
  if (match === null) return FULL;
  const [, first = "", last = ""] = match;
  if (first === "" && last === "") return FULL;
  if (first === "") {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return UNSATISFIABLE;
    return { kind: "partial", range: { start: Math.max(size - suffix, 0), end: size - 1 } };
  }
  const start = Number(first);
  if (last !== "" && Number(last) < start) return FULL;
  if (start >= size) return UNSATISFIABLE;
  return { kind: "partial", range: { start, end: last === "" ? size - 1 : Math.min(Number(last), size - 1) } };
}

/**
 * A strong entity tag for a file version: its size and modification time
 * (what `ETag` carries and `If-Range` echoes).
 *
 * @param size - bytes.
 * @param modified - last modification.
 * @returns e.g. `"1f4-18c2a4b1e00"`.
 */
export function entityTag(size: number, modified: Date): string {
  return `"${size.toString(16)}-${Math.trunc(modified.getTime()).toString(16)}"`;
}

/**
 * Whether a `Range` may be honoured under `If-Range` (RFC 9110 §13.1.5): no
 * `If-Range`, an entity tag equal to the current strong one, or a date equal
 * to the current `Last-Modified`. Otherwise the file changed since the client
 * got its first part, and the whole new file is sent.
 *
 * @param ifRange - the `If-Range` header, if any.
 * @param etag - the current {@link entityTag}.
 * @param lastModified - the current `Last-Modified` value.
 * @returns true when a partial answer is allowed.
 */
export function ifRangeAllows(ifRange: string | undefined, etag: string, lastModified: string): boolean {
  if (ifRange === undefined) return true;
  const value = ifRange.trim();
  // A weak tag (W/"...") never matches: If-Range requires strong comparison.
  return value === etag || value === lastModified;
}
