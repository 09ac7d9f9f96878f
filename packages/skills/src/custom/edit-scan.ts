/**
 * Security scanning of a proposed custom-skill change, before anything is
 * written: the static scan of a candidate tree (a temp copy with the change
 * overlaid, through {@link scanSkillPackage}) and the moderation of the
 * changed file alone (through {@link moderateContent}), as DeerFlow's
 * `skill_manage` does.
 */
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { SkillsError } from "../errors.js";
import { silentLogger, type Logger } from "../logger.js";
import { moderateContent } from "../scanning/moderate-content.js";
import { NO_MODERATION_REASON, scanSkillPackage } from "../scanning/pipeline.js";
import type { Finding, ModerationDecision, ModerationScanner, SkillScanner } from "../scanning/types.js";
import type { ScannerVerdict } from "./history-record.js";

/** Scanners used for edits. */
export interface EditScanOptions {
  /** Static scanner; `undefined` uses the built-in SkillScan, `null` turns static scanning off. */
  readonly staticScanner?: SkillScanner | null;
  /** Moderation scanner; without one every change is recorded as `allow` ("No moderation scanner configured."). */
  readonly moderation?: ModerationScanner;
  readonly logger?: Logger;
}

/** Where a changed file lives and how to judge it, for {@link EditScanner.scanChange}. */
export interface ChangeScanOptions {
  /** Existing skill directory to copy under the change (support files); omitted for SKILL.md changes. */
  readonly baseDir?: string;
  /** Path to overlay in the candidate tree when it differs from the recorded one (a followed symlink). */
  readonly overlayPath?: string;
  /** Executable content (scripts) must be allowed outright. */
  readonly executable?: boolean;
  readonly signal?: AbortSignal | undefined;
}

/**
 * The verdict of a scan, or the moderation block that stopped it. Static
 * blocks and scanner failures are thrown instead.
 */
export type ChangeScanResult =
  | { readonly ok: true; readonly verdict: ScannerVerdict }
  | { readonly ok: false; readonly verdict: ScannerVerdict; readonly error: SkillsError };

function moderationBlock(err: unknown): { decision: ModerationDecision; reason: string } | undefined {
  if (!SkillsError.isInstance(err) || err.code !== "SECURITY_BLOCKED") return undefined;
  const decision = err.details?.["decision"];
  const reason = err.details?.["reason"];
  if ((decision !== "block" && decision !== "warn" && decision !== "allow") || typeof reason !== "string")
    return undefined;
  return { decision, reason };
}

/**
 * Runs the edit-time scans.
 *
 * @example
 * ```ts
 * const scans = new EditScanner({ moderation });
 * const result = await scans.scanChange("my-skill", "SKILL.md", text);
 * if (!result.ok) throw result.error; // "Security scan blocked the write: …"
 * ```
 */
export class EditScanner {
  private readonly options: EditScanOptions;
  private readonly logger: Logger;

  /** @param options - the scanners to run. */
  constructor(options: EditScanOptions) {
    this.options = options;
    this.logger = options.logger ?? silentLogger;
  }

  /**
   * Statically scans a candidate tree: a temp directory named after the skill,
   * holding a copy of `baseDir` (if given) with `files` overlaid.
   *
   * @param name - the skill name.
   * @param files - relative path → new text.
   * @param baseDir - the existing skill directory to copy first, if any.
   * @param signal - cancels the scan.
   * @returns the non-blocking findings, or `undefined` when static scanning is off.
   * @throws SkillsError `SECURITY_BLOCKED` on a CRITICAL finding, `SECURITY_SCAN_FAILED` when the scanner fails.
   */
  async staticCandidate(
    name: string,
    files: Readonly<Record<string, string>>,
    baseDir?: string,
    signal?: AbortSignal,
  ): Promise<readonly Finding[] | undefined> {
    if (this.options.staticScanner === null) return undefined;
    const temp = await fs.mkdtemp(path.join(os.tmpdir(), "deerflow-skill-edit-"));
    try {
      const dir = path.join(temp, name);
      if (baseDir !== undefined) await fs.cp(baseDir, dir, { recursive: true, verbatimSymlinks: true });
      else await fs.mkdir(dir);
      for (const [rel, content] of Object.entries(files)) {
        const target = path.join(dir, ...rel.split("/"));
        await fs.mkdir(path.dirname(target), { recursive: true });
        await fs.rm(target, { force: true }); // never write through a copied symlink
        await fs.writeFile(target, content, "utf8");
      }
      const verdict = await scanSkillPackage(dir, {
        skillName: name,
        ...(this.options.staticScanner ? { staticScanner: this.options.staticScanner } : {}),
        logger: this.logger,
        ...(signal ? { signal } : {}),
      });
      return verdict.findings;
    } finally {
      await fs.rm(temp, { recursive: true, force: true });
    }
  }

  /**
   * Static scan of the candidate, then moderation of the changed file. A
   * moderation rejection is returned (with the verdict to record) rather than
   * thrown, so a rollback can still record it.
   *
   * @param name - the skill name.
   * @param relPath - `SKILL.md` or the support path, as recorded.
   * @param content - the new text.
   * @param options - candidate base, overlay path, executable flag, signal.
   * @returns the verdict (with the static findings when a static scan ran), or the rejection.
   * @throws SkillsError `SECURITY_BLOCKED` / `SECURITY_SCAN_FAILED` from the static scan or a failing moderator.
   */
  async scanChange(
    name: string,
    relPath: string,
    content: string,
    options: ChangeScanOptions = {},
  ): Promise<ChangeScanResult> {
    const staticFindings = await this.staticCandidate(
      name,
      { [options.overlayPath ?? relPath]: content },
      options.baseDir,
      options.signal,
    );
    const withFindings = (v: { decision: ModerationDecision; reason: string }): ScannerVerdict =>
      staticFindings === undefined
        ? { decision: v.decision, reason: v.reason }
        : { decision: v.decision, reason: v.reason, staticFindings };
    const moderation = this.options.moderation;
    if (!moderation) return { ok: true, verdict: withFindings({ decision: "allow", reason: NO_MODERATION_REASON }) };
    try {
      const result = await moderateContent({
        moderation,
        content,
        location: `${name}/${relPath}`,
        executable: options.executable ?? false,
        ...(staticFindings ? { staticFindings } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
      return { ok: true, verdict: withFindings(result) };
    } catch (err) {
      const block = moderationBlock(err);
      if (block === undefined) throw err;
      return { ok: false, verdict: withFindings(block), error: err as SkillsError };
    }
  }
}

/**
 * The same rejection with another message (DeerFlow words a human edit's block
 * `"Security scan blocked the edit: …"` and a rollback's `"Rollback blocked by security scanner: …"`).
 *
 * @param error - the rejection from {@link EditScanner.scanChange}.
 * @param message - the new message.
 * @returns a `SECURITY_BLOCKED` error with the original details.
 */
export function rewordBlock(error: SkillsError, message: string): SkillsError {
  return new SkillsError("SECURITY_BLOCKED", message, {
    cause: error,
    ...(error.details ? { details: { ...error.details } } : {}),
  });
}
