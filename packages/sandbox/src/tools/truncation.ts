/**
 * Output bounding with DeerFlow's markers. Lengths are JavaScript string
 * lengths (UTF-16 code units); cuts never split a surrogate pair, so a
 * result is always well-formed text and never longer than the limit.
 */

/** Smallest effective bash output limit: keeps the longest exit marker (`Command exited with code -128`) intact. */
const BASH_OUTPUT_MIN_LIMIT_CHARS = 32;

/** A trailing exit marker that truncation must keep (the local `Exit Code: N`, the remote `Command exited with code N`). */
const EXIT_MARKER_TAIL = /(?:\nExit Code: -?\d+|\n?Command exited with code -?\d+)\s*$/;

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** `text.slice(0, end)`, one unit shorter when `end` would split a surrogate pair. */
function headSlice(text: string, end: number): string {
  if (end > 0 && end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) return text.slice(0, end - 1);
  return text.slice(0, end);
}

/** The last `count` units of `text`, one unit shorter when the cut would split a surrogate pair. */
function tailSlice(text: string, count: number): string {
  if (count <= 0) return "";
  const start = text.length - count;
  if (start > 0 && isHighSurrogate(text.charCodeAt(start - 1))) return text.slice(start + 1);
  return text.slice(start);
}

/**
 * Middle-truncates bash output as DeerFlow does: half the budget for the head,
 * half for the tail, joined by `"\n... [middle truncated: {n} chars skipped] ...\n"`.
 * A trailing `\nExit Code: N` is always kept. The effective limit is
 * `max(maxChars, 32)` so the exit marker always fits.
 *
 * @param output - The assembled command output.
 * @param maxChars - The limit; 0 disables truncation.
 * @returns `output`, or a version no longer than the effective limit.
 */
export function truncateBashOutput(output: string, maxChars: number): string {
  if (maxChars === 0) return output;
  let limit = Math.max(maxChars, BASH_OUTPUT_MIN_LIMIT_CHARS);
  if (output.length <= limit) return output;
  let body = output;
  let preserved = "";
  const marker = EXIT_MARKER_TAIL.exec(output);
  if (marker !== null && marker[0].length < limit) {
    preserved = marker[0];
    body = output.slice(0, marker.index);
    limit -= preserved.length;
    if (body.length <= limit) return body + preserved;
  }
  const total = body.length;
  // Worst case: every character skipped; a tight upper bound on the marker's length.
  const markerMax = `\n... [middle truncated: ${total} chars skipped] ...\n`.length;
  const kept = Math.max(0, limit - markerMax);
  if (kept === 0) return headSlice(body, limit) + preserved;
  const head = headSlice(body, Math.floor(kept / 2));
  const tail = tailSlice(body, kept - Math.floor(kept / 2));
  const skipped = total - head.length - tail.length;
  return `${head}\n... [middle truncated: ${skipped} chars skipped] ...\n${tail}${preserved}`;
}

function headTruncate(output: string, maxChars: number, hint: string): string {
  if (maxChars === 0 || output.length <= maxChars) return output;
  const total = output.length;
  const notice = (kept: number): string => `\n... [truncated: showing first ${kept} of ${total} chars. ${hint}] ...`;
  const kept = Math.max(0, maxChars - notice(total).length);
  if (kept === 0) return headSlice(output, maxChars);
  const head = headSlice(output, kept);
  return head + notice(head.length);
}

/**
 * Head-truncates an `ls` listing with DeerFlow's notice
 * `"\n... [truncated: showing first {k} of {t} chars. Use a more specific path to see fewer results] ..."`.
 *
 * @param output - The listing.
 * @param maxChars - The limit; 0 disables truncation.
 * @returns `output`, or a version no longer than `maxChars`.
 */
export function truncateLsOutput(output: string, maxChars: number): string {
  return headTruncate(output, maxChars, "Use a more specific path to see fewer results");
}

/**
 * Head-truncates `read_file` output with DeerFlow's notice
 * `"\n... [truncated: showing first {k} of {t} chars. Use start_line/end_line to read a specific range] ..."`.
 *
 * @param output - The file text.
 * @param maxChars - The limit; 0 disables truncation.
 * @returns `output`, or a version no longer than `maxChars`.
 */
export function truncateReadFileOutput(output: string, maxChars: number): string {
  return headTruncate(output, maxChars, "Use start_line/end_line to read a specific range");
}

/** Longest `write_file` error text (DeerFlow's bound). */
const WRITE_FILE_ERROR_MAX_CHARS = 2000;

/**
 * Middle-truncates a `write_file` error with the marker
 * `"\n... [write_file error truncated: {n} chars skipped] ...\n"`.
 *
 * @param detail - The error text.
 * @param maxChars - The limit; 0 disables truncation.
 * @returns `detail`, or a version no longer than `maxChars`.
 */
export function truncateWriteFileError(detail: string, maxChars: number = WRITE_FILE_ERROR_MAX_CHARS): string {
  if (maxChars === 0 || detail.length <= maxChars) return detail;
  const total = detail.length;
  const markerMax = `\n... [write_file error truncated: ${total} chars skipped] ...\n`.length;
  const kept = Math.max(0, maxChars - markerMax);
  if (kept === 0) return headSlice(detail, maxChars);
  const head = headSlice(detail, Math.floor(kept / 2));
  const tail = tailSlice(detail, kept - Math.floor(kept / 2));
  return `${head}\n... [write_file error truncated: ${total - head.length - tail.length} chars skipped] ...\n${tail}`;
}

/**
 * Formats `Error: Failed to write file '{path}': {detail}` within `maxChars`,
 * truncating the detail (not the header) when possible.
 *
 * @param path - The requested virtual path.
 * @param detail - `{Type}: {message}`, already free of host paths.
 * @param maxChars - The bound (default 2000).
 * @returns The bounded error text.
 */
export function formatWriteFileFailure(
  path: string,
  detail: string,
  maxChars: number = WRITE_FILE_ERROR_MAX_CHARS,
): string {
  const header = `Error: Failed to write file '${path}'`;
  if (maxChars === 0) return `${header}: ${detail}`;
  const budget = maxChars - header.length - 2;
  if (budget <= 0) return truncateWriteFileError(`${header}: ${detail}`, maxChars);
  return `${header}: ${truncateWriteFileError(detail, budget)}`;
}
