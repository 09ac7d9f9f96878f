/**
 * Secret rules: private keys, high-confidence cloud/API tokens and secret-like
 * assignments. Evidence is always `[redacted]` (enforced by `makeFinding`).
 */
import type { Finding } from "../types.js";
import { findingAtMatch } from "./catalogue.js";
import { pythonViews } from "./python-text.js";

const PRIVATE_KEY = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/;
// The `sk-` body also admits `_` and `-` so project keys (`sk-proj-…`) are caught.
const TOKEN_PATTERNS: readonly RegExp[] = [
  /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g,
  /\bgh[pousr]_[A-Za-z0-9_]{20,}\b/g,
  /\bxox[baprs]-[A-Za-z0-9-]{20,}\b/g,
  /\bsk-[A-Za-z0-9_-]{20,}\b/g,
];
const SECRET_NAME = String.raw`(?<![A-Za-z0-9])(?:token|password|passwd|api[_-]?key|secret|credential)s?\b["']?`;
/** `name[:=]value` sweep for line-oriented text (YAML, .env, shell, JSON, Markdown). */
const TEXT_ASSIGNMENT = new RegExp(String.raw`${SECRET_NAME}\s*(?::=|[:=](?!=))\s*["']?([^"'\s#]+)`, "gi");
/**
 * Python: only a string literal bound by `=`, a keyword argument, a dict entry
 * or an annotated assignment counts, so `token: str`, `if not api_key:` and
 * `api_key = os.getenv("X")` stay quiet.
 */
const PYTHON_ASSIGNMENT = new RegExp(
  String.raw`${SECRET_NAME}\s*(?::\s*[A-Za-z_][\w.\[\], |]*?\s*=(?!=)|=(?!=)|:)\s*([rRbBuUfF]{0,2})(["'])([^\n]*?)\2`,
  "gi",
);

const PLACEHOLDERS = new Set([
  "",
  "x",
  "xx",
  "xxx",
  "xxxx",
  "changeme",
  "change-me",
  "example",
  "placeholder",
  "test",
  "dummy",
  "your-key",
  "<your-key>",
]);
// Not values at all: references to runtime configuration and null-like literals.
const REFERENCE_PREFIXES = ["$", "{{", "process.env", "os.environ", "os.getenv", "import.meta.env"];
const NULL_LIKE = new Set(["null", "none", "nil", "undefined", "true", "false"]);

/**
 * True when a captured value is a documented placeholder rather than a secret:
 * DeerFlow's list (`""`, `x`…`xxxx`, `changeme`, `change-me`, `example`,
 * `placeholder`, `test`, `dummy`, `your-key`, `<your-key>`, anything starting
 * with `<` or `${`, anything containing `your` or `example`), plus references
 * to runtime configuration (`$VAR`, `{{ … }}`, `process.env…`) and null-like
 * literals.
 *
 * @param value - the captured value (quotes allowed).
 * @returns whether it is a placeholder.
 */
export function isPlaceholderValue(value: string): boolean {
  const normalized = value
    .trim()
    .replace(/^["']+|["']+$/g, "")
    .toLowerCase();
  if (PLACEHOLDERS.has(normalized) || NULL_LIKE.has(normalized)) return true;
  if (normalized.startsWith("<") || normalized.includes("your") || normalized.includes("example")) return true;
  return REFERENCE_PREFIXES.some((prefix) => normalized.startsWith(prefix));
}

/**
 * True when a token-shaped match is a placeholder: the generic placeholder
 * test, or a body that is one repeated character or holds `xxxx`
 * (`AKIAXXXXXXXXXXXXXXXX`, `ghp_xxxx…`).
 */
function isPlaceholderToken(token: string): boolean {
  if (isPlaceholderValue(token)) return true;
  const body = token.replace(/^(?:AKIA|ASIA|gh[pousr]_|xox[baprs]-|sk-)/, "");
  return /^(.)\1*$/.test(body) || /xxxx/i.test(body);
}

/**
 * Runs the secret rules over one text file.
 *
 * @param relPath - package-relative path.
 * @param text - decoded content.
 * @param python - true for Python source (literal-only assignment rule).
 * @returns at most one finding per rule.
 */
export function secretFindings(relPath: string, text: string, python: boolean): Finding[] {
  const findings: Finding[] = [];
  const key = PRIVATE_KEY.exec(text);
  if (key !== null) findings.push(findingAtMatch("secret-private-key", relPath, text, key));

  // Every match is checked: a placeholder first must not hide a real token later.
  outer: for (const pattern of TOKEN_PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      if (isPlaceholderToken(match[0])) continue;
      findings.push(findingAtMatch("secret-cloud-token", relPath, text, match));
      break outer;
    }
  }

  const source = python ? pythonViews(text).withoutComments : text;
  const pattern = python ? PYTHON_ASSIGNMENT : TEXT_ASSIGNMENT;
  for (const match of source.matchAll(pattern)) {
    const value = (python ? match[3] : match[1]) ?? "";
    if (isPlaceholderValue(value)) continue;
    // An f-string with a replacement field is computed at run time, not embedded.
    if (python && /f/i.test(match[1] ?? "") && value.includes("{")) continue;
    findings.push(findingAtMatch("secret-env-assignment", relPath, source, match));
    break;
  }
  return findings;
}
