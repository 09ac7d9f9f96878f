/**
 * DeerFlow's wire shapes of the skills routes (snake_case where DeerFlow has it).
 */
import { toWireFinding, type HistoryRecord, type Skill } from "@deerflow/skills";

/** `SkillResponse`: `editable` is true only for custom skills. */
export interface SkillResponse {
  readonly name: string;
  readonly description: string;
  readonly license: string | null;
  readonly category: Skill["category"];
  readonly enabled: boolean;
  readonly editable: boolean;
}

/** @param skill - a catalog skill. @returns its `SkillResponse`. */
export function toSkillResponse(skill: Skill): SkillResponse {
  return {
    name: skill.name,
    description: skill.description,
    license: skill.license ?? null,
    category: skill.category,
    enabled: skill.enabled,
    editable: skill.category === "custom",
  };
}

/**
 * @param record - a history record.
 * @returns DeerFlow's JSON record (`ts, action, author, thread_id, file_path, prev_content, new_content, scanner[, rollback_from_ts]`).
 */
export function toWireHistoryRecord(record: HistoryRecord): Record<string, unknown> {
  const scanner: Record<string, unknown> = { decision: record.scanner.decision, reason: record.scanner.reason };
  if (record.scanner.staticFindings !== undefined) scanner["static_findings"] = record.scanner.staticFindings.map(toWireFinding);
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

/**
 * DeerFlow strips newlines from `{skill_name}` in every route but rollback.
 *
 * @param name - the path parameter.
 * @returns it without `\r` and `\n`.
 */
export function cleanSkillName(name: string): string {
  return name.replace(/[\r\n]/g, "");
}
