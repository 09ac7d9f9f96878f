import type { Skill } from "../model/skill.js";

/**
 * Anything that can list skills: the filesystem {@link SkillCatalog}, or a
 * server's own source (a database, a per-user view, a remote registry). Prompt
 * rendering and the `describe_skill` tool only need this.
 *
 * @example
 * ```ts
 * const fixed: SkillSource = { list: async () => mySkills };
 * ```
 */
export interface SkillSource {
  /**
   * Every known skill with its enabled state applied, sorted by name.
   * The returned array must not be mutated by callers.
   */
  list(): Promise<readonly Skill[]>;
}
