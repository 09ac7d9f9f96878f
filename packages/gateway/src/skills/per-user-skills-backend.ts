/**
 * A {@link SkillsBackend} with DeerFlow's per-user custom skills: each user's
 * own catalog and store from a `UserSkillsStorage` of `@deerflow/skills`.
 */
import {
  installSkillArchive,
  type Logger,
  type ModerationScanner,
  type SkillScanner,
  type UserSkillsStorage,
} from "@deerflow/skills";
import type { SkillsBackend, UserSkills } from "./skills-backend.js";

/** Options of {@link createPerUserSkillsBackend}. */
export interface PerUserSkillsBackendOptions {
  /** The users' skills, ideally the same instance the agent reads (its caches are invalidated after every change). */
  readonly storage: UserSkillsStorage;
  /** Static scanner for installs (default: the built-in SkillScan); edits use the storage's. */
  readonly staticScanner?: SkillScanner;
  /** Moderation for installs (default: none); edits use the storage's. */
  readonly moderation?: ModerationScanner;
  /** `false` turns the static scans of installs off (DeerFlow's `skill_scan.enabled: false`). Default true. */
  readonly scan?: boolean;
  /** Where install temp dirs are created. Default `os.tmpdir()`. */
  readonly tempDir?: string;
  readonly logger?: Logger;
}

/**
 * Every route works on the caller's own skills (DeerFlow's model):
 *
 * - listings show public skills plus the caller's custom ones (or the shared
 *   `legacy` ones while the caller has none); another user's custom skill is
 *   404 everywhere;
 * - installs and edits land in the caller's custom folder, with history;
 * - `PUT /api/skills/{name}` of a public skill writes `extensions_config.json`
 *   for everyone, of any other skill the caller's `_skill_states.json` only;
 * - `POST /api/skills/reload` forgets every user (rebuilt from disk on next use).
 *
 * Which routes are admin-only is the routes' business (DeerFlow: every change).
 *
 * @param options - the storage and the install scanners.
 * @returns the backend for `skillsRoutes` / `createGateway({ skills })`.
 * @example
 * ```ts
 * const storage = new UserSkillsStorage({ root: "skills", dataDir: ".deer-flow", extensionsConfigPath: "extensions_config.json" });
 * const skills = createPerUserSkillsBackend({ storage });
 * ```
 */
export function createPerUserSkillsBackend(options: PerUserSkillsBackendOptions): SkillsBackend {
  const { storage, logger } = options;
  const userSkills = (userId: string): UserSkills => {
    const { catalog, store } = storage.forUser(userId);
    return {
      catalog,
      store,
      async install(file, signal) {
        try {
          const result = await installSkillArchive(file, {
            customRoot: store.customRoot,
            ...(options.staticScanner === undefined ? {} : { staticScanner: options.staticScanner }),
            ...(options.moderation === undefined ? {} : { moderation: options.moderation }),
            ...(options.scan === undefined ? {} : { scan: options.scan }),
            ...(options.tempDir === undefined ? {} : { tempDir: options.tempDir }),
            ...(logger === undefined ? {} : { logger }),
            ...(signal === undefined ? {} : { signal }),
          });
          return { name: result.name };
        } finally {
          catalog.invalidate();
        }
      },
    };
  };
  return {
    forUser: async (userId) => userSkills(userId),
    reload: async () => {
      storage.clear();
    },
  };
}
