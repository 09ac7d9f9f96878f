/** Longest query honoured; longer ones are cut (also bounds regex compile cost). */
export const MAX_QUERY_CHARS = 256;

/** Most unbounded quantifiers a query pattern may have before it is taken literally. */
const MAX_UNBOUNDED_QUANTIFIERS = 8;

/**
 * Compiles a model-supplied search pattern into a case-insensitive regex, the
 * way DeerFlow's `describe_skill` does, with one deliberate hardening.
 *
 * An invalid pattern falls back to a literal match (DeerFlow). JavaScript
 * regexes have no timeout, so a pattern that could backtrack catastrophically
 * on a 1,024-character description is also taken literally: nested repetition
 * (`(a+)+`, `(a|b)*` and the like), backreferences, or more than eight
 * unbounded quantifiers. Such patterns are never needed to find a skill.
 *
 * @param pattern - The user's pattern (already trimmed).
 * @param global - Add the `g` flag (to count hits).
 * @returns A regex that is safe to run over skill text.
 */
export function compileQueryRegex(pattern: string, global = false): RegExp {
  const flags = global ? "gi" : "i";
  const source = pattern.slice(0, MAX_QUERY_CHARS);
  if (!isRiskyPattern(source)) {
    try {
      return new RegExp(source, flags);
    } catch {
      // Invalid syntax: fall through to a literal match.
    }
  }
  return new RegExp(source.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"), flags);
}

interface Group {
  repeats: boolean;
  alternates: boolean;
}

/**
 * True when `source` could make the regex engine backtrack exponentially or
 * steeply polynomially. A conservative scan, not a parser: it may flag a
 * harmless pattern (which then matches literally), never the reverse for the
 * shapes it knows.
 */
export function isRiskyPattern(source: string): boolean {
  const stack: Group[] = [{ repeats: false, alternates: false }];
  let unbounded = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    const top = stack[stack.length - 1] as Group;
    if (c === "\\") {
      const next = source[i + 1] ?? "";
      if (/[1-9]/.test(next) || (next === "k" && source[i + 2] === "<")) return true;
      i++;
    } else if (c === "[") {
      i = skipClass(source, i);
    } else if (c === "(") {
      stack.push({ repeats: false, alternates: false });
    } else if (c === ")") {
      if (stack.length === 1) continue;
      const group = stack.pop() as Group;
      const q = quantifierAt(source, i + 1);
      const parent = stack[stack.length - 1] as Group;
      if (q.unbounded && (group.repeats || group.alternates)) return true;
      parent.repeats ||= group.repeats || q.unbounded;
      if (q.unbounded) unbounded++;
      i += q.length;
    } else if (c === "|") {
      top.alternates = true;
    } else {
      const q = quantifierAt(source, i);
      if (q.length > 0) {
        if (q.unbounded) {
          top.repeats = true;
          unbounded++;
        }
        i += q.length - 1;
      }
    }
    if (unbounded > MAX_UNBOUNDED_QUANTIFIERS) return true;
  }
  return false;
}

function skipClass(source: string, start: number): number {
  for (let i = start + 1; i < source.length; i++) {
    if (source[i] === "\\") i++;
    else if (source[i] === "]" && i > start + 1) return i;
  }
  return source.length;
}

/** The quantifier starting at `i` (with a lazy `?` suffix), if any. */
function quantifierAt(source: string, i: number): { length: number; unbounded: boolean } {
  const c = source[i];
  let length = 0;
  let unbounded = false;
  if (c === "*" || c === "+") {
    length = 1;
    unbounded = true;
  } else if (c === "?") {
    length = 1;
  } else if (c === "{") {
    const m = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i, i + 24));
    if (m) {
      length = m[0].length;
      // {n,} is unbounded; a wide {n,m} backtracks like one.
      unbounded = m[2] !== undefined && (m[3] === "" || Number(m[3]) > 16);
    }
  }
  if (length > 0 && source[i + length] === "?") length++;
  return { length, unbounded };
}
