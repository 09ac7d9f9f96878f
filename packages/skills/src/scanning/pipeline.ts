/**
 * The content-scan pipeline of an install or edit (DeerFlow §1.5 step 7):
 * static scan of the whole tree first, then moderation of SKILL.md and of
 * every code or prompt-input file, in sorted order.
 */
import { SkillsError } from "../errors.js";
import { silentLogger, type Logger } from "../logger.js";
import { MAX_ARCHIVE_ENTRIES, MAX_ARCHIVE_FILE_BYTES, SKILL_FILE_NAME } from "../limits.js";
import { isCodeFile, isPromptInputFile, needsShebangProbe } from "./file-kinds.js";
import { NO_REASON } from "./moderation/parse.js";
import { readFilePrefix } from "./static/file-read.js";
import { formatFindings } from "./static/findings.js";
import { StaticSkillScanner } from "./static/scanner.js";
import { walkPackage, type WalkEntry } from "./static/walk.js";
import type { Finding, ModerationResult, ModerationScanner, SkillScanner } from "./types.js";

/** Options of {@link scanSkillPackage}. */
export interface ScanSkillPackageOptions {
  /** The skill's (frontmatter) name, used in every message and location. */
  readonly skillName: string;
  /** Static scanner; default {@link StaticSkillScanner}. `null` turns the static scan off (DeerFlow's `skill_scan.enabled: false`). */
  readonly staticScanner?: SkillScanner | null;
  /** Moderation scanner; without one only the static scan runs. */
  readonly moderation?: ModerationScanner;
  readonly logger?: Logger;
  readonly signal?: AbortSignal;
}

/** Outcome of a scan that did not block, shaped for a history record's `scanner` field. */
export interface SkillScanVerdict {
  readonly decision: "allow" | "warn";
  readonly reason: string;
  /** Every static finding (none of them CRITICAL). */
  readonly findings: readonly Finding[];
  /** Package-relative paths that were moderated, in order. */
  readonly moderated: readonly string[];
}

/** Reason recorded when no moderation scanner is configured. */
export const NO_MODERATION_REASON = "No moderation scanner configured.";

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function decisionRepr(decision: unknown): string {
  if (typeof decision === "string") return `'${decision}'`;
  return decision === null || decision === undefined ? "None" : JSON.stringify(decision);
}

/** Python's `sorted(Path.rglob("*"))` order: segment by segment. */
function comparePaths(a: string, b: string): number {
  const pa = a.split("/");
  const pb = b.split("/");
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const x = pa[i] ?? "";
    const y = pb[i] ?? "";
    if (x !== y) return x < y ? -1 : 1;
  }
  return pa.length - pb.length;
}

async function runStaticScan(
  dir: string,
  scanner: SkillScanner,
  name: string,
  logger: Logger,
  signal?: AbortSignal,
): Promise<readonly Finding[]> {
  let report;
  try {
    report = await scanner.scanDirectory(dir, signal ? { signal } : {});
  } catch (err) {
    if (signal?.aborted) throw signal.reason;
    throw new SkillsError(
      "SECURITY_SCAN_FAILED",
      `Static security scan failed for skill '${name}': ${errorText(err)}`,
      {
        cause: err,
        details: { skillName: name, findings: [] },
      },
    );
  }
  const critical = report.findings.filter((f) => f.severity === "CRITICAL");
  if (critical.length > 0 || report.blocked) {
    const shown = critical.length > 0 ? critical : report.findings;
    throw new SkillsError(
      "SECURITY_BLOCKED",
      `Static security scan blocked skill '${name}': ${formatFindings(shown)}`,
      {
        details: { skillName: name, findings: shown },
      },
    );
  }
  if (report.scannerErrors.length > 0)
    logger.warn({ skill: name, scanner: scanner.id, errors: report.scannerErrors }, "SkillScan analyzer errors");
  if (report.findings.length > 0)
    logger.warn(
      { skill: name, scanner: scanner.id, findings: formatFindings(report.findings) },
      "SkillScan warning findings",
    );
  return report.findings;
}

type FileEntry = Extract<WalkEntry, { kind: "file" }>;

interface FileToModerate {
  readonly rel: string;
  readonly content: string;
  readonly executable: boolean;
}

/** Applies DeerFlow's outcome rules to one moderation result; returns the accepted decision. */
function judgeInstallFile(result: ModerationResult, name: string, file: FileToModerate): "allow" | "warn" {
  const location = `${name}/${file.rel}`;
  const decision: unknown = result?.decision;
  const reason = result?.reason ? String(result.reason) : NO_REASON;
  const details = { skillName: name, location, decision, reason };
  if (decision === "block") {
    const message =
      file.rel === SKILL_FILE_NAME
        ? `Security scan blocked skill '${name}': ${reason}`
        : `Security scan blocked ${location}: ${reason}`;
    throw new SkillsError("SECURITY_BLOCKED", message, { details });
  }
  if (file.executable && decision !== "allow") {
    throw new SkillsError("SECURITY_BLOCKED", `Security scan rejected executable ${location}: ${reason}`, { details });
  }
  if (decision !== "allow" && decision !== "warn") {
    throw new SkillsError(
      "SECURITY_SCAN_FAILED",
      `Security scan failed for ${location}: invalid scanner decision ${decisionRepr(decision)}`,
      { details },
    );
  }
  return decision;
}

/** Reads a file for moderation: bounded, regular files only, strict UTF-8. */
async function readForModeration(entry: FileEntry, name: string): Promise<string> {
  const location = `${name}/${entry.relPath}`;
  if (entry.size > MAX_ARCHIVE_FILE_BYTES) {
    throw new SkillsError(
      "SECURITY_BLOCKED",
      `Security scan failed for skill '${name}': ${location} is too large to scan`,
      { details: { skillName: name, location } },
    );
  }
  const bytes = await readFilePrefix(entry.absPath, MAX_ARCHIVE_FILE_BYTES).catch((err: unknown) => {
    const code = (err as { code?: unknown } | null)?.code;
    throw new SkillsError(
      "SECURITY_SCAN_FAILED",
      `Security scan failed for ${location}: ${typeof code === "string" ? code : errorText(err)}`,
      { cause: err, details: { location } },
    );
  });
  try {
    return utf8.decode(bytes);
  } catch {
    throw new SkillsError(
      "SECURITY_BLOCKED",
      `Security scan failed for skill '${name}': ${location} must be valid UTF-8`,
      { details: { skillName: name, location } },
    );
  }
}

/** Regular files of the package in sorted order (symlinks are never read). */
async function sortedFiles(dir: string, name: string, signal?: AbortSignal): Promise<FileEntry[]> {
  const walk = await walkPackage(dir, MAX_ARCHIVE_ENTRIES, signal).catch((err: unknown) => {
    if (signal?.aborted) throw signal.reason;
    throw new SkillsError("SECURITY_SCAN_FAILED", `Security scan failed for skill '${name}': ${errorText(err)}`, {
      cause: err,
      details: { skillName: name },
    });
  });
  if (walk.truncated) {
    throw new SkillsError(
      "SECURITY_BLOCKED",
      `Security scan failed for skill '${name}': package has more than ${MAX_ARCHIVE_ENTRIES} entries`,
      { details: { skillName: name } },
    );
  }
  return walk.entries
    .filter((e): e is FileEntry => e.kind === "file")
    .sort((a, b) => comparePaths(a.relPath, b.relPath));
}

/** Whether a support file is moderated, and as what; throws on a nested SKILL.md. */
async function moderationKind(entry: FileEntry, name: string): Promise<"executable" | "text" | null> {
  if (entry.relPath.split("/").at(-1) === SKILL_FILE_NAME) {
    throw new SkillsError(
      "SECURITY_BLOCKED",
      `Security scan failed for skill '${name}': nested SKILL.md is not allowed at ${name}/${entry.relPath}`,
      {
        details: { skillName: name, location: `${name}/${entry.relPath}` },
      },
    );
  }
  // Only suffix-less files are opened to look for a shebang.
  const head = needsShebangProbe(entry.relPath)
    ? await readFilePrefix(entry.absPath, 2).catch(() => undefined)
    : undefined;
  if (isCodeFile(entry.relPath, head)) return "executable";
  return isPromptInputFile(entry.relPath) ? "text" : null;
}

async function callScanner(
  moderation: ModerationScanner,
  file: FileToModerate,
  location: string,
  findings: readonly Finding[],
  signal?: AbortSignal,
): Promise<ModerationResult> {
  try {
    return await moderation.moderate({
      content: file.content,
      location,
      executable: file.executable,
      staticFindings: findings.filter((f) => f.file === file.rel),
      ...(signal ? { signal } : {}),
    });
  } catch (err) {
    if (signal?.aborted) throw signal.reason;
    throw new SkillsError("SECURITY_SCAN_FAILED", `Security scan failed for ${location}: ${errorText(err)}`, {
      cause: err,
      details: { location },
    });
  }
}

/**
 * Scans a skill package before it is installed or committed.
 *
 * 1. Static scan of the tree. CRITICAL → `SECURITY_BLOCKED`
 *    `"Static security scan blocked skill '<n>': <findings>"` (details: the
 *    CRITICAL findings); a scanner error → `SECURITY_SCAN_FAILED`
 *    `"Static security scan failed for skill '<n>': <err>"`. The moderator is
 *    then never called.
 * 2. With a moderation scanner: SKILL.md (not executable), then every file in
 *    sorted order — another SKILL.md anywhere blocks; code (`scripts/`, code
 *    suffixes, suffix-less `#!` files) is moderated as executable and must get
 *    `allow`; prompt input (`references/`, `templates/` text) may get `warn`;
 *    other files are not moderated. Symlinks are never read.
 *
 * @param dir - the package directory.
 * @param options - see {@link ScanSkillPackageOptions}.
 * @returns the verdict for the history record.
 * @throws SkillsError `SECURITY_BLOCKED` (blocked, rejected executable, nested
 *   SKILL.md, non-UTF-8) or `SECURITY_SCAN_FAILED` (scanner error, invalid
 *   decision), with DeerFlow's messages; the signal's reason when aborted.
 * @example
 * ```ts
 * const verdict = await scanSkillPackage(stagingDir, { skillName: "pdf-tools", moderation });
 * history.append({ ..., scanner: { decision: verdict.decision, reason: verdict.reason, static_findings: verdict.findings.map(toWireFinding) } });
 * ```
 */
export async function scanSkillPackage(dir: string, options: ScanSkillPackageOptions): Promise<SkillScanVerdict> {
  const { skillName: name, moderation, signal } = options;
  const logger = options.logger ?? silentLogger;
  signal?.throwIfAborted();
  const staticScanner = options.staticScanner === undefined ? new StaticSkillScanner() : options.staticScanner;
  const findings = staticScanner === null ? [] : await runStaticScan(dir, staticScanner, name, logger, signal);
  if (moderation === undefined) return { decision: "allow", reason: NO_MODERATION_REASON, findings, moderated: [] };

  const files = await sortedFiles(dir, name, signal);
  const skillMd = files.find((e) => e.relPath === SKILL_FILE_NAME);
  if (skillMd === undefined) {
    throw new SkillsError(
      "SECURITY_SCAN_FAILED",
      `Security scan failed for ${name}/${SKILL_FILE_NAME}: SKILL.md is missing or not a regular file`,
      { details: { skillName: name } },
    );
  }
  const moderated: string[] = [];
  const warnings: string[] = [];
  let firstReason: string | undefined;
  for (const entry of [skillMd, ...files.filter((e) => e !== skillMd)]) {
    signal?.throwIfAborted();
    const kind = entry === skillMd ? "text" : await moderationKind(entry, name);
    if (kind === null) continue;
    const file = {
      rel: entry.relPath,
      content: await readForModeration(entry, name),
      executable: kind === "executable",
    };
    const location = `${name}/${file.rel}`;
    const result = await callScanner(moderation, file, location, findings, signal);
    const decision = judgeInstallFile(result, name, file);
    firstReason ??= result.reason || NO_REASON;
    if (decision === "warn") warnings.push(`${location}: ${result.reason || NO_REASON}`);
    moderated.push(file.rel);
  }
  if (warnings.length > 0) return { decision: "warn", reason: warnings.join("; "), findings, moderated };
  return { decision: "allow", reason: firstReason ?? NO_REASON, findings, moderated };
}
