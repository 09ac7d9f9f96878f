/**
 * What the skills routes need from `@deerflow/skills`, per calling user.
 *
 * Two implementations: `createPerUserSkillsBackend` (DeerFlow's model: each
 * user's own custom skills and enabled state, from a `UserSkillsStorage`) and
 * `createSharedSkillsBackend` (one skills root shared by every user).
 */
import type { CustomSkillStore, Skill } from "@deerflow/skills";

/** The catalog operations the routes use (a `SkillCatalog` satisfies it). */
export interface SkillCatalogView {
  /** Every skill (enabled or not) after shadowing, sorted by name. */
  list(): Promise<readonly Skill[]>;
  /** The effective skill called `name`. */
  get(name: string): Promise<Skill | undefined>;
  /** Enables or disables a skill; throws `SKILL_NOT_FOUND` for an unknown name. */
  setEnabled(name: string, enabled: boolean): Promise<Skill>;
  /** Marks cached state stale after a change. */
  invalidate(): void;
}

/** The custom-skill operations the routes use (a `CustomSkillStore` satisfies it). */
export type CustomSkillEditor = Pick<CustomSkillStore, "read" | "update" | "delete" | "history" | "rollback">;

/** One user's skills. */
export interface UserSkills {
  readonly catalog: SkillCatalogView;
  readonly store: CustomSkillEditor;
  /**
   * Installs a `.skill` archive as a custom skill (static scans and moderation
   * as configured), then invalidates the catalog.
   *
   * @param file - a private local copy of the archive, named `<something>.skill`.
   * @param signal - aborts scanning.
   * @returns the installed skill's name.
   * @throws SkillsError as `installSkillArchive` does.
   */
  install(file: string, signal?: AbortSignal): Promise<{ readonly name: string }>;
}

/** Source of {@link UserSkills} for the skills routes. */
export interface SkillsBackend {
  /** @param userId - the caller's user id. @returns that user's skills. */
  forUser(userId: string): Promise<UserSkills>;
  /**
   * Drops every cache and rescans (`POST /api/skills/reload`).
   *
   * @throws anything when the rescan fails (the route answers a generic 500).
   */
  reload(): Promise<void>;
}
