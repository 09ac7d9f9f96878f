/**
 * One user's skills over a catalog and a custom-skill store: what both skills
 * backends hand the routes, with installs landing in the store's custom root.
 */
import {
  installSkillArchive,
  type CustomSkillStore,
  type Logger,
  type ModerationScanner,
  type SkillCatalog,
  type SkillScanner,
} from "@deerflow/skills";
import type { UserSkills } from "./skills-backend.js";

/** The install settings both backends take. */
export interface SkillInstallSettings {
  /** Static scanner for installs (default: the built-in SkillScan). */
  readonly staticScanner?: SkillScanner;
  /** Moderation for installs (default: none). */
  readonly moderation?: ModerationScanner;
  /** `false` turns the static scans of installs off (DeerFlow's `skill_scan.enabled: false`). Default true. */
  readonly scan?: boolean;
  /** Where install temp dirs are created. Default `os.tmpdir()`. */
  readonly tempDir?: string;
  readonly logger?: Logger;
}

/**
 * @param catalog - the user's catalog, invalidated after every install (also a failed one, which may leave files).
 * @param store - the user's custom-skill store; installs land in its `customRoot`.
 * @param settings - scanners, temp dir and logger of installs.
 * @returns the routes' view of that user's skills.
 */
export function userSkillsOver(
  catalog: SkillCatalog,
  store: CustomSkillStore,
  settings: SkillInstallSettings,
): UserSkills {
  const { staticScanner, moderation, scan, tempDir, logger } = settings;
  return {
    catalog,
    store,
    async install(file, signal) {
      try {
        const result = await installSkillArchive(file, {
          customRoot: store.customRoot,
          ...(staticScanner === undefined ? {} : { staticScanner }),
          ...(moderation === undefined ? {} : { moderation }),
          ...(scan === undefined ? {} : { scan }),
          ...(tempDir === undefined ? {} : { tempDir }),
          ...(logger === undefined ? {} : { logger }),
          ...(signal === undefined ? {} : { signal }),
        });
        return { name: result.name };
      } finally {
        catalog.invalidate();
      }
    },
  };
}
