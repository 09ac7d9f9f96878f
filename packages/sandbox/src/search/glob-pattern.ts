/**
 * Glob patterns compiled to regular expressions:
 *
 * - patterns are relative to the search root; with `matchBase` (what `glob`
 *   and grep's file filter use, as DeerFlow's `sandbox/search.py`) a pattern
 *   without `/` matches the last segment at any depth (`*.py`), otherwise
 *   every pattern is anchored at the root (`*.py` = top-level files only);
 * - a `**` segment matches zero or more whole segments (`src/**` + `/*.ts`
 *   includes `src/a.ts`; `**` + `/x` also matches `x` at the root);
 * - `*` and `?` never cross `/`; `[abc]`, `[a-z]`, `[!x]`/`[^x]` are classes;
 * - `{a,b}` expands to alternatives (nesting allowed; a brace without a comma
 *   is literal); `\` escapes the next character;
 * - matching is case-sensitive and `*` matches leading dots (as `fnmatch`).
 *
 * Node 20's `path.matchesGlob` is experimental (it warns) and has different
 * dot and basename rules, hence this small compiler.
 */
import { SandboxError } from "../errors.js";
import { escapeRegExp } from "./ignore.js";

/** Most alternatives a pattern may expand to through `{...}`. */
export const MAX_BRACE_EXPANSIONS = 1024;

/** Tests a path relative to the search root (POSIX separators, no leading `/`). */
export type GlobMatcher = (relativePath: string) => boolean;

/** Options of {@link compileGlob}. */
export interface CompileGlobOptions {
  /** A pattern without `/` matches the last path segment at any depth. Default false. */
  readonly matchBase?: boolean;
}

/**
 * Compiles a glob pattern.
 *
 * @param pattern - The pattern; a leading `./` is ignored.
 * @param options - Basename matching for slash-less patterns.
 * @returns A matcher for relative paths.
 * @throws {@link SandboxError} `INVALID_ARGUMENT` for an empty pattern, too many
 *   brace alternatives, or a malformed class such as `[z-a]`.
 * @example
 * const match = compileGlob("src/**" + "/*.{ts,tsx}");
 * match("src/a/b.tsx"); // true
 * match("lib/b.ts");    // false
 * compileGlob("*.py", { matchBase: true })("a/b.py"); // true
 */
export function compileGlob(pattern: string, options: CompileGlobOptions = {}): GlobMatcher {
  const trimmed = pattern.replace(/^(?:\.\/)+/, "");
  if (trimmed === "") throw new SandboxError("INVALID_ARGUMENT", "Glob pattern must not be empty");
  const anchored: string[] = [];
  const basename: string[] = [];
  const groups = { next: 1 };
  for (const alternative of expandBraces(trimmed)) {
    if (options.matchBase === true && !alternative.includes("/")) basename.push(segmentSource(alternative, groups));
    else anchored.push(pathSource(alternative, groups));
  }
  const anchoredRe = anchored.length > 0 ? compile(anchored, pattern) : undefined;
  const basenameRe = basename.length > 0 ? compile(basename, pattern) : undefined;
  return (relativePath) => {
    if (anchoredRe?.test(relativePath) === true) return true;
    if (basenameRe === undefined) return false;
    const slash = relativePath.lastIndexOf("/");
    return basenameRe.test(slash === -1 ? relativePath : relativePath.slice(slash + 1));
  };
}

/**
 * Expands `{a,b}` alternatives (recursively, left to right).
 *
 * @param pattern - A glob pattern.
 * @returns The alternatives, in order; `[pattern]` when there is nothing to expand.
 * @throws {@link SandboxError} `INVALID_ARGUMENT` past {@link MAX_BRACE_EXPANSIONS}.
 * @example
 * expandBraces("a.{js,ts}"); // ["a.js", "a.ts"]
 */
export function expandBraces(pattern: string): string[] {
  const out: string[] = [];
  expandInto(pattern, out);
  return out;
}

function expandInto(pattern: string, out: string[]): void {
  for (let open = 0; open < pattern.length; open++) {
    const char = pattern[open];
    if (char === "\\") {
      open++;
      continue;
    }
    if (char !== "{") continue;
    const parts = splitBrace(pattern, open);
    if (parts === undefined) continue;
    const prefix = pattern.slice(0, open);
    const suffix = pattern.slice(parts.close + 1);
    for (const alternative of parts.alternatives) expandInto(prefix + alternative + suffix, out);
    return;
  }
  if (out.length >= MAX_BRACE_EXPANSIONS) {
    throw new SandboxError(
      "INVALID_ARGUMENT",
      `Glob pattern expands to more than ${MAX_BRACE_EXPANSIONS} alternatives`,
    );
  }
  out.push(pattern);
}

/** The top-level alternatives of the brace opening at `open`, if it has a comma and a close. */
function splitBrace(pattern: string, open: number): { alternatives: string[]; close: number } | undefined {
  let depth = 0;
  let start = open + 1;
  const alternatives: string[] = [];
  for (let i = open; i < pattern.length; i++) {
    const char = pattern[i];
    if (char === "\\") {
      i++;
    } else if (char === "{") {
      depth++;
    } else if (char === "}") {
      depth--;
      if (depth === 0) {
        if (alternatives.length === 0) return undefined;
        alternatives.push(pattern.slice(start, i));
        return { alternatives, close: i };
      }
    } else if (char === "," && depth === 1) {
      alternatives.push(pattern.slice(start, i));
      start = i + 1;
    }
  }
  return undefined;
}

/** Regex source for a whole relative path (pattern containing `/`). */
function pathSource(pattern: string, groups: { next: number }): string {
  const segments = pattern.split("/").filter((segment) => segment !== "" && segment !== ".");
  let source = "";
  let needSeparator = false;
  segments.forEach((segment, index) => {
    const last = index === segments.length - 1;
    if (segment === "**") {
      // `a/**` matches `a` itself and everything below it; a leading `**/` may match nothing.
      if (needSeparator) source += "(?:/.*)?";
      else source += last ? ".*" : "(?:.*/)?";
      return;
    }
    source += (needSeparator ? "/" : "") + segmentSource(segment, groups);
    needSeparator = true;
  });
  return source;
}

/**
 * Regex source for one segment. Every run between two stars becomes an atomic
 * group (`(?=([^/]*?X))\N`), as CPython's `fnmatch` does, so patterns like
 * `*a*a*a*b` cannot backtrack exponentially on long names.
 */
function segmentSource(segment: string, groups: { next: number }): string {
  const chunks: string[] = [""];
  for (let i = 0; i < segment.length; i++) {
    const char = segment.charAt(i);
    if (char === "*") {
      if (chunks[chunks.length - 1] !== "" || chunks.length === 1) chunks.push("");
      continue;
    }
    let atom: string;
    if (char === "\\" && i + 1 < segment.length) {
      atom = escapeRegExp(segment.charAt(++i));
    } else if (char === "?") {
      atom = "[^/]";
    } else if (char === "[") {
      const parsed = parseClass(segment, i);
      if (parsed === undefined) {
        atom = "\\[";
      } else {
        atom = parsed.source;
        i = parsed.end;
      }
    } else {
      atom = escapeRegExp(char);
    }
    chunks[chunks.length - 1] += atom;
  }
  const [head = "", ...rest] = chunks;
  if (rest.length === 0) return head;
  const tail = rest.pop() ?? "";
  let source = head;
  for (const middle of rest) {
    const group = groups.next++;
    source += `(?=([^/]*?${middle}))\\${group}`;
  }
  return `${source}[^/]*${tail}`;
}

/** A `[...]` class starting at `open`, or `undefined` when it never closes (then `[` is literal). */
function parseClass(segment: string, open: number): { source: string; end: number } | undefined {
  let i = open + 1;
  const negate = segment[i] === "!" || segment[i] === "^";
  if (negate) i++;
  let body = "";
  let first = true;
  for (; i < segment.length; i++) {
    const char = segment.charAt(i);
    if (char === "]" && !first) {
      return { source: negate ? `[^${body}/]` : `[${body}]`, end: i };
    }
    first = false;
    if (char === "\\" || char === "]" || char === "[" || char === "^") body += `\\${char}`;
    else body += char;
  }
  return undefined;
}

function compile(sources: readonly string[], pattern: string): RegExp {
  try {
    return new RegExp(`^(?:${sources.join("|")})$`, "s");
  } catch (err) {
    const detail = err instanceof Error ? err.message : String(err);
    throw new SandboxError("INVALID_ARGUMENT", `Invalid glob pattern: ${pattern} (${detail})`);
  }
}
