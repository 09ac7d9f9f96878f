/**
 * Per-skill JSONL history at `<customRoot>/.history/<name>.jsonl`. Append-only,
 * one `appendFile` per record (a single O_APPEND write, so concurrent appends
 * never interleave within a line), and it outlives the skill so a deletion
 * can be rolled back.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { silentLogger, type Logger } from "../logger.js";
import { historyRecordFromJson, historyRecordToJson, type HistoryRecord } from "./history-record.js";
import { skillHistoryFile } from "./skill-paths.js";

/** A record before the store stamps it. */
export type NewHistoryRecord = Omit<HistoryRecord, "ts"> & { readonly ts?: string };

/** Options of {@link SkillHistory}. */
export interface SkillHistoryOptions {
  /** The custom skills root; history lives in its `.history` folder. */
  readonly customRoot: string;
  /** Receives a warning for every corrupt line skipped. */
  readonly logger?: Logger;
}

/**
 * Reads and appends custom-skill history records.
 *
 * @example
 * ```ts
 * const history = new SkillHistory({ customRoot });
 * await history.append("my-skill", { action: "create", author: "agent", threadId: null,
 *   filePath: "SKILL.md", prevContent: null, newContent: text, scanner: { decision: "allow", reason: "ok" } });
 * const records = await history.read("my-skill"); // oldest first
 * ```
 */
export class SkillHistory {
  private readonly customRoot: string;
  private readonly logger: Logger;

  /** @param options - where history lives and where to log. */
  constructor(options: SkillHistoryOptions) {
    this.customRoot = options.customRoot;
    this.logger = options.logger ?? silentLogger;
  }

  /**
   * Host path of a skill's history file.
   *
   * @param name - the skill name (checked).
   * @returns the absolute path.
   * @throws SkillsError `INVALID_NAME` for a bad name.
   */
  file(name: string): string {
    return skillHistoryFile(this.customRoot, name);
  }

  /**
   * Whether a history file exists for the skill.
   *
   * @param name - the skill name (checked).
   * @returns true when the file exists.
   */
  async exists(name: string): Promise<boolean> {
    try {
      return (await fs.stat(this.file(name))).isFile();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return false;
      throw err;
    }
  }

  /**
   * Appends one record, stamping `ts` (UTC ISO-8601) unless given.
   *
   * @param name - the skill name (checked).
   * @param record - the record to append.
   * @returns the record as written.
   * @throws the file system error when the append fails (callers decide whether it is fatal).
   */
  async append(name: string, record: NewHistoryRecord): Promise<HistoryRecord> {
    const file = this.file(name);
    const stamped: HistoryRecord = { ...record, ts: record.ts ?? new Date().toISOString() };
    await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o755 });
    // One write call per record: O_APPEND positions each write atomically.
    await fs.appendFile(file, `${JSON.stringify(historyRecordToJson(stamped))}\n`, { encoding: "utf8", mode: 0o644 });
    return stamped;
  }

  /**
   * Appends one record, but only logs (and returns `undefined`) when the
   * append fails with one of `tolerated` error codes, e.g. a read-only disk
   * that must not prevent a deletion.
   *
   * @param name - the skill name (checked).
   * @param record - the record to append.
   * @param tolerated - errno codes to log instead of throw.
   * @returns the record as written, or `undefined` when a tolerated error occurred.
   */
  async appendTolerating(
    name: string,
    record: NewHistoryRecord,
    tolerated: ReadonlySet<string>,
  ): Promise<HistoryRecord | undefined> {
    try {
      return await this.append(name, record);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? "";
      if (!tolerated.has(code)) throw err;
      this.logger.warn({ skill: name, code }, "Skipping skill history write after a permission or read-only failure");
      return undefined;
    }
  }

  /**
   * Reads every record, oldest first. Blank lines are skipped silently;
   * corrupt lines (bad JSON or an unusable shape) are skipped and logged.
   *
   * @param name - the skill name (checked).
   * @returns the records; `[]` when there is no history file.
   */
  async read(name: string): Promise<HistoryRecord[]> {
    let text: string;
    try {
      text = await fs.readFile(this.file(name), "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw err;
    }
    const records: HistoryRecord[] = [];
    const lines = text.split("\n");
    lines.forEach((line, index) => {
      if (line.trim() === "") return;
      let decoded: unknown;
      try {
        decoded = JSON.parse(line);
      } catch {
        decoded = undefined;
      }
      const record = historyRecordFromJson(decoded);
      if (record) records.push(record);
      else this.logger.warn({ skill: name, line: index + 1 }, "Skipping corrupt skill history line");
    });
    return records;
  }
}
