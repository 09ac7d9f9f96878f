import path from "node:path";
import { silentLogger, type Logger } from "../logger.js";
import type { Skill, SkillCategory } from "../model/skill.js";
import { loadSkillFile, type SkillLoadResult } from "../parsing/load-skill.js";
import { findSkillFiles, type SkillFileWalk } from "./find-skill-files.js";
import { Semaphore } from "@deerflow/kernel";
import type { SkillFileCache } from "./skill-file-cache.js";

/** Categories in precedence order: a later category shadows an earlier one. */
export const DISCOVERY_CATEGORIES: readonly SkillCategory[] = ["public", "custom"];

/**
 * One folder scanned as a category. A server with per-user skills scans the
 * shared `public/` plus each user's own custom folder (see `UserSkillsStorage`).
 */
export interface DiscoverySource {
  readonly category: SkillCategory;
  /** The category root (need not exist). */
  readonly dir: string;
  /**
   * Used only when the walk of this other category found no SKILL.md at all:
   * DeerFlow's `legacy` folder is shown only to a user without custom skills.
   */
  readonly onlyWithout?: SkillCategory;
}

/** How serious a {@link DiscoveryDiagnostic} is. */
export type DiagnosticSeverity = "error" | "warning" | "info";

/**
 * Why a SKILL.md is not (or no longer) in the catalogue, so a gateway can say
 * "skill X skipped: reason". Never carries host paths.
 */
export interface DiscoveryDiagnostic {
  /** The file concerned as `<category>/<path in that category>` (`custom/foo/SKILL.md`). */
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
  /**
   * The folders to scan, in precedence order (a later one shadows an earlier
   * one). Default: `<root>/public`, then `<root>/custom`.
   */
  readonly sources?: readonly DiscoverySource[];
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
 * Scans `<root>/public` and `<root>/custom` (or the given `sources`) and loads
 * every SKILL.md with the lenient loader. A bad file never stops the others: it is left out and
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
  const sources: readonly DiscoverySource[] =
    options.sources ?? DISCOVERY_CATEGORIES.map((category) => ({ category, dir: path.join(options.root, category) }));
  // Diagnostics name files as `<category>/<path in it>`, never as host paths.
  const labelOf = new Map<string, SkillCategory>();
  cache?.beginScan();
  // Walk every category at once and start loading each package as soon as it
  // is found: listing directories waits on I/O while parsing keeps the CPU busy.
  const settled = await Promise.allSettled(
    sources.map(async ({ category, dir }) => {
      const categoryRoot = path.resolve(dir);
      labelOf.set(categoryRoot, category);
      const loadOptions = { category, categoryRoot, logger };
      const load = (file: string): Promise<SkillLoadResult> =>
        slots
          .run(() => (cache ? cache.load(file, loadOptions) : loadSkillFile(file, loadOptions)))
          .catch((err: unknown) => ioFailure(file, err, logger));
      const walk = await findSkillFiles(categoryRoot, {
        concurrency,
        onPackage: (file) => pending.set(file, load(file)),
      });
      return { category, categoryRoot, walk };
    }),
  );
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
  if (failed) {
    // Let loads already started settle, so nothing outlives the failed scan.
    await Promise.allSettled(pending.values());
    throw failed.reason;
  }
  const all = settled.map(
    (s) => (s as PromiseFulfilledResult<{ category: SkillCategory; categoryRoot: string; walk: SkillFileWalk }>).value,
  );
  const found = new Set(all.filter((w) => w.walk.files.length > 0).map((w) => w.category));
  const walks = all.filter((_walk, i) => {
    const without = sources[i]?.onlyWithout;
    return without === undefined || !found.has(without);
  });
  for (const { category, walk } of walks) {
    for (const issue of walk.issues) {
      const file = issue.dir === "." ? category : `${category}/${issue.dir}`;
      logger.warn({ dir: file, code: issue.code }, "Skipping unreadable skills directory");
      diagnostics.push({ file, code: issue.code, message: issue.message, severity: "error" });
    }
    order.push(...walk.files);
  }
  // Loads of a dropped (`onlyWithout`) folder are awaited too, so none outlives the scan.
  const results = await Promise.all(order.map((file) => pending.get(file) as Promise<SkillLoadResult>));
  await Promise.allSettled(pending.values());
  cache?.endScan();
  const fileLabel = (file: string): string => labelled(labelOf, options.root, file);

  const byName = new Map<string, Skill>();
  results.forEach((result) => {
    if (!result.ok) {
      diagnostics.push({
        file: fileLabel(result.file),
        code: result.reason.code,
        message: result.reason.message,
        severity: "error",
      });
      return;
    }
    const skill = result.skill;
    const previous = byName.get(skill.name);
    if (previous) diagnostics.push(shadowNote(fileLabel, previous, skill, logger));
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

function shadowNote(
  fileLabel: (file: string) => string,
  loser: Skill,
  winner: Skill,
  logger: Logger,
): DiscoveryDiagnostic {
  const loserFile = fileLabel(loser.skillFile);
  const winnerFile = fileLabel(winner.skillFile);
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

/** `<category>/<path under the category root>` for a file of a scanned source, else relative to `root`. */
function labelled(labelOf: ReadonlyMap<string, SkillCategory>, root: string, file: string): string {
  for (const [dir, category] of labelOf) {
    const rel = path.relative(dir, file);
    if (rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel))
      return `${category}/${rel.split(path.sep).join("/")}`;
  }
  return path.relative(root, file).split(path.sep).join("/");
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
