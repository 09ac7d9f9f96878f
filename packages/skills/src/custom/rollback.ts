/**
 * Rollback of a custom skill to an earlier SKILL.md: choosing the history
 * record (Python-style index, DeerFlow's messages), re-validating and
 * scanning its previous content, and recording the outcome, including a
 * moderation block.
 */
import path from "node:path";
import { SkillsError } from "../errors.js";
import { SKILL_FILE_NAME } from "../limits.js";
import { buildRecord, type PendingChange } from "./commit-change.js";
import { rewordBlock, type EditScanner } from "./edit-scan.js";
import type { SkillHistory } from "./history.js";
import type { HistoryRecord } from "./history-record.js";
import type { MutationContext } from "./mutation-context.js";
import { readOptionalText } from "./skill-files.js";
import { validateSkillContent } from "./validate-content.js";

/** What a rollback restores. */
interface RollbackSource {
  /** The SKILL.md text to restore (the record's `prevContent`). */
  readonly content: string;
  /** `ts` of the chosen record, recorded as `rollbackFromTs`. */
  readonly ts: string;
  /** The chosen record's position from the start (0-based). */
  readonly position: number;
}

/**
 * Chooses `records[index]`, where a negative index counts from the end (`-1` is the latest).
 *
 * @param name - the skill name (for messages).
 * @param records - the history, oldest first.
 * @param index - the requested index.
 * @returns the content to restore and where it came from.
 * @throws SkillsError `HISTORY_NOT_FOUND`: `"Custom skill '<n>' has no history"`, `"history_index is out of range"`,
 *   `"Selected history entry has no previous content to roll back to"`; also (stricter than DeerFlow) for a
 *   record of a supporting file, whose previous content is not a SKILL.md.
 * @example
 * ```ts
 * selectRollbackSource("s", records, -1); // the latest record's prevContent
 * ```
 */
function selectRollbackSource(name: string, records: readonly HistoryRecord[], index: number): RollbackSource {
  if (records.length === 0) {
    throw new SkillsError("HISTORY_NOT_FOUND", `Custom skill '${name}' has no history`, {
      details: { name, reason: "no-history" },
    });
  }
  const position = Number.isInteger(index) ? (index < 0 ? records.length + index : index) : -1;
  const chosen = position >= 0 ? records[position] : undefined;
  if (chosen === undefined) {
    throw new SkillsError("HISTORY_NOT_FOUND", "history_index is out of range", {
      details: { name, index, reason: "out-of-range" },
    });
  }
  if (chosen.prevContent === null || chosen.filePath !== SKILL_FILE_NAME) {
    throw new SkillsError("HISTORY_NOT_FOUND", "Selected history entry has no previous content to roll back to", {
      details: { name, index, reason: "no-previous-content", filePath: chosen.filePath },
    });
  }
  return { content: chosen.prevContent, ts: chosen.ts, position };
}

/** What {@link performRollback} needs from the store. */
export interface RollbackDeps {
  readonly history: SkillHistory;
  readonly scans: EditScanner;
  /** Writes the change and appends its record (undoing the write if the append fails). */
  readonly commit: (name: string, change: PendingChange, ctx: MutationContext) => Promise<HistoryRecord>;
}

/**
 * Restores `history[index].prevContent` as SKILL.md of `name` in `skillDir`
 * (created again if the skill was deleted). Call it under the skill's lock.
 *
 * @param deps - history, scanners and the commit step.
 * @param name - the checked skill name.
 * @param skillDir - the skill directory.
 * @param index - Python-style history index.
 * @param ctx - author and thread of the rollback.
 * @returns the `rollback` record.
 * @throws SkillsError as {@link selectRollbackSource}, `SKILL_INVALID` from validation,
 *   `SECURITY_BLOCKED` `"Rollback blocked by security scanner: <reason>"` after recording the blocked attempt.
 */
export async function performRollback(
  deps: RollbackDeps,
  name: string,
  skillDir: string,
  index: number,
  ctx: MutationContext,
): Promise<HistoryRecord> {
  const source = selectRollbackSource(name, await deps.history.read(name), index);
  validateSkillContent(name, source.content);
  const scan = await deps.scans.scanChange(name, SKILL_FILE_NAME, source.content, { signal: ctx.signal });
  const prevContent = await readOptionalText(path.join(skillDir, SKILL_FILE_NAME));
  if (!scan.ok) {
    const blocked = buildRecord("rollback", SKILL_FILE_NAME, prevContent, source.content, scan.verdict, ctx);
    await deps.history.append(name, { ...blocked, rollbackFromTs: source.ts });
    throw rewordBlock(scan.error, `Rollback blocked by security scanner: ${scan.verdict.reason}`);
  }
  const change = {
    action: "rollback",
    filePath: SKILL_FILE_NAME,
    prevContent,
    content: source.content,
    scanner: scan.verdict,
    rollbackFromTs: source.ts,
  } as const;
  return deps.commit(name, change, ctx);
}
