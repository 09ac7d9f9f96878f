/**
 * How the scanners classify a package file: code (moderated as executable),
 * prompt input (moderated as text), Python or shell source (static rules).
 */
import path from "node:path";

/** Suffixes that make a file code wherever it sits. */
const CODE_SUFFIXES: ReadonlySet<string> = new Set([
  ".bash",
  ".cjs",
  ".js",
  ".mjs",
  ".php",
  ".pl",
  ".ps1",
  ".py",
  ".rb",
  ".sh",
  ".ts",
  ".zsh",
]);
/** Suffixes of prompt-input files under `references/` or `templates/`. */
const PROMPT_INPUT_SUFFIXES: ReadonlySet<string> = new Set([
  ".json",
  ".markdown",
  ".md",
  ".rst",
  ".txt",
  ".yaml",
  ".yml",
]);
const PROMPT_INPUT_DIRS = new Set(["references", "templates"]);

function suffixOf(relPath: string): string {
  return path.posix.extname(relPath).toLowerCase();
}

function startsWithShebang(head: Uint8Array | string): boolean {
  if (typeof head === "string") return head.startsWith("#!");
  return head[0] === 0x23 && head[1] === 0x21;
}

/**
 * True for code: anything under `scripts/`, a file with a code suffix, or a
 * suffix-less file starting with `#!`. Only suffix-less files need `head`.
 *
 * @param relPath - package-relative POSIX path.
 * @param head - the file's first bytes or text, when known.
 * @returns whether the file is moderated as executable.
 */
export function isCodeFile(relPath: string, head?: Uint8Array | string): boolean {
  if (relPath.split("/")[0] === "scripts") return true;
  const suffix = suffixOf(relPath);
  if (CODE_SUFFIXES.has(suffix)) return true;
  return suffix === "" && head !== undefined && startsWithShebang(head);
}

/**
 * True when a file's suffix cannot make it code, so the pipeline need not open
 * it to look for a shebang.
 *
 * @param relPath - package-relative POSIX path.
 * @returns whether only the content can tell.
 */
export function needsShebangProbe(relPath: string): boolean {
  return suffixOf(relPath) === "" && relPath.split("/")[0] !== "scripts";
}

/**
 * True for prompt input: first directory `references/` or `templates/` and a
 * text suffix (`.json .markdown .md .rst .txt .yaml .yml`).
 *
 * @param relPath - package-relative POSIX path.
 * @returns whether the file is moderated as non-executable text.
 */
export function isPromptInputFile(relPath: string): boolean {
  const parts = relPath.split("/");
  return parts.length > 1 && PROMPT_INPUT_DIRS.has(parts[0] ?? "") && PROMPT_INPUT_SUFFIXES.has(suffixOf(relPath));
}

/**
 * The rule single-file writes use (`skill_manage write_file`, the custom-file
 * HTTP route): content is executable when its path has a `scripts/` segment.
 *
 * @param supportPath - the support path as given (`\` is accepted).
 * @returns whether a write must be moderated as executable.
 */
export function isExecutableSupportPath(supportPath: string): boolean {
  const normalized = supportPath.replace(/\\/g, "/").replace(/^\/+/, "");
  return normalized.startsWith("scripts/") || `/${normalized}/`.includes("/scripts/");
}

/**
 * True for Python source: a `.py` suffix or a `#!` line naming python.
 *
 * @param relPath - package-relative POSIX path.
 * @param text - the decoded content.
 * @returns whether the Python rules apply.
 */
export function isPythonSource(relPath: string, text: string): boolean {
  if (suffixOf(relPath) === ".py") return true;
  return text.startsWith("#!") && (text.split("\n", 1)[0] ?? "").toLowerCase().includes("python");
}

/**
 * True for shell source: `.sh`, `.bash` or `.zsh`, or a `#!` line naming a
 * POSIX shell.
 *
 * @param relPath - package-relative POSIX path.
 * @param text - the decoded content.
 * @returns whether the shell rules apply.
 */
export function isShellSource(relPath: string, text: string): boolean {
  if ([".sh", ".bash", ".zsh"].includes(suffixOf(relPath))) return true;
  if (!text.startsWith("#!")) return false;
  const first = (text.split("\n", 1)[0] ?? "").toLowerCase();
  return /(?:^|[\s/])(?:ba|z|da|k)?sh\b/.test(first.slice(2));
}
