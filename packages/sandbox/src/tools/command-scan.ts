/**
 * Two scans of DeerFlow's host command validator, done in linear time. The
 * obvious regexes (`\$\([^)]*\bcd\b`, `\b[a-z][a-z0-9+.-]*://…`) backtrack
 * quadratically on hostile input (`$($($(…`, `a.a.a.…`), which would block the
 * server's event loop for seconds on a 100 KB command; these give the same
 * answers without backtracking.
 */

const WORD_CHAR = /^[\p{L}\p{N}_]$/u;
const SCHEME_CHAR = /^[a-z0-9+.-]$/i;
const LETTER = /^[a-z]$/i;
const URL_STOP = /^[\s"'`;&|<>()]$/;
const CD_WORD = /(?<![\p{L}\p{N}_])(?:cd|pushd)(?![\p{L}\p{N}_])/u;

/** The code point ending just before `index` (whole surrogate pair). */
function charBefore(text: string, index: number): string {
  if (index <= 0) return "";
  const low = text.charCodeAt(index - 1);
  if (low >= 0xdc00 && low <= 0xdfff && index >= 2) return text.slice(index - 2, index);
  return text.charAt(index - 1);
}

/**
 * True when `cd` or `pushd` appears as a word between a `$(` and the next `)`
 * (DeerFlow: `\$\([^)]*\b(?:cd|pushd)\b`).
 *
 * @param command - The command.
 * @returns Whether a command substitution changes directory.
 */
export function hasCdInSubstitution(command: string): boolean {
  // Between two `)`, the first `$(` opens the longest candidate; later ones see a suffix of it.
  return command.split(")").some((chunk) => {
    const open = chunk.indexOf("$(");
    return open !== -1 && CD_WORD.test(chunk.slice(open + 2));
  });
}

/**
 * Spans `[start, end)` of URLs with a scheme other than `file` (DeerFlow:
 * `\b[a-z][a-z0-9+.-]*://[^\s"'`;&|<>()]+`, case-insensitive, leftmost matches).
 *
 * @param command - The command.
 * @returns The spans, in order.
 */
export function nonFileUrlSpans(command: string): Array<readonly [number, number]> {
  const spans: Array<readonly [number, number]> = [];
  let floor = 0; // matches never start inside an earlier match
  for (let sep = command.indexOf("://"); sep !== -1; sep = command.indexOf("://", sep + 1)) {
    if (sep < floor) continue;
    let runStart = sep;
    while (runStart > floor && SCHEME_CHAR.test(command.charAt(runStart - 1))) runStart--;
    let start = -1;
    for (let s = runStart; s < sep; s++) {
      if (LETTER.test(command.charAt(s)) && !WORD_CHAR.test(charBefore(command, s))) {
        start = s;
        break;
      }
    }
    let end = sep + 3;
    while (end < command.length && !URL_STOP.test(command.charAt(end))) end++;
    if (start === -1 || end === sep + 3) continue;
    if (command.slice(start, sep).toLowerCase() !== "file") spans.push([start, end]);
    floor = end;
  }
  return spans;
}
