/**
 * Contracts of the security scanning extension point. A scan looks at a whole
 * skill package (a directory on disk) and returns findings; any CRITICAL
 * finding blocks the install or edit.
 */

/** Severity of a static finding. Only `CRITICAL` blocks. */
export type Severity = "CRITICAL" | "HIGH" | "MEDIUM" | "LOW";

/** One problem a scanner found. */
export interface Finding {
  /** Stable rule identifier, e.g. `shell-curl-pipe-shell`. */
  readonly ruleId: string;
  readonly severity: Severity;
  /** Path relative to the package root, POSIX separators; `null` for the archive as a whole. */
  readonly file: string | null;
  /** 1-based line, when the rule is line-oriented. */
  readonly line: number | null;
  readonly message: string;
  readonly remediation: string;
  /** Offending text (always `[redacted]` for secrets), or `null`. */
  readonly evidence: string | null;
}

/** Result of scanning one package. */
export interface ScanReport {
  readonly findings: readonly Finding[];
  /** True when at least one finding is CRITICAL. */
  readonly blocked: boolean;
  /** Problems of the scanner itself (a file it could not read...), not of the package. */
  readonly scannerErrors: readonly string[];
}

/** A deterministic package scanner (the static SkillScan is the built-in one). */
export interface SkillScanner {
  /** Short identifier used in logs and history records. */
  readonly id: string;
  /** Scans the package rooted at `dir` (a directory containing SKILL.md). */
  scanDirectory(dir: string, options?: { signal?: AbortSignal }): Promise<ScanReport>;
}

/** Verdict of a content moderation scan. */
export type ModerationDecision = "allow" | "warn" | "block";

/** One file handed to a moderation scanner. */
export interface ModerationInput {
  /** The text to judge. */
  readonly content: string;
  /** Where it lives, e.g. `my-skill/SKILL.md` (shown to the moderator, logged). */
  readonly location: string;
  /** True for code (scripts); executables must get `allow` or they are rejected. */
  readonly executable: boolean;
  /** Static findings to give the moderator as context. */
  readonly staticFindings?: readonly Finding[];
  readonly signal?: AbortSignal;
}

/** Verdict and the reason the moderator gave. */
export interface ModerationResult {
  readonly decision: ModerationDecision;
  readonly reason: string;
}

/** A content moderation scanner, e.g. one backed by a chat model. */
export interface ModerationScanner {
  readonly id: string;
  moderate(input: ModerationInput): Promise<ModerationResult>;
}
