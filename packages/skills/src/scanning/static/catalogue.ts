/**
 * The SkillScan rule catalogue: every rule id with its severity, message and
 * remediation. Messages and remediations are the texts DeerFlow shows in its
 * block errors, so they are reproduced exactly.
 */
import type { Finding, Severity } from "../types.js";

/** Static description of one rule. */
export interface RuleSpec {
  readonly ruleId: string;
  readonly severity: Severity;
  readonly message: string;
  readonly remediation: string;
}

const spec = (ruleId: string, severity: Severity, message: string, remediation: string): RuleSpec => ({
  ruleId,
  severity,
  message,
  remediation,
});

/** Every built-in rule, in catalogue order. */
export const RULE_CATALOGUE: readonly RuleSpec[] = [
  spec(
    "package-path-traversal",
    "CRITICAL",
    "Archive member path traverses outside the skill root.",
    "Remove parent-directory traversal from the package path.",
  ),
  spec(
    "package-absolute-path",
    "CRITICAL",
    "Archive member path is absolute.",
    "Use relative paths inside the skill archive.",
  ),
  spec(
    "package-ads-stream-name",
    "CRITICAL",
    "Archive member path contains a colon, which on Windows/NTFS addresses an alternate data stream hidden from directory listing.",
    "Remove colons from archive member paths.",
  ),
  spec("package-symlink", "HIGH", "Package contains a symlink entry.", "Remove symlinks from the skill package."),
  spec(
    "package-nested-skill-md",
    "CRITICAL",
    "Package contains a nested SKILL.md file.",
    "Keep exactly one SKILL.md at the skill root.",
  ),
  spec(
    "package-oversized-total",
    "CRITICAL",
    "Package total uncompressed size exceeds the limit.",
    "Remove large files or split assets out of the skill package.",
  ),
  spec(
    "package-too-many-members",
    "CRITICAL",
    "Package contains more members than the allowed limit.",
    "Reduce the number of files in the skill package.",
  ),
  spec(
    "package-oversized-file",
    "CRITICAL",
    "Package contains a file that exceeds the per-file size limit.",
    "Remove or shrink the oversized file.",
  ),
  spec(
    "package-executable-binary",
    "CRITICAL",
    "Package contains an executable binary.",
    "Remove binary executables from the skill package.",
  ),
  spec(
    "package-nested-archive",
    "HIGH",
    "Package contains a nested archive file.",
    "Unpack and review nested archives before packaging the skill.",
  ),
  spec(
    "package-hidden-sensitive-file",
    "HIGH",
    "Package contains a hidden sensitive file.",
    "Remove hidden credential or package-manager config files.",
  ),
  spec(
    "package-git-directory",
    "MEDIUM",
    "Package contains a .git directory.",
    "Package only source files needed by the skill, excluding repository metadata.",
  ),
  spec(
    "secret-private-key",
    "CRITICAL",
    "Private key material is embedded in skill content.",
    "Move private keys to a managed secret store and remove them from the skill.",
  ),
  spec(
    "secret-cloud-token",
    "CRITICAL",
    "High-confidence cloud or API token is embedded in skill content.",
    "Move tokens to environment variables or a secret store.",
  ),
  spec(
    "secret-env-assignment",
    "HIGH",
    "Secret-like assignment contains a non-placeholder value.",
    "Replace hardcoded credentials with documented runtime configuration.",
  ),
  spec(
    "declaration-prompt-override",
    "HIGH",
    "SKILL.md contains a prompt override phrase.",
    "Rephrase examples so they describe unsafe text instead of instructing the agent to follow it.",
  ),
  spec(
    "declaration-sensitive-capability",
    "HIGH",
    "SKILL.md declares a sensitive capability.",
    "Make the capability explicit, narrow, and justified, or remove it.",
  ),
  spec(
    "declaration-sensitive-path",
    "HIGH",
    "SKILL.md references sensitive host or credential paths.",
    "Remove references to sensitive host paths unless they are harmless documentation.",
  ),
  spec(
    "declaration-external-endpoint",
    "MEDIUM",
    "SKILL.md declares an external network endpoint.",
    "Document why the endpoint is needed and prefer HTTPS.",
  ),
  spec(
    "python-dynamic-exec",
    "CRITICAL",
    "Python dynamic code execution primitive is used in a skill file.",
    "Remove dynamic execution and replace it with explicit typed logic.",
  ),
  spec(
    "python-shell-exec",
    "CRITICAL",
    "Python shell execution primitive is used in a skill file.",
    "Use subprocess with a fixed argument list and shell=False, or remove shell execution.",
  ),
  spec(
    "python-sensitive-exfil",
    "CRITICAL",
    "Python code reads a sensitive path and uses an outbound network sink in the same file.",
    "Remove the sensitive read or network sink, and keep credential access outside skills.",
  ),
  spec(
    "python-env-dump-exfil",
    "CRITICAL",
    "Python code reads the process environment in bulk and uses an outbound network sink in the same file.",
    "Avoid bulk environment reads and never send environment data over the network.",
  ),
  spec(
    "python-reverse-shell",
    "CRITICAL",
    "Python code matches a reverse-shell shape.",
    "Remove reverse-shell behavior from the skill.",
  ),
  spec(
    "python-dynamic-import",
    "HIGH",
    "Python dynamically imports a non-literal module.",
    "Use explicit imports or a constrained allowlist.",
  ),
  spec(
    "python-subprocess",
    "HIGH",
    "Python invokes subprocess without shell=True.",
    "Review subprocess usage and keep arguments fixed and minimal.",
  ),
  spec(
    "python-sensitive-path-read",
    "HIGH",
    "Python reads a sensitive path.",
    "Remove sensitive host-path access from the skill.",
  ),
  spec(
    "python-unsafe-deserialization",
    "MEDIUM",
    "Python uses unsafe deserialization.",
    "Use safe loaders or trusted typed formats.",
  ),
  spec(
    "shell-reverse-shell",
    "CRITICAL",
    "Shell script contains a reverse-shell idiom.",
    "Remove reverse-shell behavior from the skill.",
  ),
  spec(
    "shell-reverse-shell-heuristic",
    "HIGH",
    "Shell script resembles a reverse-shell idiom.",
    "Confirm this is not reverse-shell behavior; unmistakable reverse-shell signals are blocked outright.",
  ),
  spec(
    "shell-sensitive-exfil",
    "CRITICAL",
    "Shell script reads sensitive paths and sends data over the network.",
    "Remove sensitive reads or outbound transfer commands.",
  ),
  spec(
    "shell-curl-pipe-shell",
    "HIGH",
    "Shell script pipes remote content into a shell.",
    "Download, verify, and execute reviewed code explicitly instead.",
  ),
  spec(
    "shell-destructive-command",
    "HIGH",
    "Shell script contains an unmistakably destructive command.",
    "Remove destructive commands from skill scripts.",
  ),
  spec("shell-env-dump", "MEDIUM", "Shell script dumps the environment.", "Avoid bulk environment dumps in skills."),
  spec(
    "network-cloud-metadata",
    "CRITICAL",
    "Skill content references a cloud metadata service.",
    "Remove cloud metadata access from the skill.",
  ),
  spec(
    "resource-fork-bomb",
    "CRITICAL",
    "Skill content contains a fork-bomb pattern.",
    "Remove resource-exhaustion payloads.",
  ),
  spec(
    "network-cleartext-http",
    "MEDIUM",
    "Skill content references a non-local cleartext HTTP endpoint.",
    "Use HTTPS or document why cleartext local development is required.",
  ),
  spec(
    "network-local-http",
    "LOW",
    "Skill content references a local HTTP endpoint.",
    "Confirm the local endpoint is expected for this skill.",
  ),
];

const BY_ID = new Map(RULE_CATALOGUE.map((rule) => [rule.ruleId, rule]));

/** Longest evidence kept for non-secret rules; matches can be whole minified lines. */
const MAX_EVIDENCE_CHARS = 200;

/** Where a finding points and what it saw. */
export interface FindingSite {
  readonly file: string | null;
  readonly line?: number | null;
  readonly evidence?: string | null;
  /** Overrides the catalogue severity (a nested archive holding an executable escalates). */
  readonly severity?: Severity;
}

/**
 * Builds a finding for a catalogue rule. Evidence of `secret-*` rules is always
 * replaced by `[redacted]`: any retained prefix would leak real token bytes into
 * HTTP responses and model context.
 *
 * @param ruleId - a rule of {@link RULE_CATALOGUE}.
 * @param site - location and evidence.
 * @returns the finding.
 * @throws Error when `ruleId` is not in the catalogue (a programming error).
 */
export function makeFinding(ruleId: string, site: FindingSite): Finding {
  const rule = BY_ID.get(ruleId);
  if (rule === undefined) throw new Error(`Unknown SkillScan rule: ${ruleId}`);
  let evidence = site.evidence ?? null;
  if (evidence !== null) {
    evidence = ruleId.startsWith("secret-") ? "[redacted]" : truncate(evidence);
  }
  return {
    ruleId,
    severity: site.severity ?? rule.severity,
    file: site.file,
    line: site.line ?? null,
    message: rule.message,
    remediation: rule.remediation,
    evidence,
  };
}

function truncate(text: string): string {
  return text.length <= MAX_EVIDENCE_CHARS ? text : `${text.slice(0, MAX_EVIDENCE_CHARS)}…`;
}

/**
 * 1-based line number of a character offset in `text`.
 *
 * @param text - the scanned text.
 * @param index - a character offset (clamped to 0).
 * @returns the line holding that offset.
 */
export function lineAt(text: string, index: number): number {
  let line = 1;
  const end = Math.min(Math.max(index, 0), text.length);
  for (let i = 0; i < end; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/**
 * A fast `lineAt` for one text, for rules that report many sites: newline
 * offsets are collected once and each lookup is a binary search.
 *
 * @param text - the scanned text.
 * @returns index → 1-based line.
 */
export function lineLocator(text: string): (index: number) => number {
  const newlines: number[] = [];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) newlines.push(i);
  return (index: number): number => {
    let lo = 0;
    let hi = newlines.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((newlines[mid] ?? 0) < index) lo = mid + 1;
      else hi = mid;
    }
    return lo + 1;
  };
}

/**
 * Builds a finding located at a regex match.
 *
 * @param ruleId - catalogue rule.
 * @param file - package-relative path.
 * @param text - the text the match came from (for the line number).
 * @param match - the match; its text becomes the evidence.
 * @returns the finding.
 */
export function findingAtMatch(
  ruleId: string,
  file: string,
  text: string,
  match: RegExpMatchArray | RegExpExecArray,
): Finding {
  return makeFinding(ruleId, { file, line: lineAt(text, match.index ?? 0), evidence: match[0] });
}
