import path from "node:path";
import { SkillsError } from "../errors.js";
import { DEFAULT_SKILLS_CONTAINER_PATH } from "../limits.js";
import { silentLogger, type Logger } from "../logger.js";
import type { Skill } from "../model/skill.js";
import { watchDebounced, type DebouncedWatch, type WatchTarget } from "./debounced-watch.js";
import {
  discoverSkills,
  type DiscoverOptions,
  type DiscoveryDiagnostic,
  type DiscoveryResult,
  type DiscoverySource,
} from "./discover.js";
import { ExtensionsConfigStore, isSkillEnabled, type ExtensionsConfigSnapshot } from "./extensions-config.js";
import { SkillFileCache } from "./skill-file-cache.js";
import type { SkillSource } from "./skill-source.js";
import type { SkillStatesFile } from "./skill-states-file.js";

/** Options of {@link SkillCatalog}. */
export interface SkillCatalogOptions {
  /** The skills root holding `public/` and `custom/`. */
  readonly root: string;
  /** `extensions_config.json` with the enabled state; without it every skill is enabled and `setEnabled` throws. */
  readonly extensionsConfigPath?: string;
  /** Container mount point of the skills tree, for prompt and tool rendering (default `/mnt/skills`). */
  readonly containerBase?: string;
  readonly logger?: Logger;
  /** Invalidate the cache when files under `root` (or the config file) change. */
  readonly watch?: boolean | { readonly debounceMs?: number };
  /** Files loaded concurrently per scan (default 16). */
  readonly concurrency?: number;
  /** Replaces the filesystem discovery (other layouts, tests). */
  readonly discover?: (options: DiscoverOptions) => Promise<DiscoveryResult>;
  /** The folders scanned (default `<root>/public` and `<root>/custom`); see {@link DiscoverySource}. */
  readonly sources?: readonly DiscoverySource[];
  /**
   * A user's own state of non-public skills (DeerFlow's `_skill_states.json`).
   * With it, a public skill follows `extensions_config.json` only, any other is
   * enabled when both its user entry and its global entry allow it (each
   * defaults to true), and `setEnabled` of a non-public skill writes this file.
   */
  readonly skillStates?: SkillStatesFile;
  /** Called after `setEnabled` changed a skill (e.g. to drop other users' caches on a public toggle). */
  readonly onEnabledChange?: (skill: Skill) => void;
}

interface Snapshot {
  readonly skills: readonly Skill[];
  readonly enabled: readonly Skill[];
  readonly byName: ReadonlyMap<string, Skill>;
  readonly diagnostics: readonly DiscoveryDiagnostic[];
}

const NO_CONFIG: ExtensionsConfigSnapshot = { exists: false, data: {}, skillStates: new Map() };
const NO_STATES: ReadonlyMap<string, boolean> = new Map();

/**
 * The skills of one root, scanned once and cached, with the enabled state of
 * `extensions_config.json` applied.
 *
 * - Scans are single-flight: every caller during a scan shares its promise,
 *   so concurrent `reload()`s cost one scan. An `invalidate()` (or a watched
 *   change) during a scan makes that scan run exactly once more before
 *   anyone gets a result, so results that predate a change never stick.
 * - Rescans walk the whole tree but re-parse only SKILL.md files whose
 *   inode, size or timestamps changed (see {@link SkillFileCache}).
 * - A failed scan keeps the last-known-good list: `reload()` rethrows, while
 *   `list()` logs and serves the previous list (it rethrows only when there
 *   has never been a good scan).
 * - Returned arrays and skills are frozen; an unchanged catalogue returns the
 *   same array, which lets prompt rendering skip re-hashing it.
 *
 * @example
 * ```ts
 * const catalog = new SkillCatalog({ root: "/srv/skills", extensionsConfigPath: "/srv/extensions_config.json", watch: true });
 * const section = renderSkillSection(await catalog.list(), { containerBase: catalog.containerBase });
 * await catalog.setEnabled("deep-research", false);
 * catalog.close();
 * ```
 */
export class SkillCatalog implements SkillSource {
  /** The skills root. */
  readonly root: string;
  /** Container mount point of the skills tree. */
  readonly containerBase: string;
  readonly #logger: Logger;
  readonly #store: ExtensionsConfigStore | undefined;
  readonly #discover: (options: DiscoverOptions) => Promise<DiscoveryResult>;
  readonly #concurrency: number | undefined;
  readonly #sources: readonly DiscoverySource[] | undefined;
  readonly #states: SkillStatesFile | undefined;
  readonly #onEnabledChange: ((skill: Skill) => void) | undefined;
  readonly #files = new SkillFileCache();
  #snapshot: Snapshot | undefined;
  #snapshotGeneration = -1;
  #generation = 0;
  #configVersion = 0;
  #inflight: Promise<Snapshot> | undefined;
  #watch: DebouncedWatch | undefined;

  /** @param options - Root, config file, watching and tuning. */
  constructor(options: SkillCatalogOptions) {
    this.root = path.resolve(options.root);
    this.containerBase = options.containerBase ?? DEFAULT_SKILLS_CONTAINER_PATH;
    this.#logger = options.logger ?? silentLogger;
    this.#store =
      options.extensionsConfigPath === undefined
        ? undefined
        : new ExtensionsConfigStore(options.extensionsConfigPath, { logger: this.#logger });
    this.#discover = options.discover ?? discoverSkills;
    this.#concurrency = options.concurrency;
    this.#sources = options.sources;
    this.#states = options.skillStates;
    this.#onEnabledChange = options.onEnabledChange;
    if (options.watch) this.#startWatching(typeof options.watch === "object" ? (options.watch.debounceMs ?? 250) : 250);
  }

  /** Every skill (enabled or not) sorted by name, scanning on first use or after invalidation. */
  async list(): Promise<readonly Skill[]> {
    return (await this.#current()).skills;
  }

  /** The enabled skills, sorted by name. */
  async enabledSkills(): Promise<readonly Skill[]> {
    return (await this.#current()).enabled;
  }

  /** The effective (shadow-resolved) skill called `name`, if any. */
  async get(name: string): Promise<Skill | undefined> {
    return (await this.#current()).byName.get(name);
  }

  /** Why SKILL.md files were skipped or shadowed in the current scan. */
  async diagnostics(): Promise<readonly DiscoveryDiagnostic[]> {
    return (await this.#current()).diagnostics;
  }

  /** Marks the cache stale; the next read rescans (a scan in flight reruns once). */
  invalidate(): void {
    this.#generation++;
  }

  /**
   * Rescans now. Calls made while a scan is running join it instead of
   * starting another.
   *
   * @returns The fresh list.
   * @throws Whatever the scan throws; the last-known-good list is kept.
   */
  async reload(): Promise<readonly Skill[]> {
    if (!this.#inflight) this.#generation++;
    return (await this.#scan()).skills;
  }

  /**
   * Enables or disables a skill in `extensions_config.json` (or, for a
   * non-public skill with `skillStates`, in the user's state file) and updates
   * the cache without a rescan.
   *
   * @returns The skill with its new state.
   * @throws SkillsError `SKILL_NOT_FOUND` for an unknown name; `CONFIG_INVALID` without a config path or when the file is malformed.
   */
  async setEnabled(name: string, enabled: boolean): Promise<Skill> {
    // The last-known list is enough to know the skill exists; waiting for a
    // scan in flight is only needed for a name it does not have yet.
    const skill = this.#snapshot?.byName.get(name) ?? (await this.get(name));
    if (!skill) throw new SkillsError("SKILL_NOT_FOUND", `Skill '${name}' not found`);
    let effective = enabled;
    if (this.#states !== undefined && skill.category !== "public") {
      await this.#states.setEnabled(name, enabled);
      // The global entry still applies: an admin's "off" cannot be undone per user (DeerFlow).
      const config = this.#store === undefined ? NO_CONFIG : await this.#store.readLenient();
      effective = enabled && isSkillEnabled(config, name);
    } else {
      if (!this.#store)
        throw new SkillsError(
          "CONFIG_INVALID",
          "No extensions config file is configured, so skills cannot be enabled or disabled",
        );
      await this.#store.setSkillEnabled(name, enabled);
    }
    // A scan that read the old file before this write re-reads it (see #readConfig).
    this.#configVersion++;
    const current = this.#snapshot;
    if (current?.byName.has(name)) {
      this.#snapshot = buildSnapshot(
        current.skills.map((s) => (s.name === name ? { ...s, enabled: effective } : s)),
        current.diagnostics,
      );
    }
    const changed = this.#snapshot?.byName.get(name) ?? Object.freeze({ ...skill, enabled: effective });
    this.#onEnabledChange?.(changed);
    return changed;
  }

  /** Stops watching. The catalogue stays usable (without automatic invalidation). */
  close(): void {
    this.#watch?.close();
    this.#watch = undefined;
  }

  async #current(): Promise<Snapshot> {
    if (this.#snapshot && this.#snapshotGeneration === this.#generation) return this.#snapshot;
    try {
      return await this.#scan();
    } catch (err) {
      if (!this.#snapshot) throw err;
      this.#logger.error({ error: String(err) }, "Skill scan failed; serving the last-known-good list");
      return this.#snapshot;
    }
  }

  #scan(): Promise<Snapshot> {
    if (this.#inflight) return this.#inflight;
    const run = async (): Promise<Snapshot> => {
      try {
        for (;;) {
          const generation = this.#generation;
          const found = await this.#discover({
            root: this.root,
            ...(this.#sources === undefined ? {} : { sources: this.#sources }),
            logger: this.#logger,
            cache: this.#files,
            ...(this.#concurrency === undefined ? {} : { concurrency: this.#concurrency }),
          });
          const { config, states } = await this.#readConfig();
          // Invalidated while scanning: what we read may predate the change.
          if (generation !== this.#generation) continue;
          const snapshot = buildSnapshot(
            found.skills.map((s) => ({
              ...s,
              enabled: isSkillEnabled(config, s.name) && (s.category === "public" || states.get(s.name) !== false),
            })),
            found.diagnostics,
          );
          this.#snapshot = snapshot;
          this.#snapshotGeneration = generation;
          this.#logger.debug(
            { skills: snapshot.skills.length, diagnostics: snapshot.diagnostics.length },
            "Skill catalog scanned",
          );
          return snapshot;
        }
      } finally {
        this.#inflight = undefined;
      }
    };
    this.#inflight = run();
    return this.#inflight;
  }

  async #readConfig(): Promise<{ config: ExtensionsConfigSnapshot; states: ReadonlyMap<string, boolean> }> {
    for (;;) {
      const version = this.#configVersion;
      const [config, states] = await Promise.all([
        this.#store === undefined ? NO_CONFIG : this.#store.readLenient(),
        this.#states === undefined ? NO_STATES : this.#states.read(),
      ]);
      if (version === this.#configVersion) return { config, states };
    }
  }

  #startWatching(debounceMs: number): void {
    const targets: WatchTarget[] = [{ dir: this.root, recursive: true }];
    if (this.#store)
      targets.push({
        dir: path.dirname(this.#store.filePath),
        recursive: false,
        fileName: path.basename(this.#store.filePath),
      });
    this.#watch = watchDebounced(
      targets,
      debounceMs,
      () => {
        this.#logger.debug({}, "Skills changed on disk; invalidating the catalog");
        this.invalidate();
      },
      this.#logger,
    );
  }
}

function buildSnapshot(skills: readonly Skill[], diagnostics: readonly DiscoveryDiagnostic[]): Snapshot {
  const frozen = Object.freeze(skills.map((s) => (Object.isFrozen(s) ? s : Object.freeze(s))));
  return {
    skills: frozen,
    enabled: Object.freeze(frozen.filter((s) => s.enabled)),
    byName: new Map(frozen.map((s) => [s.name, s])),
    diagnostics: Object.freeze([...diagnostics]),
  };
}
