/**
 * DeerFlow's wire shapes of the skills routes (snake_case where DeerFlow has it).
 */
import { historyRecordToJson, type HistoryRecord, type Skill } from "@deerflow/skills";
import type { SkillResponse } from "../wire-types.js";

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
 * DeerFlow's JSON history record (`ts, action, author, thread_id, file_path, prev_content,
 * new_content, scanner[, rollback_from_ts]`): the same serialisation the history file uses.
 */
export const toWireHistoryRecord: (record: HistoryRecord) => Record<string, unknown> = historyRecordToJson;

/**
 * DeerFlow strips newlines from `{skill_name}` in every route but rollback.
 *
 * @param name - the path parameter.
 * @returns it without `\r` and `\n`.
 */
export function cleanSkillName(name: string): string {
  return name.replace(/[\r\n]/g, "");
}
