/**
 * A {@link SkillsBackend} over one skills root shared by every user.
 */
import path from "node:path";
import { CustomSkillStore, type SkillCatalog } from "@deerflow/skills";
import type { SkillsBackend } from "./skills-backend.js";
import { userSkillsOver, type SkillInstallSettings } from "./user-skills-over.js";

/** Options of {@link createSharedSkillsBackend}; the install settings also apply to edits through the default store. */
export interface SharedSkillsBackendOptions extends SkillInstallSettings {
  /** The catalog, ideally the same instance the agent's prompt reads (it is invalidated after every change). */
  readonly catalog: SkillCatalog;
  /**
   * The custom-skill store. Default: a store over `<catalog.root>/custom` with built-ins in
   * `<catalog.root>/public`, using the install settings' scanner, moderation and logger.
   */
  readonly store?: CustomSkillStore;
}

/**
 * Every user sees and edits the same skills root: custom skills, history and
 * enabled state are shared (the layout `@deerflow/skills` manages). Installs
 * land in the store's custom root.
 *
 * @param options - the catalog, an optional store and the scanners.
 * @returns the backend for `skillsRoutes` / `createGateway({ skills })`.
 * @example
 * ```ts
 * const catalog = new SkillCatalog({ root: "skills", extensionsConfigPath: "extensions_config.json" });
 * const skills = createSharedSkillsBackend({ catalog });
 * ```
 */
export function createSharedSkillsBackend(options: SharedSkillsBackendOptions): SkillsBackend {
  const { catalog, logger } = options;
  const store =
    options.store ??
    new CustomSkillStore({
      customRoot: path.join(catalog.root, "custom"),
      publicRoot: path.join(catalog.root, "public"),
      ...(options.staticScanner === undefined ? {} : { staticScanner: options.staticScanner }),
      ...(options.moderation === undefined ? {} : { moderation: options.moderation }),
      ...(logger === undefined ? {} : { logger }),
      onChange: () => catalog.invalidate(),
    });
  const user = userSkillsOver(catalog, store, options);
  return {
    forUser: async () => user,
    reload: async () => {
      await catalog.reload();
    },
  };
}
