import path from "node:path";
import { silentLogger, type Logger } from "../logger.js";
import type { Skill, SkillCategory } from "../model/skill.js";
import { loadSkillFile, type SkillLoadResult } from "../parsing/load-skill.js";
import { findSkillFiles, type SkillFileWalk } from "./find-skill-files.js";
import { Semaphore } from "@deerflow/kernel";
import type { SkillFileCache } from "./skill-file-cache.js";

/** Categories in precedence order: a later category shadows an earlier one. */
export const DISCOVERY_CATEGORIES: readonly SkillCategory[] = ["public", "custom"];

/** How serious a {@link DiscoveryDiagnostic} is. */
export type DiagnosticSeverity = "error" | "warning" | "info";

/**
 * Why a SKILL.md is not (or no longer) in the catalogue, so a gateway can say
 * "skill X skipped: reason". Never carries host paths.
 */
export interface DiscoveryDiagnostic {
  /** The file concerned, relative to the skills root (`custom/foo/SKILL.md`). */
  readonly file: string;
  /**
   * The loader's issue code for dropped files (`yaml-invalid`, `name-missing`...),
   * `skill-shadowed` when a custom skill hides a public one, `skill-duplicate`
   * when two packages of one category share a name, `directory-unreadable` or
   * `io-error`.
   */
  readonly code: string;
  readonly message: string;
  readonly severity: DiagnosticSeverity;
  /** The skill name, when it is known (shadowing notes). */
  readonly name?: string;
}

/** Skills found under a root, plus everything that was dropped or shadowed. */
export interface DiscoveryResult {
  /** Effective skills after precedence, sorted by name, each `enabled: true`. */
  readonly skills: readonly Skill[];
  readonly diagnostics: readonly DiscoveryDiagnostic[];
}

/** Options of {@link discoverSkills}. */
export interface DiscoverOptions {
  /** The skills root holding `public/` and `custom/` (each optional). */
  readonly root: string;
  readonly logger?: Logger;
  /** SKILL.md files loaded (and directories listed) concurrently (default 16). */
  readonly concurrency?: number;
  /**
   * Reuses parses of unchanged files from earlier scans (see
   * {@link SkillFileCache}). Use one cache per root, one scan at a time.
   */
  readonly cache?: SkillFileCache;
}

/**
 * Scans `<root>/public` and `<root>/custom` and loads every SKILL.md with the
 * lenient loader. A bad file never stops the others: it is left out and
 * reported in `diagnostics`.
 *
 * Precedence follows DeerFlow: skills are keyed by name and later ones win, so
 * a custom skill shadows a public one of the same name (an `info` note), and
 * within one category the last package in sorted walk order wins (a
 * `warning`). The enabled state is not applied here (see `SkillCatalog`).
 *
 * @param options - The root and tuning knobs.
 * @returns The effective skills sorted by name, and the diagnostics.
 * @throws Node's error when a category root exists but cannot be read.
 * @example
 * ```ts
 * const { skills, diagnostics } = await discoverSkills({ root: "/srv/skills" });
 * for (const d of diagnostics) log.warn(`${d.file}: ${d.message}`);
 * ```
 */
export async function discoverSkills(options: DiscoverOptions): Promise<DiscoveryResult> {
  const logger = options.logger ?? silentLogger;
  const concurrency = options.concurrency ?? 16;
  const cache = options.cache;
  const slots = new Semaphore(Math.max(1, Math.floor(concurrency) || 1));
  const diagnostics: DiscoveryDiagnostic[] = [];
  const pending = new Map<string, Promise<SkillLoadResult>>();
  const order: string[] = [];
  cache?.beginScan();
  // Walk both categories at once and start loading each package as soon as it
  // is found: listing directories waits on I/O while parsing keeps the CPU busy.
  const settled = await Promise.allSettled(
    DISCOVERY_CATEGORIES.map(async (category) => {
      const categoryRoot = path.join(options.root, category);
      const loadOptions = { category, categoryRoot, logger };
      const load = (file: string): Promise<SkillLoadResult> =>
        slots
          .run(() => (cache ? cache.load(file, loadOptions) : loadSkillFile(file, loadOptions)))
          .catch((err: unknown) => ioFailure(file, err, logger));
      const walk = await findSkillFiles(categoryRoot, {
        concurrency,
        onPackage: (file) => pending.set(file, load(file)),
      });
      return { category, walk };
    }),
  );
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
  if (failed) {
    // Let loads already started settle, so nothing outlives the failed scan.
    await Promise.allSettled(pending.values());
    throw failed.reason;
  }
  const walks = settled.map(
    (s) => (s as PromiseFulfilledResult<{ category: SkillCategory; walk: SkillFileWalk }>).value,
  );
  for (const { category, walk } of walks) {
    for (const issue of walk.issues) {
      const file = issue.dir === "." ? category : `${category}/${issue.dir}`;
      logger.warn({ dir: file, code: issue.code }, "Skipping unreadable skills directory");
      diagnostics.push({ file, code: issue.code, message: issue.message, severity: "error" });
    }
    order.push(...walk.files);
  }
  const results = await Promise.all(order.map((file) => pending.get(file) as Promise<SkillLoadResult>));
  cache?.endScan();

  const byName = new Map<string, Skill>();
  results.forEach((result) => {
    if (!result.ok) {
      diagnostics.push({
        file: relativeToRoot(options.root, result.file),
        code: result.reason.code,
        message: result.reason.message,
        severity: "error",
      });
      return;
    }
    const skill = result.skill;
    const previous = byName.get(skill.name);
    if (previous) diagnostics.push(shadowNote(options.root, previous, skill, logger));
    byName.set(skill.name, skill);
  });

  const skills = [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { skills, diagnostics };
}

/** Unexpected I/O (EACCES, EIO) on one file must not hide every other skill. */
function ioFailure(file: string, err: unknown, logger: Logger): SkillLoadResult {
  const code = (err as NodeJS.ErrnoException | undefined)?.code ?? "unknown error";
  logger.warn({ file, code }, "Skipping skill: SKILL.md cannot be read");
  return { ok: false, file, reason: { code: "io-error", field: null, message: `SKILL.md cannot be read (${code})` } };
}

function shadowNote(root: string, loser: Skill, winner: Skill, logger: Logger): DiscoveryDiagnostic {
  const loserFile = relativeToRoot(root, loser.skillFile);
  const winnerFile = relativeToRoot(root, winner.skillFile);
  if (loser.category === winner.category) {
    logger.warn(
      { skill: winner.name, kept: winnerFile, ignored: loserFile },
      "Duplicate skill name; the later package wins",
    );
    return {
      file: loserFile,
      code: "skill-duplicate",
      message: `Skill '${winner.name}' is defined more than once in ${winner.category}; ${winnerFile} wins`,
      severity: "warning",
      name: winner.name,
    };
  }
  logger.info({ skill: winner.name, kept: winnerFile, shadowed: loserFile }, "Skill shadowed by a later category");
  return {
    file: loserFile,
    code: "skill-shadowed",
    message: `${capitalize(loser.category)} skill '${winner.name}' is shadowed by the ${winner.category} skill at ${winnerFile}`,
    severity: "info",
    name: winner.name,
  };
}

function relativeToRoot(root: string, file: string): string {
  return path.relative(root, file).split(path.sep).join("/");
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
