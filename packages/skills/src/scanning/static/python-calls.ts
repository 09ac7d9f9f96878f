/**
 * Call-site extraction for the Python heuristics, on the code view of
 * `python-text.ts` (comments and string contents already blanked). Names are
 * resolved through the file's imports, so `import subprocess as sp; sp.run(…)`
 * and `from os import system; system(…)` read as `subprocess.run` and
 * `os.system`.
 */

/** One call site. */
export interface PythonCall {
  /** Fully resolved dotted name, e.g. `subprocess.run`. */
  readonly name: string;
  /** Offset of the callee's first character. */
  readonly index: number;
  /** Offset of the opening parenthesis. */
  readonly open: number;
  /** Offsets of the text between the parentheses (code-view offsets). */
  readonly argsStart: number;
  readonly argsEnd: number;
}

/**
 * Bracket structure of a code view, built in one linear pass so that even a
 * megabyte of nested or unclosed calls costs O(n), never O(n²).
 */
export interface BracketIndex {
  /** Open bracket offset → its closing offset (end of line when unclosed). */
  readonly close: ReadonlyMap<number, number>;
  /** Open bracket offset → offsets of the commas directly inside it. */
  readonly commas: ReadonlyMap<number, readonly number[]>;
  /** Probed offset → offset of the innermost open bracket around it. */
  readonly owner: ReadonlyMap<number, number>;
}

/**
 * Indexes brackets, top-level commas and the owners of `probes`.
 *
 * @param code - the code view.
 * @param probes - offsets whose enclosing bracket is wanted, ascending.
 * @returns the index.
 */
export function indexBrackets(code: string, probes: readonly number[]): BracketIndex {
  const close = new Map<number, number>();
  const commas = new Map<number, number[]>();
  const owner = new Map<number, number>();
  const stack: number[] = [];
  let probe = 0;
  for (let i = 0; i < code.length; i++) {
    while (probe < probes.length && (probes[probe] ?? 0) <= i) {
      const top = stack.at(-1);
      if (top !== undefined) owner.set(probes[probe] ?? 0, top);
      probe++;
    }
    const ch = code[i];
    if (ch === "(" || ch === "[" || ch === "{") stack.push(i);
    else if (ch === ")" || ch === "]" || ch === "}") {
      const open = stack.pop();
      if (open !== undefined) close.set(open, i);
    } else if (ch === ",") {
      const top = stack.at(-1);
      if (top !== undefined) {
        const list = commas.get(top);
        if (list === undefined) commas.set(top, [i]);
        else list.push(i);
      }
    }
  }
  // Unclosed brackets (a syntax error) are cut at the end of their line.
  // The stack is in ascending order, so one newline search serves a whole line.
  let eol = -1;
  for (const open of stack) {
    if (eol < open) {
      eol = code.indexOf("\n", open);
      if (eol === -1) eol = code.length;
    }
    close.set(open, eol);
  }
  return { close, commas, owner };
}

/**
 * Import aliases declared anywhere in the file: `import a.b as c` (c → a.b),
 * `import a.b` (a → a), `from m import x as y` (y → m.x), parenthesised lists included.
 *
 * @param code - the code view.
 * @returns local name → dotted target.
 */
export function pythonImportAliases(code: string): Map<string, string> {
  const aliases = new Map<string, string>();
  for (const match of code.matchAll(/^[ \t]*import[ \t]+([^\n;]+)/gm)) {
    for (const item of (match[1] ?? "").split(",")) {
      const m = /^\s*([\w.]+)(?:\s+as\s+(\w+))?\s*$/.exec(item);
      if (m === null) continue;
      const target = m[1] ?? "";
      aliases.set(
        m[2] ?? target.split(".")[0] ?? target,
        m[2] !== undefined ? target : (target.split(".")[0] ?? target),
      );
    }
  }
  for (const match of code.matchAll(/^[ \t]*from[ \t]+([\w.]+)[ \t]+import[ \t]+(\([^)]*\)|[^\n;]+)/gm)) {
    const module = match[1] ?? "";
    for (const item of (match[2] ?? "").replace(/[()\\]/g, " ").split(",")) {
      const m = /^\s*(\w+)(?:\s+as\s+(\w+))?\s*$/.exec(item);
      if (m !== null) aliases.set(m[2] ?? m[1] ?? "", `${module}.${m[1] ?? ""}`);
    }
  }
  return aliases;
}

/**
 * Resolves a dotted name through the import aliases.
 *
 * @param dotted - name as written (`sp.run`).
 * @param aliases - from {@link pythonImportAliases}.
 * @returns the resolved name (`subprocess.run`).
 */
export function resolvePythonName(dotted: string, aliases: ReadonlyMap<string, string>): string {
  const [head = "", ...rest] = dotted.split(".");
  const target = aliases.get(head);
  return target === undefined ? dotted : [target, ...rest].join(".");
}

/**
 * Every call site `name(…)` in the code view. Definitions (`def eval(`,
 * `class X(`) are not calls; attribute calls on expressions (`x().eval(`) are
 * methods of values and never resolve to a module function, so they are skipped.
 *
 * @param code - the code view.
 * @param aliases - import aliases.
 * @param brackets - from {@link indexBrackets}.
 * @param relevant - which resolved names to return; others are dropped early.
 * @returns the calls in source order.
 */
export function pythonCalls(
  code: string,
  aliases: ReadonlyMap<string, string>,
  brackets: BracketIndex,
  relevant: (name: string) => boolean = () => true,
): PythonCall[] {
  const calls: PythonCall[] = [];
  for (const match of code.matchAll(/(?<![\w.])([A-Za-z_]\w*(?:[ \t]*\.[ \t]*[A-Za-z_]\w*)*)[ \t]*\(/g)) {
    const name = resolvePythonName((match[1] ?? "").replace(/[ \t]/g, ""), aliases);
    if (!relevant(name)) continue;
    if (/\b(?:def|class)[ \t]+$/.test(code.slice(Math.max(0, match.index - 16), match.index))) continue;
    if (/\.[ \t]*$/.test(code.slice(Math.max(0, match.index - 8), match.index))) continue;
    const open = match.index + match[0].length - 1;
    calls.push({
      name,
      index: match.index,
      open,
      argsStart: open + 1,
      argsEnd: brackets.close.get(open) ?? code.length,
    });
  }
  return calls;
}

/**
 * Splits a call's argument list at its top-level commas.
 *
 * @param code - the code view.
 * @param call - the call.
 * @param brackets - from {@link indexBrackets}.
 * @returns `[start, end)` offsets of each argument.
 */
export function topLevelArgs(code: string, call: PythonCall, brackets: BracketIndex): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  let start = call.argsStart;
  for (const comma of brackets.commas.get(call.open) ?? []) {
    if (comma >= call.argsEnd) break;
    spans.push([start, comma]);
    start = comma + 1;
  }
  // Any non-blank character left means one more argument (a trailing comma adds none).
  for (let i = start; i < call.argsEnd; i++) {
    if (!/\s/.test(code[i] ?? "")) {
      spans.push([start, call.argsEnd]);
      break;
    }
  }
  return spans;
}
