/**
 * Installing a custom skill from a `.skill` archive or a folder, following
 * DeerFlow's `install_skill_from_archive` step by step: file checks, static
 * preflight on the listing, bounded extraction into a private temp dir, root
 * detection, strict validation, name checks, the existence check, content
 * scans, then an atomic commit ({@link commitStagedSkill}). Whatever fails,
 * nothing is left in the custom root and the temp dir is removed.
 */
import { lstat, mkdir, mkdtemp, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { normalizeSkillName } from "../custom/skill-name.js";
import { SkillsError } from "../errors.js";
import { silentLogger, type Logger } from "../logger.js";
import { validateSkillDirectory } from "../parsing/validate.js";
import { scanSkillPackage, type SkillScanVerdict } from "../scanning/pipeline.js";
import { scanArchiveEntries } from "../scanning/static/archive-entries.js";
import { formatFindings } from "../scanning/static/findings.js";
import type { ModerationScanner, SkillScanner } from "../scanning/types.js";
import { detectArchiveRoot } from "./archive-root.js";
import { openSkillArchive } from "./archive-reader.js";
import { commitStagedSkill, skillExistsError } from "./commit.js";
import { extractArchive } from "./safe-extract.js";
import { copySkillTree, listSkillTree } from "./skill-tree.js";

/** Options of {@link installSkillArchive} and {@link installSkillFromDirectory}. */
export interface InstallOptions {
  /** Custom skills root; the skill lands in `<customRoot>/<frontmatter name>`. */
  readonly customRoot: string;
  /** Static scanner for the content scan (the built-in static SkillScan when omitted). */
  readonly staticScanner?: SkillScanner;
  /** Moderation scanner for the content scan (no moderation when omitted). */
  readonly moderation?: ModerationScanner;
  readonly logger?: Logger;
  readonly signal?: AbortSignal;
  /**
   * Run the static security scans: the archive preflight and the static pass
   * of {@link scanSkillPackage}. Default true. `false` is DeerFlow's
   * `skill_scan.enabled: false` kill switch: the moderation scanner, if given,
   * still runs, and the extraction caps and name rules always apply.
   */
  readonly scan?: boolean;
  /** Where the private temp dir is created. Default `os.tmpdir()`. */
  readonly tempDir?: string;
}

/** What an install produced. */
export interface InstallResult {
  /** The frontmatter name, which is also the folder name. */
  readonly name: string;
  /** Absolute path of the installed skill directory. */
  readonly skillDir: string;
  /** `"Skill '<name>' installed successfully"`. */
  readonly message: string;
  /** The content scan verdict (for a history record). */
  readonly scan: SkillScanVerdict;
}

function errnoCode(err: unknown): string | undefined {
  return typeof err === "object" && err !== null ? (err as NodeJS.ErrnoException).code : undefined;
}

async function removeTemp(dir: string, logger: Logger): Promise<void> {
  await rm(dir, { recursive: true, force: true, maxRetries: 2 }).catch((err: unknown) => {
    logger.warn({ err: String(err) }, "Could not remove skill install temp directory");
  });
}

/** Preflight on the archive listing: any CRITICAL finding blocks before extraction. */
function preflight(entries: ReadonlyArray<{ name: string; isSymlink: boolean; declaredSize: number }>): void {
  const critical = scanArchiveEntries(
    entries.map((e) => ({ name: e.name, isSymlink: e.isSymlink, uncompressedSize: e.declaredSize })),
  ).filter((f) => f.severity === "CRITICAL");
  if (critical.length > 0) {
    throw new SkillsError(
      "SECURITY_BLOCKED",
      `Static security scan blocked unsafe skill archive: ${formatFindings(critical)}`,
      {
        details: { findings: critical, skillName: null },
      },
    );
  }
}

/**
 * Validation, name checks, existence check, content scans and commit: the
 * steps shared by archive and folder installs. `root` is a private copy.
 */
async function installVettedTree(root: string, options: InstallOptions): Promise<InstallResult> {
  const logger = options.logger ?? silentLogger;
  const validation = await validateSkillDirectory(root, { requireDirectoryNameMatch: false });
  if (!validation.ok || validation.name === undefined) {
    const message = validation.errors[0]?.message ?? "SKILL.md not found";
    throw new SkillsError("SKILL_INVALID", `Invalid skill: ${message}`, { details: { errors: validation.errors } });
  }
  const rawName = validation.name;
  if (rawName.includes("/") || rawName.includes("\\") || rawName.includes("..")) {
    throw new SkillsError("INVALID_NAME", `Invalid skill name: ${rawName}`, { details: { name: rawName } });
  }
  const name = normalizeSkillName(rawName);
  const target = path.join(options.customRoot, name);
  if (
    await lstat(target).then(
      () => true,
      () => false,
    )
  )
    throw skillExistsError(name);

  options.signal?.throwIfAborted();
  const scan = await scanSkillPackage(root, {
    skillName: name,
    ...(options.scan === false
      ? { staticScanner: null }
      : options.staticScanner
        ? { staticScanner: options.staticScanner }
        : {}),
    ...(options.moderation ? { moderation: options.moderation } : {}),
    logger,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const skillDir = await commitStagedSkill(root, {
    customRoot: options.customRoot,
    name,
    logger,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  logger.info({ skill: name, decision: scan.decision }, "Installed custom skill");
  return { name, skillDir, message: `Skill '${name}' installed successfully`, scan };
}

/**
 * Installs a `.skill` archive into the custom skills root.
 *
 * @param file - path of the archive; must end in exactly `.skill`.
 * @param options - see {@link InstallOptions}.
 * @returns the installed skill's name, directory, message and scan result.
 * @throws SkillsError, in the order the checks run:
 *   `FILE_NOT_FOUND` "Skill file not found: <path>";
 *   `INVALID_PATH` "Path is not a file: <path>";
 *   `ARCHIVE_INVALID` "File must have .skill extension" / "File is not a valid ZIP archive";
 *   `ARCHIVE_TOO_LARGE` "Skill archive contains too many entries (<n> > 4096)." (checked
 *   on opening, before the preflight);
 *   `SECURITY_BLOCKED` "Static security scan blocked unsafe skill archive: <findings>";
 *   the extraction errors of {@link extractArchive} (`ARCHIVE_UNSAFE`, `ARCHIVE_TOO_LARGE`);
 *   `ARCHIVE_INVALID` "Skill archive is empty"; `SKILL_INVALID` "Invalid skill: <message>";
 *   `INVALID_NAME` "Invalid skill name: <name>"; `SKILL_ALREADY_EXISTS` "Skill '<name>' already exists";
 *   `SECURITY_BLOCKED` / `SECURITY_SCAN_FAILED` from the content scan.
 * @example
 * ```ts
 * const { name, message } = await installSkillArchive("uploads/pdf-tools.skill", { customRoot, moderation });
 * ```
 */
export async function installSkillArchive(file: string, options: InstallOptions): Promise<InstallResult> {
  const logger = options.logger ?? silentLogger;
  const info = await stat(file).catch((err: unknown) => {
    if (errnoCode(err) === "ENOENT" || errnoCode(err) === "ENOTDIR") {
      throw new SkillsError("FILE_NOT_FOUND", `Skill file not found: ${file}`);
    }
    throw err;
  });
  if (!info.isFile()) throw new SkillsError("INVALID_PATH", `Path is not a file: ${file}`);
  if (path.extname(file) !== ".skill") throw new SkillsError("ARCHIVE_INVALID", "File must have .skill extension");

  const archive = await openSkillArchive(file);
  let temp: string | undefined;
  try {
    if (options.scan !== false) preflight(archive.entries);
    options.signal?.throwIfAborted();
    await mkdir(options.tempDir ?? os.tmpdir(), { recursive: true });
    temp = await mkdtemp(path.join(options.tempDir ?? os.tmpdir(), "deerflow-skill-"));
    const extractDir = path.join(temp, "archive");
    await mkdir(extractDir, { mode: 0o700 });
    await extractArchive(archive, extractDir, { logger, ...(options.signal ? { signal: options.signal } : {}) });
    archive.close();
    return await installVettedTree(await detectArchiveRoot(extractDir), options);
  } finally {
    archive.close();
    if (temp !== undefined) await removeTemp(temp, logger);
  }
}

/**
 * Installs a skill from a folder (for example one an agent or the CLI just
 * wrote). The folder is copied, never moved or changed: dot folders such as
 * `.git` are left out, symlinks inside it are copied as the files they point
 * to, and a symlink that leaves the folder is refused. The copy then goes
 * through the same validation, scans and commit as an archive.
 *
 * @param dir - the skill folder (containing SKILL.md).
 * @param options - see {@link InstallOptions}.
 * @returns as {@link installSkillArchive}.
 * @throws SkillsError `FILE_NOT_FOUND` "Skill directory not found: <path>",
 *   `INVALID_PATH` "Path is not a directory: <path>" or an escaping symlink,
 *   `SKILL_TOO_LARGE`, then the validation, name, existence and scan errors of
 *   {@link installSkillArchive}.
 */
export async function installSkillFromDirectory(dir: string, options: InstallOptions): Promise<InstallResult> {
  const logger = options.logger ?? silentLogger;
  const info = await stat(dir).catch((err: unknown) => {
    if (errnoCode(err) === "ENOENT" || errnoCode(err) === "ENOTDIR") {
      throw new SkillsError("FILE_NOT_FOUND", `Skill directory not found: ${dir}`);
    }
    throw err;
  });
  if (!info.isDirectory()) throw new SkillsError("INVALID_PATH", `Path is not a directory: ${dir}`);

  const tree = await listSkillTree(dir, { skipDotDirectories: true });
  await mkdir(options.tempDir ?? os.tmpdir(), { recursive: true });
  const temp = await mkdtemp(path.join(options.tempDir ?? os.tmpdir(), "deerflow-skill-"));
  try {
    const copy = path.join(temp, path.basename(path.resolve(dir)) || "skill");
    await mkdir(copy, { mode: 0o700 });
    await copySkillTree(tree, copy, options.signal);
    return await installVettedTree(copy, options);
  } finally {
    await removeTemp(temp, logger);
  }
}
