/**
 * Shared-secret check of the `X-API-Key` header.
 */
import { createHash, timingSafeEqual } from "node:crypto";

function digest(value: string): Buffer {
  return createHash("sha256").update(value, "utf8").digest();
}

/**
 * Compares a presented key with the expected one in constant time. Both are
 * hashed first so the comparison takes the same time whatever their lengths
 * (`timingSafeEqual` itself throws on a length mismatch, which would leak it).
 *
 * @param presented - The header value (`undefined` or an array when absent or repeated).
 * @param expected - The configured key.
 * @returns True only for exactly one header whose value equals `expected`.
 */
export function apiKeyMatches(presented: string | readonly string[] | undefined, expected: string): boolean {
  if (typeof presented !== "string") return false;
  return timingSafeEqual(digest(presented), digest(expected));
}
