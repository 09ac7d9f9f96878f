/**
 * Finding list utilities shared by every scanner: deduplication, the
 * deterministic order, the DeerFlow block text and the snake_case wire shape.
 */
import type { Finding, ScanReport } from "../types.js";

/**
 * Drops repeated findings, keeping the first of each `(ruleId, file, line)`.
 *
 * @param findings - findings in discovery order.
 * @returns the unique findings, in the same order.
 */
export function dedupeFindings(findings: Iterable<Finding>): Finding[] {
  const seen = new Set<string>();
  const out: Finding[] = [];
  for (const finding of findings) {
    const key = JSON.stringify([finding.ruleId, finding.file, finding.line]);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(finding);
  }
  return out;
}

// Code-unit comparison, not localeCompare: the order must not depend on the host locale.
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Deterministic order: file (archive-level `null` first), then line (`null`
 * first), then rule id.
 *
 * @param a - first finding.
 * @param b - second finding.
 * @returns negative, zero or positive like any comparator.
 */
export function compareFindings(a: Finding, b: Finding): number {
  if (a.file !== b.file) {
    if (a.file === null) return -1;
    if (b.file === null) return 1;
    return compareText(a.file, b.file);
  }
  if (a.line !== b.line) {
    if (a.line === null) return -1;
    if (b.line === null) return 1;
    return a.line - b.line;
  }
  return compareText(a.ruleId, b.ruleId);
}

/**
 * Dedupes and sorts findings, then derives `blocked` (any CRITICAL).
 *
 * @param findings - raw findings.
 * @param scannerErrors - problems of the scanner itself.
 * @returns a {@link ScanReport}.
 */
export function buildScanReport(findings: Iterable<Finding>, scannerErrors: readonly string[] = []): ScanReport {
  const sorted = dedupeFindings(findings).sort(compareFindings);
  return {
    findings: sorted,
    blocked: sorted.some((f) => f.severity === "CRITICAL"),
    scannerErrors: [...scannerErrors],
  };
}

/**
 * Formats findings the way DeerFlow's block errors do:
 * `"<rule_id> (<SEV>) at <file>[:<line>]: <message> Remediation: <remediation>"`,
 * joined with `"; "`; an archive-level finding shows `<archive>` as its file.
 *
 * @param findings - the findings to show (usually the CRITICAL ones).
 * @returns the formatted text.
 * @example
 * ```ts
 * formatFindings(report.findings.filter((f) => f.severity === "CRITICAL"));
 * // "secret-private-key (CRITICAL) at scripts/key.pem:1: Private key material ... Remediation: ..."
 * ```
 */
export function formatFindings(findings: readonly Finding[]): string {
  return findings
    .map((f) => {
      const location = f.line === null ? (f.file ?? "<archive>") : `${f.file ?? "<archive>"}:${f.line}`;
      return `${f.ruleId} (${f.severity}) at ${location}: ${f.message} Remediation: ${f.remediation}`;
    })
    .join("; ");
}

/** A finding in DeerFlow's snake_case wire shape (history records, HTTP bodies). */
export interface WireFinding {
  readonly rule_id: string;
  readonly severity: Finding["severity"];
  readonly file: string | null;
  readonly line: number | null;
  readonly message: string;
  readonly remediation: string;
  readonly evidence: string | null;
}

/**
 * Converts a finding to the snake_case shape DeerFlow writes on the wire.
 *
 * @param finding - a finding.
 * @returns the wire object.
 */
export function toWireFinding(finding: Finding): WireFinding {
  return {
    rule_id: finding.ruleId,
    severity: finding.severity,
    file: finding.file,
    line: finding.line,
    message: finding.message,
    remediation: finding.remediation,
    evidence: finding.evidence,
  };
}
