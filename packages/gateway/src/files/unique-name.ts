/**
 * DeerFlow's `_N` renaming of same-named files in one upload request
 * (`data.txt`, `data_1.txt`, `data_2.txt`), so that no file of a request
 * silently replaces another.
 */
import path from "node:path";
import { GatewayError } from "../errors.js";
import { MAX_FILENAME_BYTES } from "./safe-filename.js";

/** Cuts `text` to at most `maxBytes` UTF-8 bytes without splitting a character. */
function truncateUtf8(text: string, maxBytes: number): string {
  let out = "";
  let bytes = 0;
  for (const char of text) {
    const size = Buffer.byteLength(char, "utf8");
    if (bytes + size > maxBytes) break;
    out += char;
    bytes += size;
  }
  return out;
}

/**
 * Claims a name not yet in `claimed`: `name` itself, else `<stem>_<n><ext>`
 * with the smallest free `n` from 1 (the extension is the last one:
 * `a.tar.gz` → `a.tar_1.gz`). The stem is shortened when the result would
 * pass {@link MAX_FILENAME_BYTES}.
 *
 * @param name - a safe file name.
 * @param claimed - names already used by the request; the result is added to it.
 * @returns the claimed name.
 * @throws GatewayError `INVALID_FILENAME` when the extension leaves no room for a suffix.
 * @example
 * ```ts
 * const claimed = new Set<string>();
 * claimUniqueName("data.txt", claimed); // "data.txt"
 * claimUniqueName("data.txt", claimed); // "data_1.txt"
 * ```
 */
export function claimUniqueName(name: string, claimed: Set<string>): string {
  let candidate = name;
  const ext = path.posix.extname(name);
  const stem = name.slice(0, name.length - ext.length);
  for (let n = 1; claimed.has(candidate); n += 1) {
    const marker = `_${n}${ext}`;
    const room = MAX_FILENAME_BYTES - Buffer.byteLength(marker, "utf8");
    const shortened = truncateUtf8(stem, room);
    if (shortened === "")
      throw new GatewayError(
        "INVALID_FILENAME",
        `Invalid filename: ${JSON.stringify(name)} (no room for a unique suffix)`,
      );
    candidate = `${shortened}${marker}`;
  }
  claimed.add(candidate);
  return candidate;
}
