/**
 * DeerFlow's best-effort validation of bash commands that run directly on the
 * host (a sandbox that is not isolated, enabled with `allowHostBash`). It is a
 * guard against mistakes, NOT a security boundary: a determined command can
 * always reach the host (variables, `eval`, interpreters). Isolated sandboxes
 * (bubblewrap, containers) skip it, since their mounts already confine commands.
 *
 * Messages are DeerFlow's, exactly.
 */
import { SKILLS_PATH, USER_DATA_ROOT } from "../limits.js";
import { hasCdInSubstitution, nonFileUrlSpans } from "./command-scan.js";
import { isPathInside } from "@deerflow/kernel";
import { ACP_WORKSPACE_PATH, PATH_TRAVERSAL_MESSAGE, hasTraversal } from "./path-guard.js";
import { SHELL_COMMAND_SEPARATORS, SHELL_REDIRECTIONS, splitShellTokens } from "./shell-tokens.js";

/** Options of {@link findHostCommandViolation}. */
export interface HostCommandPolicyOptions {
  /**
   * Extra virtual path families commands may name (configured mounts, an MCP
   * filesystem server's allowed paths). `/mnt/user-data`, `/mnt/skills` and
   * `/mnt/acp-workspace` are always allowed.
   */
  readonly allowedPaths?: readonly string[];
}

/** Executables and devices commands may name anywhere. */
export const HOST_SYSTEM_PATH_PREFIXES: readonly string[] = [
  "/bin/",
  "/usr/bin/",
  "/usr/sbin/",
  "/sbin/",
  "/opt/homebrew/bin/",
  "/dev/",
];

/** Commands whose bare `/` argument is refused (`ls /`, `rm -rf /`...). */
const ROOT_PATH_COMMANDS = new Set([
  "awk",
  "cat",
  "cp",
  "du",
  "find",
  "grep",
  "head",
  "less",
  "ln",
  "ls",
  "more",
  "mv",
  "rm",
  "sed",
  "tail",
  "tar",
]);
const CWD_COMMANDS = new Set(["cd", "pushd"]);
const COMMAND_WRAPPERS = new Set(["command", "builtin"]);
/** Keywords after which a new simple command starts (`if cd /x`, `{ cd /x; }`). */
const COMMAND_KEYWORDS = new Set([
  "!",
  "{",
  "case",
  "do",
  "elif",
  "else",
  "for",
  "if",
  "select",
  "then",
  "time",
  "until",
  "while",
  "}",
  "done",
  "esac",
  "fi",
]);

// Python's `\w` is Unicode-aware; `[\p{L}\p{N}_]` with the `u` flag matches it closely.
const W = String.raw`[\p{L}\p{N}_]`;
const FILE_URL = new RegExp(String.raw`(?<!${W})file://\S+`, "iu");
const URL_WITH_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;
const DOTDOT_SEGMENT = /(?:^|[/\\=])\.\.(?:$|[/\\])/;
const ABSOLUTE_PATH = new RegExp(String.raw`(?<![:\p{L}\p{N}_])(?<!:/)/[^\s"'\x60;&|<>()]+`, "gu");
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

const USE_USER_DATA = `Use paths under ${USER_DATA_ROOT}`;

/** Thrown inside the validator to stop at the first violation. */
class Violation extends Error {}

/** A URL (other than file://), possibly as the value of `--opt=`, is not a path. */
function isNonFileUrlToken(token: string): boolean {
  const eq = token.indexOf("=");
  const values = eq >= 0 ? [token, token.slice(eq + 1)] : [token];
  return values.some((v) => URL_WITH_SCHEME.test(v) && !v.toLowerCase().startsWith("file://"));
}

/** Text that merely looks like a path: non-ASCII, or only `{identifier}` placeholders (never `${VAR}` or `{a,b}`). */
function isNonPathLiteral(fragment: string): boolean {
  if ([...fragment].some((ch) => ch.codePointAt(0)! > 127)) return true;
  if (!fragment.includes("{") && !fragment.includes("}")) return false;
  if (fragment.includes("${")) return false;
  const blocks = [...fragment.matchAll(/\{([^{}]*)\}/g)].map((m) => m[1] ?? "");
  const opens = fragment.split("{").length - 1;
  const closes = fragment.split("}").length - 1;
  return opens === blocks.length && closes === blocks.length && blocks.every((inner) => IDENTIFIER.test(inner));
}

function isAllowedAbsolutePath(path: string, families: readonly string[], allowSystemPaths: boolean): boolean {
  // DeerFlow's order: a path written inside a family that then climbs out with `..` is a traversal, so the
  // family is judged on the text before the first `..` segment (`/mnt/user-data/../etc` starts in user data).
  const beforeTraversal = path.split(/\/\.\.(?:\/|$)/)[0] ?? path;
  if (families.some((family) => isPathInside(beforeTraversal, family, { posix: true }))) {
    if (hasTraversal(path)) throw new Violation(PATH_TRAVERSAL_MESSAGE);
    return true;
  }
  return (
    allowSystemPaths &&
    HOST_SYSTEM_PATH_PREFIXES.some((prefix) => path === prefix.slice(0, -1) || path.startsWith(prefix))
  );
}

/** The target of `cd`/`pushd` starting at `start`, skipping options and redirections. */
function cdTarget(tokens: readonly string[], start: number): [string | undefined, number] {
  let i = start;
  while (i < tokens.length) {
    const token = tokens[i] as string;
    if (SHELL_COMMAND_SEPARATORS.has(token)) return [undefined, i];
    if (SHELL_REDIRECTIONS.has(token)) i += 2;
    else if (token === "--" || (token.startsWith("-") && token !== "-")) i += 1;
    else return [token, i + 1];
  }
  return [undefined, i];
}

function checkCdTarget(command: string, target: string | undefined, families: readonly string[]): void {
  if (target === undefined || target === "-")
    throw new Violation(`Unsafe working directory change in command: ${command}. ${USE_USER_DATA}`);
  const unsafe = `Unsafe working directory change in command: ${command} ${target}. ${USE_USER_DATA}`;
  if (target.startsWith("$") || target.startsWith("`") || target.startsWith("~")) throw new Violation(unsafe);
  if (target.startsWith("/")) {
    if (hasTraversal(target)) throw new Violation(PATH_TRAVERSAL_MESSAGE);
    if (!isAllowedAbsolutePath(target, families, false)) throw new Violation(unsafe);
  }
}

function checkRootArgs(command: string, tokens: readonly string[], start: number): void {
  if (!ROOT_PATH_COMMANDS.has(command)) return;
  for (let i = start; i < tokens.length; i++) {
    const token = tokens[i] as string;
    if (SHELL_COMMAND_SEPARATORS.has(token)) return;
    if (SHELL_REDIRECTIONS.has(token)) i += 1;
    else if (token === "/") throw new Violation(`Unsafe absolute paths in command: /. ${USE_USER_DATA}`);
  }
}

const baseName = (token: string): string => token.slice(token.lastIndexOf("/") + 1);

/** Token-level checks: `..` segments, working-directory changes, bare `/` arguments. */
function checkTokens(command: string, families: readonly string[]): void {
  if (hasCdInSubstitution(command))
    throw new Violation(`Unsafe working directory change in command substitution. ${USE_USER_DATA}`);
  const tokens = splitShellTokens(command);
  for (const token of tokens) {
    if (SHELL_COMMAND_SEPARATORS.has(token) || SHELL_REDIRECTIONS.has(token)) continue;
    if (!isNonFileUrlToken(token) && DOTDOT_SEGMENT.test(token)) throw new Violation(PATH_TRAVERSAL_MESSAGE);
  }
  let atStart = true;
  let i = 0;
  while (i < tokens.length) {
    const token = tokens[i] as string;
    if (SHELL_COMMAND_SEPARATORS.has(token)) {
      atStart = true;
      i += 1;
      continue;
    }
    const name = baseName(token);
    if (SHELL_REDIRECTIONS.has(token) || !atStart || ASSIGNMENT.test(token) || COMMAND_KEYWORDS.has(name)) {
      i += 1;
      continue;
    }
    atStart = false;
    const next = tokens[i + 1];
    if (COMMAND_WRAPPERS.has(name) && next !== undefined) {
      const wrapped = baseName(next);
      if (CWD_COMMANDS.has(wrapped)) {
        const [target, after] = cdTarget(tokens, i + 2);
        checkCdTarget(wrapped, target, families);
        i = after;
        continue;
      }
      checkRootArgs(wrapped, tokens, i + 2);
    }
    if (!CWD_COMMANDS.has(name)) {
      checkRootArgs(name, tokens, i + 1);
      i += 1;
      continue;
    }
    const [target, after] = cdTarget(tokens, i + 1);
    checkCdTarget(name, target, families);
    i = after;
  }
}

function validate(command: string, families: readonly string[]): void {
  const fileUrl = FILE_URL.exec(command);
  if (fileUrl !== null) throw new Violation(`Unsafe file:// URL in command: ${fileUrl[0]}. ${USE_USER_DATA}`);
  checkTokens(command, families);
  const urlSpans = nonFileUrlSpans(command);
  const unsafe = new Set<string>();
  let span = 0; // matches and spans both ascend, so one pointer suffices
  for (const match of command.matchAll(ABSOLUTE_PATH)) {
    while (span < urlSpans.length && (urlSpans[span] as readonly [number, number])[1] <= match.index) span++;
    const current = urlSpans[span];
    if (current !== undefined && match.index >= current[0]) continue;
    const path = match[0];
    if (isNonPathLiteral(path) || isAllowedAbsolutePath(path, families, true)) continue;
    unsafe.add(path);
  }
  if (unsafe.size > 0)
    throw new Violation(`Unsafe absolute paths in command: ${[...unsafe].sort().join(", ")}. ${USE_USER_DATA}`);
}

/**
 * Checks a command meant for a host (non-isolated) sandbox. Refused: `file://`
 * URLs; `cd`/`pushd` inside `$(...)`; any `..` path segment outside http(s)-style
 * URLs; `cd`/`pushd` (also behind `command`/`builtin`, after `if`, `{`, `;`,
 * newlines) to `-`, nothing, `$…`, backticks, `~…` or an absolute path outside
 * the allowed families; a bare `/` argument to `ls cat cp mv rm find grep ln tar
 * head tail sed awk du less more`; absolute paths outside the allowed families
 * and the system prefixes `/bin/ /usr/bin/ /usr/sbin/ /sbin/ /opt/homebrew/bin/ /dev/`.
 *
 * @param command - The command as the model wrote it.
 * @param options - Extra allowed path families.
 * @returns DeerFlow's message for the first violation (without `Error: `), or null when accepted.
 * @example
 * ```ts
 * findHostCommandViolation("cat /etc/passwd");
 * // "Unsafe absolute paths in command: /etc/passwd. Use paths under /mnt/user-data"
 * findHostCommandViolation("ls /mnt/user-data/workspace"); // null
 * ```
 */
export function findHostCommandViolation(command: string, options: HostCommandPolicyOptions = {}): string | null {
  const families = [USER_DATA_ROOT, SKILLS_PATH, ACP_WORKSPACE_PATH, ...(options.allowedPaths ?? [])].filter(
    (p) => p.startsWith("/") && p !== "/",
  );
  try {
    validate(command, families);
    return null;
  } catch (err) {
    if (err instanceof Violation) return err.message;
    throw err;
  }
}
