/**
 * A small Python lexer for the heuristic rules. Node has no Python AST, so the
 * Python rules work on *views* of the source that keep every character offset
 * (and therefore every line number) but blank out what is not code: comments,
 * and optionally string contents. An `eval(` inside a docstring or a comment
 * is then simply not there. F-string replacement fields (`f"{eval(x)}"`) are
 * code and stay visible.
 */

/** One string literal: offsets of its content and the raw content text. */
interface PythonStringLiteral {
  /** Offset of the opening quote (after any prefix). */
  readonly start: number;
  /** Offset just past the closing quote. */
  readonly end: number;
  /** Raw text between the quotes (escapes left as written). */
  readonly value: string;
  /** True for f-strings, whose value is not a constant. */
  readonly formatted: boolean;
}

/** Length-preserving views of one Python source. */
export interface PythonViews {
  /** Comments and string contents blanked; quotes kept. Use for call sites. */
  readonly code: string;
  /** Comments blanked, strings intact. Use for literal assignments. */
  readonly withoutComments: string;
  readonly strings: readonly PythonStringLiteral[];
}

// A string prefix (`rb`, `f`, …) followed by a quote, matched at a given offset.
const STRING_PREFIX = /[rRbBuUfF]{0,3}(?='|")/y;
const WORD_CHAR = /\w/;

const blank = (ch: string): string => (ch === "\n" ? "\n" : " ");

/**
 * Lexes `text` into {@link PythonViews}.
 *
 * @param text - Python source.
 * @returns the views; unterminated strings end at end of input (triple) or line.
 */
export function pythonViews(text: string): PythonViews {
  const code: string[] = [];
  const noComments: string[] = [];
  const strings: PythonStringLiteral[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    const ch = text[i] ?? "";
    if (ch === "#") {
      while (i < n && text[i] !== "\n") {
        code.push(" ");
        noComments.push(" ");
        i++;
      }
      continue;
    }
    STRING_PREFIX.lastIndex = i;
    const startsWord = i === 0 || !WORD_CHAR.test(text[i - 1] ?? "");
    const pm = startsWord ? STRING_PREFIX.exec(text) : ch === "'" || ch === '"' ? [""] : null;
    if (pm !== null) {
      const pre = pm[0] ?? "";
      for (const c of pre) {
        code.push(c);
        noComments.push(c);
      }
      i += pre.length;
      i = lexString(text, i, /f/i.test(pre), code, noComments, strings);
      continue;
    }
    code.push(ch);
    noComments.push(ch);
    i++;
  }
  return { code: code.join(""), withoutComments: noComments.join(""), strings };
}

function lexString(
  text: string,
  start: number,
  formatted: boolean,
  code: string[],
  noComments: string[],
  strings: PythonStringLiteral[],
): number {
  const q = text[start] ?? '"';
  const triple = text.startsWith(q.repeat(3), start);
  const delim = triple ? q.repeat(3) : q;
  for (const c of delim) {
    code.push(c);
    noComments.push(c);
  }
  let i = start + delim.length;
  const contentStart = i;
  let depth = 0;
  const n = text.length;
  while (i < n) {
    const ch = text[i] ?? "";
    if (depth === 0 && text.startsWith(delim, i)) break;
    if (!triple && ch === "\n") break;
    if (ch === "\\" && depth === 0 && i + 1 < n) {
      code.push(" ", blank(text[i + 1] ?? ""));
      noComments.push(ch, text[i + 1] ?? "");
      i += 2;
      continue;
    }
    if (formatted && ch === "{") {
      if (depth === 0 && text[i + 1] === "{") {
        code.push("  ");
        noComments.push("{{");
        i += 2;
        continue;
      }
      depth++;
    } else if (formatted && ch === "}" && depth > 0) {
      depth--;
      code.push("}");
      noComments.push("}");
      i++;
      continue;
    }
    // Replacement fields are code; everything else in the literal is data.
    code.push(depth > 0 || (formatted && ch === "{") ? ch : blank(ch));
    noComments.push(ch);
    i++;
  }
  const contentEnd = i;
  const closed = text.startsWith(delim, i);
  if (closed) {
    for (const c of delim) {
      code.push(c);
      noComments.push(c);
    }
    i += delim.length;
  }
  strings.push({ start, end: i, value: text.slice(contentStart, contentEnd), formatted });
  return i;
}
