/**
 * Shell rules, matched against the comment-free view of a script (see
 * `shell-text.ts`): reverse shells, pipe-to-shell, destructive commands and
 * environment dumps.
 */
import type { Finding } from "../types.js";
import { findingAtMatch, lineAt, makeFinding } from "./catalogue.js";
import { FORK_BOMB } from "./rules-network.js";
import { shellViews } from "./shell-text.js";

/** Unmistakable: bash's `/dev/tcp` (or udp) sockets, or netcat handing out a program. */
const REVERSE_SHELL = /\/dev\/(?:tcp|udp)\/|\bn(?:c|cat|etcat)\b[^\n;|&]*?\s(?:-[a-zA-Z]*e\b|--(?:sh-)?exec\b)/;
/** Common in reverse shells, but also in legitimate scripts: only a warning. */
const REVERSE_SHELL_HEURISTIC = /\bbash\s+-i\b|\bmkfifo\s+/;
const SENSITIVE_READ = /\/etc\/shadow|\/etc\/passwd/;
const NETWORK_TOOL = /\b(?:curl|wget|nc|scp)\b/;
const SHELLS = String.raw`(?:/usr/(?:local/)?bin/|/bin/)?(?:ba|z|da|k|fi)?sh\b`;
/**
 * `curl|wget … | [sudo [opts]] sh`, where `…` may span `\`-continued lines.
 * Each repeated alternative starts with a distinct character, so a long line
 * without a pipe fails in linear time.
 */
const CURL_PIPE_SHELL = new RegExp(
  String.raw`\b(?:curl|wget)\b(?:[^\\\n|;]|\\[\s\S])*\|(?:\s|\\\n)*(?:sudo(?:\s+-[A-Za-z]+(?:\s+(?![\w/]*sh\b)[\w.][\w.-]*)?)*\s+)?${SHELLS}` +
    String.raw`|\b(?:ba|z|da|k)?sh\s+<\(\s*(?:curl|wget)\b` +
    String.raw`|\b(?:ba|z|da|k)?sh\s+-c\s+["']?\$\(\s*(?:curl|wget)\b`,
);
const SYSTEM_DIRS = "bin|boot|dev|etc|home|lib|lib64|opt|proc|root|run|sbin|srv|sys|usr|var";
/**
 * `rm` with a recursive flag against `/`, `/*` or a whole top-level system
 * directory (`/etc`, `/usr/`, `/var/*`). Subpaths (`/tmp/x`, `/usr/local/x`)
 * and relative paths (`./build`) do not match.
 */
const DESTRUCTIVE_RM = new RegExp(
  String.raw`\brm\s+(?:-\S+\s+)*?(?:-[A-Za-z]*[rR][A-Za-z]*|--recursive)\s+(?:-\S+\s+)*["']?/(?:\*|(?:${SYSTEM_DIRS})(?:/\*?)?)?["']?(?=$|[\s;&|)])`,
  "m",
);
// Writing a block device; /dev/null and the standard streams are harmless sinks.
const DD_DEVICE = /\bdd\s+[^\n#]*\bof=\/dev\/(?!null\b|stdout\b|stderr\b|fd\/)/;
/**
 * A bare `env`, `printenv` or `export -p` in command position (line start, or
 * after `;`, `&`, `|`, `(`, a backtick, `{ `, or a keyword such as `then`), with
 * optional `NAME=value` prefixes, and nothing but a separator or redirect after
 * it. `env python x.py` runs a program and `printenv HOME` prints one value:
 * neither is a dump.
 */
const ENV_DUMP =
  /(?:^|[;&|(`]|\{[ \t]|(?<![\w/.-])(?:if|then|elif|else|while|until|do|exec)[ \t]+)[ \t]*(?:[A-Za-z_]\w*=\S*[ \t]+)*(env|printenv|export[ \t]+-p)(?=[ \t]*(?:$|[;&|)>`]))/m;

/**
 * Runs the shell rules over one script.
 *
 * @param relPath - package-relative path.
 * @param text - the script.
 * @returns at most one finding per rule.
 */
export function shellFindings(relPath: string, text: string): Finding[] {
  const { code, commands } = shellViews(text);
  const findings: Finding[] = [];
  const first = (ruleId: string, pattern: RegExp): void => {
    const match = pattern.exec(code);
    if (match !== null) findings.push(findingAtMatch(ruleId, relPath, code, match));
  };
  first("shell-reverse-shell", REVERSE_SHELL);
  first("shell-reverse-shell-heuristic", REVERSE_SHELL_HEURISTIC);
  const sensitive = SENSITIVE_READ.exec(code);
  if (sensitive !== null && NETWORK_TOOL.test(code)) {
    findings.push(
      makeFinding("shell-sensitive-exfil", {
        file: relPath,
        line: lineAt(code, sensitive.index),
        evidence: sensitive[0],
      }),
    );
  }
  first("shell-curl-pipe-shell", CURL_PIPE_SHELL);
  const destructive = [DESTRUCTIVE_RM, FORK_BOMB, DD_DEVICE]
    .map((pattern) => pattern.exec(code))
    .filter((m): m is RegExpExecArray => m !== null)
    .sort((a, b) => a.index - b.index)[0];
  if (destructive !== undefined) findings.push(findingAtMatch("shell-destructive-command", relPath, code, destructive));
  const dump = ENV_DUMP.exec(commands);
  if (dump !== null) {
    const at = dump.index + dump[0].length - (dump[1] ?? "").length;
    findings.push(
      makeFinding("shell-env-dump", { file: relPath, line: lineAt(commands, at), evidence: dump[1] ?? null }),
    );
  }
  return findings;
}
