/**
 * DeerFlow's structured 400 detail for a static security block:
 * `{"message", "skill_name", "findings": [{rule_id, severity, file, line, message, remediation, evidence}]}`.
 */
import { toWireFinding, type Finding, type WireFinding } from "@deerflow/skills";

/** The structured detail of a blocked install or edit. */
export interface SecurityBlockDetail {
  readonly message: string;
  /** `null` when the archive preflight blocked before the name was known. */
  readonly skill_name: string | null;
  readonly findings: readonly WireFinding[];
}

function isFinding(value: unknown): value is Finding {
  return typeof value === "object" && value !== null && typeof (value as { ruleId?: unknown }).ruleId === "string";
}

/**
 * @param err - any error.
 * @returns the structured detail when `err` is a `SECURITY_BLOCKED` error carrying findings, else `undefined`.
 */
export function skillErrorDetail(err: unknown): SecurityBlockDetail | undefined {
  if (typeof err !== "object" || err === null) return undefined;
  const { code, details, message } = err as { code?: unknown; details?: Record<string, unknown>; message?: unknown };
  if (code !== "SECURITY_BLOCKED" || details === undefined || !Array.isArray(details["findings"])) return undefined;
  const findings = details["findings"].filter(isFinding).map(toWireFinding);
  const skillName = details["skillName"];
  return { message: String(message), skill_name: typeof skillName === "string" ? skillName : null, findings };
}
