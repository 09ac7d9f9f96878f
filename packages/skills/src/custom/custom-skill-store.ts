/**
 * The editable custom-skill store: create, read, update, patch, support files,
 * delete, history and rollback, with DeerFlow's edit pipeline (ensure editable →
 * validate → static scan → moderation → read previous → atomic write → history)
 * and one in-process lock per skill folder.
 */
import { isCodeFile, isExecutableSupportPath } from "../scanning/file-kinds.js";
import { promises as fs } from "node:fs";
import path from "node:path";
import { SkillsError } from "../errors.js";
import { SKILL_FILE_NAME } from "../limits.js";
import { silentLogger, type Logger } from "../logger.js";
import { readSkillFile } from "../parsing/read-skill-file.js";
import { buildRecord, commitChange, type PendingChange } from "./commit-change.js";
import { EditScanner, rewordBlock } from "./edit-scan.js";
import {
  EDITABILITY_MESSAGES,
  customSkillExists,
  customSkillNotFound,
  ensureCustomSkillEditable,
  publicSkillExists,
} from "./editability.js";
import { SkillHistory } from "./history.js";
import type { HistoryRecord, ScannerVerdict } from "./history-record.js";
import { KeyedLock } from "@deerflow/kernel";
import type { CustomSkillStoreOptions, MutationContext } from "./mutation-context.js";
import { applyPatch, type PatchOutcome } from "./patch-content.js";
import { performRollback } from "./rollback.js";
import { ensureNotDirectory, readOptionalText, removeSkillDirectory, removeSupportFile } from "./skill-files.js";
import { normalizeSkillName } from "./skill-name.js";
import { customSkillDir } from "./skill-paths.js";
import { resolveSupportPath } from "./support-path.js";
import { checkSupportFileSize, validateSkillContent } from "./validate-content.js";

const DELETION_VERDICT: ScannerVerdict = { decision: "allow", reason: "Deletion requested." };
const READ_ONLY_ERRNOS: ReadonlySet<string> = new Set(["EACCES", "EPERM", "EROFS"]);
// One lock per (folder, skill) for the whole process: two stores on one folder (a per-user store
// rebuilt after an LRU eviction while the old one still works) never interleave their changes.
const skillLocks = new KeyedLock();

/**
 * Custom skills under `customRoot`, one directory per skill, with JSONL history.
 *
 * @example
 * ```ts
 * const store = new CustomSkillStore({ customRoot, publicRoot, staticScanner, moderation, onChange: () => catalog.invalidate() });
 * await store.create("my-skill", skillMd, { author: "agent", threadId: "t1" });
 * await store.patch("my-skill", "old", "new", undefined, { author: "agent" });
 * await store.rollback("my-skill", -1, { author: "human" });
 * ```
 */
export class CustomSkillStore {
  /** Root of the custom skills. */
  readonly customRoot: string;
  /** Root of the read-only built-in skills, if any. */
  readonly publicRoot: string | undefined;
  private readonly historyLog: SkillHistory;
  private readonly scans: EditScanner;
  private readonly logger: Logger;
  private readonly onChange: ((name: string) => void | Promise<void>) | undefined;

  /** @param options - roots, scanners, logger and the change hook. */
  constructor(options: CustomSkillStoreOptions) {
    this.customRoot = path.resolve(options.customRoot);
    this.publicRoot = options.publicRoot === undefined ? undefined : path.resolve(options.publicRoot);
    this.logger = options.logger ?? silentLogger;
    this.onChange = options.onChange;
    this.historyLog = new SkillHistory({ customRoot: this.customRoot, logger: this.logger });
    this.scans = new EditScanner({
      ...(options.staticScanner !== undefined ? { staticScanner: options.staticScanner } : {}),
      ...(options.moderation ? { moderation: options.moderation } : {}),
      logger: this.logger,
    });
  }

  /** @param name - skill name (checked). @returns whether a custom skill of that name exists. */
  async exists(name: string): Promise<boolean> {
    return customSkillExists(this.customRoot, normalizeSkillName(name));
  }

  /** @param name - skill name (checked). @returns whether a built-in skill of that name exists. */
  async isPublic(name: string): Promise<boolean> {
    return publicSkillExists(this.publicRoot, normalizeSkillName(name));
  }

  /**
   * Throws unless a custom skill of that name exists (built-in names are read-only).
   *
   * @param name - skill name (checked).
   * @returns the normalised name.
   * @throws SkillsError `SKILL_READ_ONLY`, `SKILL_NOT_FOUND`, `INVALID_NAME`.
   */
  async ensureEditable(name: string): Promise<string> {
    const n = normalizeSkillName(name);
    await ensureCustomSkillEditable(this.customRoot, this.publicRoot, n);
    return n;
  }

  /**
   * Reads a custom skill's SKILL.md.
   *
   * @param name - skill name (checked).
   * @returns the raw text.
   * @throws SkillsError `SKILL_NOT_FOUND`, `SKILL_TOO_LARGE`/`SKILL_INVALID` for an unreadable file, `INVALID_NAME`.
   */
  async read(name: string): Promise<string> {
    const n = normalizeSkillName(name);
    if (!(await customSkillExists(this.customRoot, n))) throw customSkillNotFound(n);
    const read = await readSkillFile(path.join(customSkillDir(this.customRoot, n), SKILL_FILE_NAME));
    if (!read.ok)
      throw new SkillsError(
        read.issue.code === "file-too-large" ? "SKILL_TOO_LARGE" : "SKILL_INVALID",
        read.issue.message,
      );
    return read.text;
  }

  /**
   * Creates a custom skill (allowed when only a built-in skill has the name: it shadows it).
   *
   * @param name - skill name (checked). @param content - the SKILL.md text. @param ctx - author and thread.
   * @returns the `create` history record.
   * @throws SkillsError `SKILL_ALREADY_EXISTS`, `SKILL_INVALID`, `SECURITY_BLOCKED` (`"Security scan blocked the write: <reason>"`), `SECURITY_SCAN_FAILED`.
   */
  async create(name: string, content: string, ctx: MutationContext): Promise<HistoryRecord> {
    const n = normalizeSkillName(name);
    return this.mutate(n, async () => {
      if (await customSkillExists(this.customRoot, n)) {
        throw new SkillsError("SKILL_ALREADY_EXISTS", EDITABILITY_MESSAGES.alreadyExists(n), { details: { name: n } });
      }
      validateSkillContent(n, content);
      const scanner = await this.scanSkillFile(n, content, ctx);
      return this.commit(n, { action: "create", filePath: SKILL_FILE_NAME, prevContent: null, content, scanner }, ctx);
    });
  }

  /**
   * Replaces a custom skill's SKILL.md (history `edit`, or `human_edit` for a human author).
   *
   * @param name - skill name (checked). @param content - the new SKILL.md text. @param ctx - author and thread.
   * @returns the history record.
   * @throws SkillsError `SKILL_NOT_FOUND`, `SKILL_READ_ONLY`, `SKILL_INVALID`, `SECURITY_BLOCKED`, `SECURITY_SCAN_FAILED`.
   */
  async update(name: string, content: string, ctx: MutationContext): Promise<HistoryRecord> {
    const n = normalizeSkillName(name);
    return this.mutate(n, async () => {
      await ensureCustomSkillEditable(this.customRoot, this.publicRoot, n);
      validateSkillContent(n, content);
      const scanner = await this.scanSkillFile(n, content, ctx, ctx.author === "human");
      const prevContent = await this.read(n);
      const action = ctx.author === "human" ? "human_edit" : "edit";
      return this.commit(n, { action, filePath: SKILL_FILE_NAME, prevContent, content, scanner }, ctx);
    });
  }

  /**
   * Literal find/replace in SKILL.md: the first occurrence, or exactly `expectedCount` of them.
   *
   * @param name - skill name. @param find - literal text. @param replace - replacement. @param expectedCount - required
   *   number of occurrences (all replaced). @param ctx - author and thread.
   * @returns the counts and the `patch` history record.
   * @throws SkillsError `SKILL_INVALID` (`"find and replace are required for patch."`, `"Patch target not found in SKILL.md."`,
   *   `"Expected <e> replacements but found <k>."`, validation), `SKILL_NOT_FOUND`, `SKILL_READ_ONLY`, `SECURITY_BLOCKED`.
   */
  async patch(
    name: string,
    find: string,
    replace: string,
    expectedCount: number | undefined,
    ctx: MutationContext,
  ): Promise<PatchOutcome> {
    const n = normalizeSkillName(name);
    return this.mutate(n, async () => {
      await ensureCustomSkillEditable(this.customRoot, this.publicRoot, n);
      if (typeof find !== "string" || find === "" || typeof replace !== "string") {
        throw new SkillsError("SKILL_INVALID", "find and replace are required for patch.");
      }
      const prevContent = await this.read(n);
      const patched = applyPatch(prevContent, find, replace, expectedCount);
      validateSkillContent(n, patched.content);
      const scanner = await this.scanSkillFile(n, patched.content, ctx);
      const record = await this.commit(
        n,
        { action: "patch", filePath: SKILL_FILE_NAME, prevContent, content: patched.content, scanner },
        ctx,
      );
      return { replacements: patched.replacements, matches: patched.matches, record };
    });
  }

  /**
   * Writes a supporting file (`assets/`, `references/`, `scripts/`, `templates/`). Content under a
   * `scripts/` path is executable: moderation must `allow` it.
   *
   * @param name - skill name. @param relativePath - e.g. `references/api.md`. @param content - the text. @param ctx - author and thread.
   * @returns the `write_file` history record.
   * @throws SkillsError `INVALID_PATH` (support-path rules), `SECURITY_BLOCKED` (`"Security scan blocked the write: …"`,
   *   `"Security scan rejected executable content: …"`), `SKILL_NOT_FOUND`, `SKILL_READ_ONLY`.
   */
  async writeFile(name: string, relativePath: string, content: string, ctx: MutationContext): Promise<HistoryRecord> {
    const n = normalizeSkillName(name);
    return this.mutate(n, async () => {
      await ensureCustomSkillEditable(this.customRoot, this.publicRoot, n);
      const skillDir = await fs.realpath(customSkillDir(this.customRoot, n));
      const target = await resolveSupportPath(skillDir, relativePath);
      await ensureNotDirectory(target.absolutePath, relativePath);
      checkSupportFileSize(relativePath, content);
      const prevContent = await readOptionalText(target.absolutePath);
      // Same rule as a package scan: scripts/ and code files must be allowed, not merely warned.
      const executable = isCodeFile(target.relativePath, content.slice(0, 2)) || isExecutableSupportPath(relativePath);
      const overlayPath = path.relative(skillDir, target.absolutePath).split(path.sep).join("/");
      const scan = await this.scans.scanChange(n, relativePath, content, {
        baseDir: skillDir,
        overlayPath,
        executable,
        signal: ctx.signal,
      });
      if (!scan.ok) throw scan.error;
      const scanner = scan.verdict;
      return this.commit(
        n,
        {
          action: "write_file",
          filePath: target.relativePath,
          prevContent,
          content,
          scanner,
          absolutePath: target.absolutePath,
        },
        ctx,
      );
    });
  }

  /**
   * Removes a supporting file; its previous text (or `null` when binary) goes into history.
   *
   * @param name - skill name. @param relativePath - the support path. @param ctx - author and thread.
   * @returns the `remove_file` history record.
   * @throws SkillsError `FILE_NOT_FOUND` (`"Supporting file '<rel>' not found for skill '<n>'."`), `INVALID_PATH`, `SKILL_NOT_FOUND`, `SKILL_READ_ONLY`.
   */
  async removeFile(name: string, relativePath: string, ctx: MutationContext): Promise<HistoryRecord> {
    const n = normalizeSkillName(name);
    return this.mutate(n, async () => {
      await ensureCustomSkillEditable(this.customRoot, this.publicRoot, n);
      const target = await resolveSupportPath(customSkillDir(this.customRoot, n), relativePath);
      const prevContent = await removeSupportFile(target.absolutePath, relativePath, n);
      return this.historyLog.append(
        n,
        buildRecord("remove_file", target.relativePath, prevContent, null, DELETION_VERDICT, ctx),
      );
    });
  }

  /**
   * Deletes a custom skill. SKILL.md goes into the record's `prevContent` first so the deletion can be
   * rolled back; a history write refused with EACCES/EPERM/EROFS is logged and the deletion continues.
   *
   * @param name - skill name (checked). @param ctx - author (`delete` or `human_delete`) and thread.
   * @throws SkillsError `SKILL_NOT_FOUND`, `SKILL_READ_ONLY`, `INVALID_NAME`.
   */
  async delete(name: string, ctx: MutationContext): Promise<void> {
    const n = normalizeSkillName(name);
    await this.mutate(n, async () => {
      await ensureCustomSkillEditable(this.customRoot, this.publicRoot, n);
      const dir = customSkillDir(this.customRoot, n);
      const prevContent = await readOptionalText(path.join(dir, SKILL_FILE_NAME));
      const action = ctx.author === "human" ? "human_delete" : "delete";
      await this.historyLog.appendTolerating(
        n,
        buildRecord(action, SKILL_FILE_NAME, prevContent, null, DELETION_VERDICT, ctx),
        READ_ONLY_ERRNOS,
      );
      await removeSkillDirectory(dir);
    });
  }

  /**
   * A skill's history, oldest first; readable after the skill was deleted.
   *
   * @param name - skill name (checked).
   * @returns the records; corrupt lines are skipped and logged.
   * @throws SkillsError `SKILL_NOT_FOUND` when neither the skill nor a history file exists.
   */
  async history(name: string): Promise<HistoryRecord[]> {
    const n = normalizeSkillName(name);
    await this.ensureSkillOrHistory(n);
    return this.historyLog.read(n);
  }

  /**
   * Restores `history[index].prevContent` (Python-style index, `-1` = latest) as SKILL.md, recreating a
   * deleted skill. A moderation block still appends a `rollback` record carrying the block verdict.
   *
   * @param name - skill name (checked). @param index - history position, negative from the end. @param ctx - author and thread.
   * @returns the `rollback` history record (with `rollbackFromTs`).
   * @throws SkillsError `SKILL_NOT_FOUND`, `HISTORY_NOT_FOUND` (no history, out of range, no previous content),
   *   `SKILL_INVALID`, `SECURITY_BLOCKED` (`"Rollback blocked by security scanner: <reason>"`).
   */
  async rollback(name: string, index = -1, ctx: MutationContext = { author: "human" }): Promise<HistoryRecord> {
    const n = normalizeSkillName(name);
    return this.mutate(n, async () => {
      await this.ensureSkillOrHistory(n);
      const deps = {
        history: this.historyLog,
        scans: this.scans,
        commit: (m: string, c: PendingChange, x: MutationContext) => this.commit(m, c, x),
      };
      return performRollback(deps, n, customSkillDir(this.customRoot, n), index, ctx);
    });
  }

  private async mutate<T>(name: string, task: () => Promise<T>): Promise<T> {
    return skillLocks.run(`${this.customRoot}\u0000${name}`, async () => {
      const result = await task();
      try {
        await this.onChange?.(name);
      } catch (err) {
        this.logger.warn(
          { skill: name, err: err instanceof Error ? err.message : String(err) },
          "Custom skill onChange hook failed",
        );
      }
      return result;
    });
  }

  /** Scans new SKILL.md text; a human edit's block is worded "…blocked the edit: …" as in DeerFlow's HTTP route. */
  private async scanSkillFile(
    name: string,
    content: string,
    ctx: MutationContext,
    humanEdit = false,
  ): Promise<ScannerVerdict> {
    const scan = await this.scans.scanChange(name, SKILL_FILE_NAME, content, { signal: ctx.signal });
    if (scan.ok) return scan.verdict;
    throw humanEdit ? rewordBlock(scan.error, `Security scan blocked the edit: ${scan.verdict.reason}`) : scan.error;
  }

  private async ensureSkillOrHistory(name: string): Promise<void> {
    if (!(await customSkillExists(this.customRoot, name)) && !(await this.historyLog.exists(name)))
      throw customSkillNotFound(name);
  }

  private commit(name: string, change: PendingChange, ctx: MutationContext): Promise<HistoryRecord> {
    return commitChange(
      { history: this.historyLog, logger: this.logger },
      name,
      customSkillDir(this.customRoot, name),
      change,
      ctx,
    );
  }
}
