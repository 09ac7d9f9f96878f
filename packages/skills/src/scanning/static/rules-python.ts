/**
 * Python rules.
 *
 * DeerFlow analyses Python with the `ast` module. Node has no Python parser, so
 * these rules are line/regex *heuristics* over length-preserving views of the
 * source (`python-text.ts`): comments and string contents are blanked before
 * looking for call sites, so prose, docstrings and comments that mention
 * `eval(` or reverse shells do not fire. Known limits compared with an AST:
 * calls reached through `getattr`, assigned callables (`f = os.system; f(…)`)
 * and string-built code are not followed; a file that would not parse is still
 * scanned.
 */
import type { Finding } from "../types.js";
import { lineLocator, makeFinding } from "./catalogue.js";
import { isLocalHost } from "./http-urls.js";
import {
  indexBrackets,
  pythonCalls,
  pythonImportAliases,
  resolvePythonName,
  topLevelArgs,
  type BracketIndex,
  type PythonCall,
} from "./python-calls.js";
import { pythonViews, type PythonViews } from "./python-text.js";

const DYNAMIC_EXEC = new Set(["eval", "exec", "builtins.eval", "builtins.exec"]);
const SHELL_EXEC = new Set(["os.system", "os.popen"]);
const DYNAMIC_IMPORT = new Set(["__import__", "importlib.import_module", "builtins.__import__"]);
// A loader argument sits near the start of a `yaml.load(…)` call; bounding the look keeps nested calls linear.
const MAX_YAML_ARGS_CHARS = 4096;
const SAFE_YAML_LOADERS = /\b(?:SafeLoader|CSafeLoader|BaseLoader|CBaseLoader)\b/;
const NETWORK_SINKS = new Set([
  ...["get", "post", "put", "patch", "delete", "head", "options", "request"].flatMap((m) => [
    `requests.${m}`,
    `httpx.${m}`,
  ]),
  "httpx.stream",
  "urllib.request.urlopen",
  "urllib.request.urlretrieve",
  "socket.socket",
  "socket.create_connection",
  // Client constructors: the later `client.post(…)` is a method of a value, so the constructor stands in for it.
  "requests.Session",
  "httpx.Client",
  "httpx.AsyncClient",
  "http.client.HTTPConnection",
  "http.client.HTTPSConnection",
  "urllib3.PoolManager",
  "aiohttp.ClientSession",
  "smtplib.SMTP",
  "smtplib.SMTP_SSL",
  "ftplib.FTP",
]);
/** Calls any Python rule looks at; the rest are skipped before any per-call work. */
function isRelevantCall(name: string): boolean {
  return (
    DYNAMIC_EXEC.has(name) ||
    SHELL_EXEC.has(name) ||
    DYNAMIC_IMPORT.has(name) ||
    NETWORK_SINKS.has(name) ||
    name === "compile" ||
    name === "os.dup2" ||
    name === "pty.spawn" ||
    name.startsWith("subprocess.") ||
    name.startsWith("pickle.") ||
    name.startsWith("yaml.")
  );
}

const REVERSE_SHELL_SPAWN = (name: string): boolean =>
  name.startsWith("subprocess.") || SHELL_EXEC.has(name) || name === "pty.spawn";
const SENSITIVE_PATH = /~\/\.ssh|\/etc\/passwd|\/etc\/shadow|docker\.sock|169\.254\.169\.254/;
const BULK_ENV_METHOD = /^os\.environ\.(?:items|copy|keys|values)$/;
const BULK_ENV_WRAPPER = /(?:^|[^\w.])(?:dict|str|repr|list|print|json\.dumps)[ \t]*\([ \t]*$/;

/** Call sites reported per rule and file; a generated file must not produce a megabyte of findings. */
const MAX_SITES_PER_RULE = 100;

// Literals worth recognising (`"exec"`, a module name) are short; longer arguments are not constant.
const MAX_LITERAL_ARG_CHARS = 512;

function argText(views: PythonViews, span: [number, number]): string {
  if (span[1] - span[0] > MAX_LITERAL_ARG_CHARS) return "";
  return views.withoutComments.slice(span[0], span[1]).trim();
}

/** `shell=<value>` keywords and `**mapping` unpacks, keyed by the bracket they sit directly in. */
interface ShellArgs {
  readonly shellValues: ReadonlyMap<number, string>;
  readonly unpacks: ReadonlySet<number>;
}

function shellArgs(
  code: string,
  brackets: BracketIndex,
  shellAt: ReadonlyMap<number, string>,
  unpackAt: readonly number[],
): ShellArgs {
  const shellValues = new Map<number, string>();
  for (const [at, value] of shellAt) {
    const open = brackets.owner.get(at);
    if (open !== undefined && !shellValues.has(open)) shellValues.set(open, value);
  }
  const unpacks = new Set<number>();
  for (const at of unpackAt) {
    const open = brackets.owner.get(at);
    if (open !== undefined && code[open] === "(") unpacks.add(open);
  }
  return { shellValues, unpacks };
}

/** A plain (non-f) string literal, alone: the only argument an AST could call constant. */
function isStringLiteral(text: string): boolean {
  return /^[rRbBuU]{0,2}(?:"[^"\n]*"|'[^'\n]*')$/.test(text);
}

/** `shell=` may be true unless it is literally `False`; `**kwargs` could carry it, so it counts too. */
function shellMayBeTrue(shell: ShellArgs, call: PythonCall): boolean {
  const value = shell.shellValues.get(call.open);
  if (value !== undefined) return value.trim() !== "False";
  return shell.unpacks.has(call.open);
}

function compileModeIsExec(views: PythonViews, call: PythonCall, brackets: BracketIndex): boolean {
  const args = topLevelArgs(views.code, call, brackets).map((span) => argText(views, span));
  const literalExec = (text: string): boolean => /^[rRbBuU]{0,2}(["'])exec\1$/.test(text);
  const third = args[2];
  if (third !== undefined && !third.includes("=") && literalExec(third)) return true;
  return args.some((text) => {
    const m = /^mode\s*=\s*(.+)$/s.exec(text);
    return m !== null && literalExec((m[1] ?? "").trim());
  });
}

/**
 * Bulk reads only: `os.environ.items()` (also `copy`, `keys`, `values`) or the
 * mapping passed whole to `dict`/`str`/`repr`/`list`/`print`/`json.dumps`.
 * `os.environ["X"]`, `.get("X")` and `{**os.environ}` (a child's env) are not.
 */
function isBulkEnvRead(code: string, resolved: string, index: number, end: number): boolean {
  const after = code.slice(end, end + 16);
  if (BULK_ENV_METHOD.test(resolved)) return /^[ \t]*\(/.test(after);
  return (
    resolved === "os.environ" &&
    BULK_ENV_WRAPPER.test(code.slice(Math.max(0, index - 32), index)) &&
    /^[ \t]*\)/.test(after)
  );
}

/**
 * Runs the Python rules over one source file: dynamic exec, shell exec,
 * subprocess, dynamic import (non-literal), unsafe deserialisation, and the
 * file-level combinations (reverse shell, sensitive read, exfiltration).
 *
 * @param relPath - package-relative path.
 * @param text - Python source.
 * @returns the findings, one per call site for call rules.
 */
export function pythonFindings(relPath: string, text: string): Finding[] {
  const views = pythonViews(text);
  const aliases = pythonImportAliases(views.code);
  const shellAt = new Map<number, string>();
  for (const m of views.code.matchAll(/(?<![\w.])shell[ \t]*=(?!=)\s*([^,)\]}\n]*)/g)) shellAt.set(m.index, m[1] ?? "");
  const unpackAt = [...views.code.matchAll(/(?<=[,(]\s*)\*\*(?=\s*[A-Za-z_(])/g)].map((m) => m.index);
  const brackets = indexBrackets(
    views.code,
    [...shellAt.keys(), ...unpackAt].sort((a, b) => a - b),
  );
  const shell = shellArgs(views.code, brackets, shellAt, unpackAt);
  const calls = pythonCalls(views.code, aliases, brackets, isRelevantCall);
  const findings: Finding[] = [];
  const lineOf = lineLocator(text);
  const reported = new Set<string>();
  const perRule = new Map<string, number>();
  const at = (ruleId: string, index: number, evidence: string): void => {
    const line = lineOf(index);
    const key = `${ruleId}:${line}`;
    const count = perRule.get(ruleId) ?? 0;
    if (reported.has(key) || count >= MAX_SITES_PER_RULE) return;
    reported.add(key);
    perRule.set(ruleId, count + 1);
    findings.push(makeFinding(ruleId, { file: relPath, line, evidence }));
  };
  let network: number | null = null;
  const shape = { socket: false, dup2: null as number | null, spawn: false };
  for (const call of calls) {
    const { name, index } = call;
    if (DYNAMIC_EXEC.has(name) || (name === "compile" && compileModeIsExec(views, call, brackets)))
      at("python-dynamic-exec", index, name);
    else if (SHELL_EXEC.has(name) || (name.startsWith("subprocess.") && shellMayBeTrue(shell, call)))
      at("python-shell-exec", index, name);
    else if (name.startsWith("subprocess.")) at("python-subprocess", index, name);
    else if (DYNAMIC_IMPORT.has(name)) {
      const first = topLevelArgs(views.code, call, brackets)[0];
      if (first === undefined || !isStringLiteral(argText(views, first))) at("python-dynamic-import", index, name);
    } else if (name === "pickle.load" || name === "pickle.loads" || name === "yaml.unsafe_load")
      at("python-unsafe-deserialization", index, name);
    else if (
      name === "yaml.load" &&
      !SAFE_YAML_LOADERS.test(
        views.code.slice(call.argsStart, Math.min(call.argsEnd, call.argsStart + MAX_YAML_ARGS_CHARS)),
      )
    )
      at("python-unsafe-deserialization", index, name);

    if (NETWORK_SINKS.has(name)) network ??= index;
    if (name === "socket.socket" || name === "socket.create_connection") shape.socket = true;
    if (name === "os.dup2") shape.dup2 ??= index;
    if (REVERSE_SHELL_SPAWN(name)) shape.spawn = true;
  }
  if (shape.socket && shape.spawn && shape.dup2 !== null)
    at("python-reverse-shell", shape.dup2, "socket + dup2 + subprocess");

  let sensitive: number | null = null;
  for (const literal of views.strings) {
    if (sensitive === null && SENSITIVE_PATH.test(literal.value)) sensitive = literal.start;
    if (network === null && /^https?:\/\//i.test(literal.value)) {
      const host =
        /^https?:\/\/(?:[^/@\s]*@)?(\[[^\]]+\]|[^/:?#\s]+)/i
          .exec(literal.value)?.[1]
          ?.replace(/^\[|\]$/g, "")
          .toLowerCase() ?? "";
      if (!isLocalHost(host)) network = literal.start;
    }
  }
  let envDump: number | null = null;
  for (const match of views.code.matchAll(/(?<![\w.])([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)/g)) {
    const resolved = resolvePythonName(match[1] ?? "", aliases);
    if (isBulkEnvRead(views.code, resolved, match.index, match.index + match[0].length)) {
      envDump = match.index;
      break;
    }
  }
  if (sensitive !== null && network !== null) at("python-sensitive-exfil", sensitive, "sensitive read + network sink");
  else if (sensitive !== null) at("python-sensitive-path-read", sensitive, "sensitive path read");
  if (envDump !== null && network !== null) at("python-env-dump-exfil", envDump, "environment dump + network sink");
  return findings;
}
