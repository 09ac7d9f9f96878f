/**
 * Required literals of a grep pattern: strings one of which every line the
 * pattern matches must contain. A fast byte search for them (ripgrep) then
 * names every file that can hold a match — possibly more, never fewer — and
 * only those need the JavaScript search.
 *
 * The analysis is deliberately small and conservative. The pattern is split
 * into its top-level alternatives; in each, runs of plain characters that no
 * quantifier touches are collected (a group, class, escape class, anchor or
 * quantifier ends a run) and the longest run is kept. An alternative without
 * one (`\d+`, `(ab)*`) means "no prefilter": every file must be searched.
 *
 * Why the byte search finds a superset of the JavaScript matches:
 * - case-sensitive: each run matches itself only, and files are searched as
 *   raw bytes for its UTF-8 encoding (a line is decoded from those bytes; a
 *   run never holds U+FFFD, which invalid bytes decode to, nor a lone surrogate);
 * - case-insensitive: JavaScript's non-Unicode `i` flag matches a character
 *   with those of the same `toUpperCase`; runs keep only characters for which
 *   that class is the character alone or stays within ASCII (which ripgrep's
 *   Unicode case folding covers), and cut at any other.
 */

/** What to search files for. */
export interface LiteralPrefilter {
  /** A matching line contains at least one of these (each non-empty, well-formed UTF-16). */
  readonly literals: readonly string[];
  /** Compare ignoring case (the pattern has the `i` flag). */
  readonly ignoreCase: boolean;
}

const QUANTIFIER_BRACE = /^\{\d+(?:,\d*)?\}/;
/** U+FFFD stands for invalid bytes in a decoded line; NUL cannot be passed to a process. */
const UNSEARCHABLE = new Set(["\uFFFD", "\u0000"]);

/** Code units whose JavaScript `i`-flag class is more than themselves (computed once, on first use). */
let casedUnits: Uint8Array | undefined;

function isCased(unit: number): boolean {
  if (casedUnits === undefined) {
    casedUnits = new Uint8Array(0x10000);
    for (let code = 0; code < 0x10000; code++) {
      const upper = String.fromCharCode(code).toUpperCase();
      if (upper.length !== 1) continue;
      const upperCode = upper.charCodeAt(0);
      if (upperCode === code) continue;
      // JavaScript's Canonicalize keeps a non-ASCII character whose upper case is ASCII apart from it.
      if (code >= 128 && upperCode < 128) continue;
      casedUnits[code] = 1;
      casedUnits[upperCode] = 1;
    }
  }
  return casedUnits[unit] === 1;
}

/** Whether a case-insensitive byte search for `char` finds everything JavaScript's `i` flag matches with it. */
function safeUnderIgnoreCase(unit: number): boolean {
  return unit < 128 || !isCased(unit);
}

/** Index just past the class opening at `open` (JavaScript: the first unescaped `]`, even right after `[` or `[^`). */
function skipClass(source: string, open: number): number {
  for (let i = open + 1; i < source.length; i++) {
    const char = source[i];
    if (char === "\\") i++;
    else if (char === "]") return i + 1;
  }
  return source.length;
}

/** Index just past the group opening at `open`. */
function skipGroup(source: string, open: number): number {
  let depth = 0;
  for (let i = open; i < source.length; i++) {
    const char = source[i];
    if (char === "\\") i++;
    else if (char === "[") i = skipClass(source, i) - 1;
    else if (char === "(") depth++;
    else if (char === ")" && --depth === 0) return i + 1;
  }
  return source.length;
}

/** The top-level alternatives of a pattern. */
function alternatives(source: string): string[] {
  const parts: string[] = [];
  let start = 0;
  for (let i = 0; i < source.length; i++) {
    const char = source[i];
    if (char === "\\") i++;
    else if (char === "[") i = skipClass(source, i) - 1;
    else if (char === "(") i = skipGroup(source, i) - 1;
    else if (char === "|") {
      parts.push(source.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(source.slice(start));
  return parts;
}

/**
 * Length of a letter or digit escape at the start of `text` (`\\d`, `\\x41`,
 * `\\u0041`, `\\cA`, `\\12`, `\\k<name>`, `\\p{L}`). Characters after it are
 * literal in JavaScript too, so a shorter reading only loses literals, never
 * invents one.
 */
function escapeLength(text: string): number {
  const patterns = [
    /^\\x[0-9A-Fa-f]{2}/,
    /^\\u[0-9A-Fa-f]{4}/,
    /^\\c[A-Za-z]/,
    /^\\[0-9]+/,
    /^\\k<[^>]*>/,
    /^\\[pP]\{[^}]*\}/,
  ];
  for (const pattern of patterns) {
    const match = pattern.exec(text);
    if (match !== null) return match[0].length;
  }
  return Math.min(2, text.length);
}

/** Splits a run at lone surrogates, which have no UTF-8 encoding to search for. */
function wellFormedPieces(run: string): string[] {
  return run
    .split(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/)
    .filter((piece) => piece !== "");
}

/** Runs of plain, unquantified characters of one alternative. */
function literalRuns(alternative: string, ignoreCase: boolean): string[] {
  const runs: string[] = [];
  let run = "";
  const end = (): void => {
    runs.push(...wellFormedPieces(run));
    run = "";
  };
  for (let i = 0; i < alternative.length;) {
    const char = alternative.charAt(i);
    let literal: string | undefined;
    let next = i + 1;
    if (char === "\\") {
      const escaped = alternative.charAt(i + 1);
      if (escaped !== "" && !/[A-Za-z0-9]/.test(escaped)) {
        // `\.` `\/` `\\`...: the character itself.
        literal = escaped;
        next = i + 2;
      } else {
        // Classes, anchors, references and codes end the run, with every character they consume.
        next = i + escapeLength(alternative.slice(i));
      }
    } else if (char === "[") {
      next = skipClass(alternative, i);
    } else if (char === "(") {
      next = skipGroup(alternative, i);
    } else if (char === "{") {
      // A `{n,m}` quantifier is skipped whole: its digits are not text to find.
      next = i + (QUANTIFIER_BRACE.exec(alternative.slice(i))?.[0].length ?? 1);
    } else if (!"^$.*+?{}]|".includes(char)) {
      literal = char;
    }
    const quantifier = alternative.charAt(next);
    const quantified =
      quantifier === "*" ||
      quantifier === "+" ||
      quantifier === "?" ||
      (quantifier === "{" && QUANTIFIER_BRACE.test(alternative.slice(next)));
    const usable =
      literal !== undefined &&
      !quantified &&
      !UNSEARCHABLE.has(literal) &&
      (!ignoreCase || safeUnderIgnoreCase(literal.charCodeAt(0)));
    if (usable) run += literal;
    else end();
    i = next;
  }
  end();
  return runs;
}

/**
 * Finds the literals a byte search can prefilter files with.
 *
 * @param regex - The compiled grep pattern (`compileSearchRegex`): flags `""` or `"i"`.
 * @returns One literal per top-level alternative (the longest usable run), or
 *   `undefined` when some alternative has none or the flags are unexpected.
 * @example
 * literalPrefilter(/TODO\(\w+\): fix/); // { literals: ["): fix"], ignoreCase: false }
 * literalPrefilter(/error|warn(ing)?/i); // { literals: ["error", "warn"], ignoreCase: true }
 * literalPrefilter(/\d{4}-\d{2}/);       // undefined
 */
export function literalPrefilter(regex: RegExp): LiteralPrefilter | undefined {
  if (regex.flags !== "" && regex.flags !== "i") return undefined;
  const ignoreCase = regex.flags === "i";
  const literals: string[] = [];
  for (const alternative of alternatives(regex.source)) {
    const best = literalRuns(alternative, ignoreCase).reduce(
      (longest, run) => (run.length > longest.length ? run : longest),
      "",
    );
    if (best === "") return undefined;
    literals.push(best);
  }
  return { literals: [...new Set(literals)], ignoreCase };
}
