/**
 * DeerFlow's per-user skills: every user sees the shared built-in skills plus
 * their own custom skills, history and enabled state, under
 * `{dataDir}/users/{uid}/skills/`.
 */
import path from "node:path";
import { LruCache } from "@deerflow/kernel";
import { SkillCatalog } from "../catalog/catalog.js";
import type { DiscoverySource } from "../catalog/discover.js";
import { SKILL_STATES_FILE_NAME, SkillStatesFile } from "../catalog/skill-states-file.js";
import { CustomSkillStore } from "../custom/custom-skill-store.js";
import { DEFAULT_SKILLS_CONTAINER_PATH } from "../limits.js";
import { silentLogger, type Logger } from "../logger.js";
import type { SkillCategory } from "../model/skill.js";
import type { ModerationScanner, SkillScanner } from "../scanning/types.js";
import { userFolderName } from "./user-folder-name.js";

/** Users whose catalog and store stay in memory (DeerFlow: 64). */
export const DEFAULT_MAX_CACHED_USERS = 64;

/** Options of {@link UserSkillsStorage}. */
export interface UserSkillsStorageOptions {
  /** The deployment's skills root: `public/` (built-in) and `custom/` (shown as `legacy`). */
  readonly root: string;
  /** The data folder; a user's skills live in `<dataDir>/users/<uid>/skills/`. */
  readonly dataDir: string;
  /** `extensions_config.json`: the global state (public skills; also a global "off" for any other). */
  readonly extensionsConfigPath?: string;
  /** Where the skills are mounted in the sandbox (default `/mnt/skills`). */
  readonly containerBase?: string;
  /**
   * The user who owns the deployment's `<root>/custom` folder: their custom
   * skills are that folder (so a single-user deployment keeps its skills
   * where they always were) and they have no `legacy` category. Default: none
   * (DeerFlow: the folder is everybody's read-only `legacy`).
   */
  readonly legacyOwner?: string;
  /** Static scanner of custom-skill edits (`undefined`: the built-in SkillScan; `null`: off). */
  readonly staticScanner?: SkillScanner | null;
  readonly moderation?: ModerationScanner;
  /** Users kept in memory (default 64); an evicted user is rebuilt from disk on next use. */
  readonly maxCachedUsers?: number;
  readonly logger?: Logger;
}

/** One folder of a user's sandbox view: mounted read-only at `<containerBase>/<category>`. */
export interface UserSkillsMount {
  readonly category: SkillCategory;
  readonly hostPath: string;
}

/** One user's skills. */
export interface UserSkillSet {
  /** The id as given. */
  readonly userId: string;
  /** Public + this user's custom (or legacy) skills, with this user's enabled state. */
  readonly catalog: SkillCatalog;
  /** This user's custom skills (history in `.history/`); changes invalidate {@link catalog}. */
  readonly store: CustomSkillStore;
  /** The folders the user's sandbox mounts, by category (only the categories the catalog reads). */
  readonly mounts: readonly UserSkillsMount[];
}

/**
 * Per-user catalogs and custom-skill stores over one skills root.
 *
 * - Layout (DeerFlow's `UserScopedSkillStorage`): custom skills in
 *   `<dataDir>/users/<uid>/skills/custom/<name>/SKILL.md`, history in
 *   `…/custom/.history/<name>.jsonl`, the user's state in
 *   `…/skills/_skill_states.json`. User ids are normalised by
 *   {@link userFolderName}, so no id reaches outside `users/`.
 * - Precedence: public, then the user's custom skills; the root's `custom/`
 *   folder appears as read-only `legacy` only while the user has no custom
 *   skill at all.
 * - Enabled state: public skills follow `extensions_config.json` (global,
 *   admin-controlled); any other needs its user entry and its global entry.
 *   A public toggle drops every user's cache; any other change only the user's.
 * - Users are kept in an LRU (64 by default).
 *
 * @example
 * ```ts
 * const storage = new UserSkillsStorage({ root: "/srv/skills", dataDir: "/var/lib/deerflow" });
 * const alice = storage.forUser("alice");
 * await alice.store.create("my-notes", skillMd, { author: "human" });
 * (await alice.catalog.list()).map((s) => s.name); // [..., "my-notes"]
 * (await storage.forUser("bob").catalog.get("my-notes")); // undefined
 * ```
 */
export class UserSkillsStorage {
  /** The skills root. */
  readonly root: string;
  /** The data folder. */
  readonly dataDir: string;
  /** Container mount point of the skills. */
  readonly containerBase: string;
  readonly #options: UserSkillsStorageOptions;
  readonly #logger: Logger;
  readonly #users: LruCache<string, UserSkillSet>;

  /** @param options - roots, config file, scanners, cache size. */
  constructor(options: UserSkillsStorageOptions) {
    this.root = path.resolve(options.root);
    this.dataDir = path.resolve(options.dataDir);
    this.containerBase = options.containerBase ?? DEFAULT_SKILLS_CONTAINER_PATH;
    this.#options = options;
    this.#logger = options.logger ?? silentLogger;
    this.#users = new LruCache(options.maxCachedUsers ?? DEFAULT_MAX_CACHED_USERS);
  }

  /**
   * @param userId - the authenticated user's id.
   * @returns `<dataDir>/users/<folder>/skills`.
   * @throws SkillsError `INVALID_NAME` for an empty id.
   */
  userSkillsDir(userId: string): string {
    return path.join(this.dataDir, "users", userFolderName(userId), "skills");
  }

  /**
   * One user's catalog, store and sandbox folders (built on first use, then cached).
   *
   * @param userId - the authenticated user's id (never one from a request body).
   * @throws SkillsError `INVALID_NAME` for an empty id.
   */
  forUser(userId: string): UserSkillSet {
    const key = userFolderName(userId);
    const cached = this.#users.get(key);
    if (cached !== undefined) return cached;
    const set = this.#build(userId, key);
    this.#users.set(key, set);
    return set;
  }

  /** Drops one user's cached scan (their next read rescans). */
  invalidateUser(userId: string): void {
    this.#users.get(userFolderName(userId))?.catalog.invalidate();
  }

  /** Drops every cached scan. */
  invalidateAll(): void {
    for (const set of this.#users.values()) set.catalog.invalidate();
  }

  /** Forgets every user (DeerFlow's `POST /api/skills/reload`); they are rebuilt from disk on next use. */
  clear(): void {
    this.invalidateAll();
    this.#users.clear();
  }

  #build(userId: string, folder: string): UserSkillSet {
    const o = this.#options;
    const publicRoot = path.join(this.root, "public");
    const legacyRoot = path.join(this.root, "custom");
    const owner = o.legacyOwner !== undefined && userFolderName(o.legacyOwner) === folder;
    const skillsDir = path.join(this.dataDir, "users", folder, "skills");
    const customRoot = owner ? legacyRoot : path.join(skillsDir, "custom");
    const sources: DiscoverySource[] = [
      { category: "public", dir: publicRoot },
      { category: "custom", dir: customRoot },
      ...(owner ? [] : [{ category: "legacy" as const, dir: legacyRoot, onlyWithout: "custom" as const }]),
    ];
    const catalog = new SkillCatalog({
      root: this.root,
      sources,
      skillStates: new SkillStatesFile(path.join(skillsDir, SKILL_STATES_FILE_NAME), { logger: this.#logger }),
      containerBase: this.containerBase,
      logger: this.#logger,
      ...(o.extensionsConfigPath === undefined ? {} : { extensionsConfigPath: o.extensionsConfigPath }),
      // A public toggle is global: every user's list shows it.
      onEnabledChange: (skill) => {
        if (skill.category === "public") this.invalidateAll();
      },
    });
    const store = new CustomSkillStore({
      customRoot,
      publicRoot,
      ...(o.staticScanner === undefined ? {} : { staticScanner: o.staticScanner }),
      ...(o.moderation === undefined ? {} : { moderation: o.moderation }),
      logger: this.#logger,
      onChange: () => catalog.invalidate(),
    });
    const mounts: UserSkillsMount[] = sources.map((s) => ({ category: s.category, hostPath: s.dir }));
    return Object.freeze({ userId, catalog, store, mounts });
  }
}
