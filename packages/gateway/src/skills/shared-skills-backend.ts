/**
 * A {@link SkillsBackend} over one skills root shared by every user.
 */
import path from "node:path";
import {
  CustomSkillStore,
  installSkillArchive,
  type Logger,
  type ModerationScanner,
  type SkillCatalog,
  type SkillScanner,
} from "@deerflow/skills";
import type { SkillsBackend, UserSkills } from "./skills-backend.js";

/** Options of {@link createSharedSkillsBackend}. */
export interface SharedSkillsBackendOptions {
  /** The catalog, ideally the same instance the agent's prompt reads (it is invalidated after every change). */
  readonly catalog: SkillCatalog;
  /**
   * The custom-skill store. Default: a store over `<catalog.root>/custom` with built-ins in
   * `<catalog.root>/public`, using the scanners below.
   */
  readonly store?: CustomSkillStore;
  /** Static scanner for installs and edits (default: the built-in SkillScan). */
  readonly staticScanner?: SkillScanner;
  /** Moderation for installs and edits (default: none). */
  readonly moderation?: ModerationScanner;
  /** `false` turns the static scans of installs off (DeerFlow's `skill_scan.enabled: false`). Default true. */
  readonly scan?: boolean;
  /** Where install temp dirs are created. Default `os.tmpdir()`. */
  readonly tempDir?: string;
  readonly logger?: Logger;
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
  const user: UserSkills = {
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
  return {
    forUser: async () => user,
    reload: async () => {
      await catalog.reload();
    },
  };
}
