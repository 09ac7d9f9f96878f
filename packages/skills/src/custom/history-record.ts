/**
 * The custom-skill history record: camelCase in TypeScript, DeerFlow's
 * snake_case JSON on disk, so history files move freely between the two.
 */
import { toWireFinding } from "../scanning/static/findings.js";
import type { Finding, ModerationDecision } from "../scanning/types.js";

/** What a history record describes. Agent actions come from `skill_manage`, `human_*` from the HTTP API. */
export type HistoryAction =
  | "create"
  | "edit"
  | "patch"
  | "delete"
  | "write_file"
  | "remove_file"
  | "human_edit"
  | "human_delete"
  | "rollback";

/** Who made the change. */
export type HistoryAuthor = "agent" | "human";

/** The scanner verdict stored with a change. */
export interface ScannerVerdict {
  readonly decision: ModerationDecision;
  readonly reason: string;
  /** Non-blocking static findings of the candidate, when there were any. */
  readonly staticFindings?: readonly Finding[];
}

/** One history entry (oldest first in a history file). */
export interface HistoryRecord {
  /** UTC ISO-8601 time stamp set by the store. */
  readonly ts: string;
  readonly action: HistoryAction;
  readonly author: HistoryAuthor;
  readonly threadId: string | null;
  /** `SKILL.md` or a support path such as `scripts/run.py`. */
  readonly filePath: string;
  readonly prevContent: string | null;
  readonly newContent: string | null;
  readonly scanner: ScannerVerdict;
  /** On `rollback` records: `ts` of the record whose previous content was restored. */
  readonly rollbackFromTs?: string;
}

const DECISIONS: ReadonlySet<string> = new Set(["allow", "warn", "block"]);
const SEVERITIES: ReadonlySet<string> = new Set(["CRITICAL", "HIGH", "MEDIUM", "LOW"]);

/**
 * Serialises a record to DeerFlow's JSON object (snake_case keys, DeerFlow's key order).
 *
 * @param record - the record.
 * @returns a plain object ready for `JSON.stringify`.
 */
export function historyRecordToJson(record: HistoryRecord): Record<string, unknown> {
  const scanner: Record<string, unknown> = { decision: record.scanner.decision, reason: record.scanner.reason };
  if (record.scanner.staticFindings !== undefined) {
    scanner["static_findings"] = record.scanner.staticFindings.map(toWireFinding);
  }
  const out: Record<string, unknown> = {
    ts: record.ts,
    action: record.action,
    author: record.author,
    thread_id: record.threadId,
    file_path: record.filePath,
    prev_content: record.prevContent,
    new_content: record.newContent,
    scanner,
  };
  if (record.rollbackFromTs !== undefined) out["rollback_from_ts"] = record.rollbackFromTs;
  return out;
}

function stringOrNull(value: unknown): string | null | undefined {
  return value === null || value === undefined ? null : typeof value === "string" ? value : undefined;
}

function findingFromJson(value: unknown): Finding | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const f = value as Record<string, unknown>;
  if (typeof f["rule_id"] !== "string" || typeof f["severity"] !== "string" || !SEVERITIES.has(f["severity"]))
    return undefined;
  const line = typeof f["line"] === "number" ? f["line"] : null;
  return {
    ruleId: f["rule_id"],
    severity: f["severity"] as Finding["severity"],
    file: typeof f["file"] === "string" ? f["file"] : null,
    line,
    message: typeof f["message"] === "string" ? f["message"] : "",
    remediation: typeof f["remediation"] === "string" ? f["remediation"] : "",
    evidence: typeof f["evidence"] === "string" ? f["evidence"] : null,
  };
}

/**
 * Parses one decoded JSON line back into a record. Lenient where DeerFlow is
 * (missing `thread_id` or contents become `null`), strict on what the store
 * relies on (`ts`, `action`, `file_path`, scanner decision).
 *
 * @param value - the decoded JSON value.
 * @returns the record, or `undefined` when the shape is unusable.
 */
export function historyRecordFromJson(value: unknown): HistoryRecord | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const r = value as Record<string, unknown>;
  const scanner = r["scanner"];
  if (typeof r["ts"] !== "string" || typeof r["action"] !== "string" || typeof r["file_path"] !== "string")
    return undefined;
  if (typeof scanner !== "object" || scanner === null) return undefined;
  const s = scanner as Record<string, unknown>;
  if (typeof s["decision"] !== "string" || !DECISIONS.has(s["decision"])) return undefined;
  const threadId = stringOrNull(r["thread_id"]);
  const prevContent = stringOrNull(r["prev_content"]);
  const newContent = stringOrNull(r["new_content"]);
  if (threadId === undefined || prevContent === undefined || newContent === undefined) return undefined;
  const verdict: { -readonly [K in keyof ScannerVerdict]: ScannerVerdict[K] } = {
    decision: s["decision"] as ModerationDecision,
    reason: typeof s["reason"] === "string" ? s["reason"] : "",
  };
  if (Array.isArray(s["static_findings"])) {
    verdict.staticFindings = s["static_findings"].map(findingFromJson).filter((f): f is Finding => f !== undefined);
  }
  const record: { -readonly [K in keyof HistoryRecord]: HistoryRecord[K] } = {
    ts: r["ts"],
    action: r["action"] as HistoryAction,
    author: r["author"] === "human" ? "human" : "agent",
    threadId,
    filePath: r["file_path"],
    prevContent,
    newContent,
    scanner: verdict,
  };
  if (typeof r["rollback_from_ts"] === "string") record.rollbackFromTs = r["rollback_from_ts"];
  return record;
}
