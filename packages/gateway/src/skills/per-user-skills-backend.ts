/**
 * A {@link SkillsBackend} with DeerFlow's per-user custom skills: each user's
 * own catalog and store from a `UserSkillsStorage` of `@deerflow/skills`.
 */
import type { UserSkillsStorage } from "@deerflow/skills";
import type { SkillsBackend } from "./skills-backend.js";
import { userSkillsOver, type SkillInstallSettings } from "./user-skills-over.js";

/** Options of {@link createPerUserSkillsBackend}: the storage and the install settings (edits use the storage's scanners). */
export interface PerUserSkillsBackendOptions extends SkillInstallSettings {
  /** The users' skills, ideally the same instance the agent reads (its caches are invalidated after every change). */
  readonly storage: UserSkillsStorage;
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
  const { storage } = options;
  return {
    forUser: async (userId) => {
      const { catalog, store } = storage.forUser(userId);
      return userSkillsOver(catalog, store, options);
    },
    reload: async () => {
      storage.clear();
    },
  };
}
