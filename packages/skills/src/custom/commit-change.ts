/**
 * The last step of every custom-skill change: the atomic write followed by
 * the history record. If the history append fails the write is undone, so the
 * audit trail never misses a change that stayed on disk.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import type { Logger } from "../logger.js";
import { writeTextAtomic } from "./write-skill-file.js";
import type { NewHistoryRecord, SkillHistory } from "./history.js";
import type { HistoryRecord, ScannerVerdict } from "./history-record.js";
import type { MutationContext } from "./mutation-context.js";
import { removeSkillDirectory } from "./skill-files.js";

/** A change ready to be committed. */
export interface PendingChange {
  readonly action: HistoryRecord["action"];
  /** `SKILL.md` or the support path, as recorded. */
  readonly filePath: string;
  readonly prevContent: string | null;
  readonly content: string;
  readonly scanner: ScannerVerdict;
  readonly rollbackFromTs?: string;
  /** Resolved host path to write (defaults to `<skillDir>/<filePath>`). */
  readonly absolutePath?: string;
}

/**
 * Builds a history record from its parts and the caller's context.
 *
 * @returns the record without `ts` (the history stamps it).
 */
export function buildRecord(
  action: HistoryRecord["action"],
  filePath: string,
  prevContent: string | null,
  newContent: string | null,
  scanner: ScannerVerdict,
  ctx: MutationContext,
): NewHistoryRecord {
  return { action, author: ctx.author, threadId: ctx.threadId ?? null, filePath, prevContent, newContent, scanner };
}

async function readBytes(file: string): Promise<Buffer | null> {
  try {
    return await fs.readFile(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR") return null;
    throw err;
  }
}

/**
 * Writes the change into `skillDir` (created if missing, e.g. a rollback of a
 * deleted skill) and appends its history record.
 *
 * @param deps - the history log and a logger for undo failures.
 * @param name - the skill name.
 * @param skillDir - the skill directory.
 * @param change - what to write and record.
 * @param ctx - who makes the change.
 * @returns the record as appended.
 * @throws whatever the write or the append threw, after undoing the write.
 */
export async function commitChange(
  deps: { readonly history: SkillHistory; readonly logger: Logger },
  name: string,
  skillDir: string,
  change: PendingChange,
  ctx: MutationContext,
): Promise<HistoryRecord> {
  await fs.mkdir(path.dirname(skillDir), { recursive: true });
  const createdDir = (await fs.mkdir(skillDir, { recursive: true, mode: 0o755 })) !== undefined;
  const target = change.absolutePath ?? path.join(skillDir, change.filePath);
  const previous = createdDir ? null : await readBytes(target);
  try {
    await writeTextAtomic(skillDir, target, change.content);
    const entry = buildRecord(change.action, change.filePath, change.prevContent, change.content, change.scanner, ctx);
    return await deps.history.append(
      name,
      change.rollbackFromTs === undefined ? entry : { ...entry, rollbackFromTs: change.rollbackFromTs },
    );
  } catch (err) {
    try {
      if (createdDir) await removeSkillDirectory(skillDir);
      else if (previous === null) await fs.rm(target, { force: true });
      else await writeTextAtomic(skillDir, target, previous);
    } catch (undoErr) {
      deps.logger.error(
        { skill: name, err: undoErr instanceof Error ? undoErr.message : String(undoErr) },
        "Could not undo a custom skill write",
      );
    }
    throw err;
  }
}
