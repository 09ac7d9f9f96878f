import { DEFAULT_SKILLS_CONTAINER_PATH, SKILL_FILE_NAME } from "../limits.js";
import type { SkillFrontmatter } from "./frontmatter.js";

/**
 * Where a skill comes from: shipped read-only (`public`), owned and editable by
 * its user (`custom`), or the deployment's shared custom folder shown read-only
 * to a user who has no custom skills of their own (`legacy`, DeerFlow's name).
 */
export type SkillCategory = "public" | "custom" | "legacy";

/** A loaded skill: its frontmatter plus where it lives and whether it is enabled. */
export interface Skill extends SkillFrontmatter {
  /** Absolute host path of the directory holding SKILL.md. */
  readonly skillDir: string;
  /** Absolute host path of SKILL.md. */
  readonly skillFile: string;
  /** Directory relative to its category root, POSIX separators (`.` for the root itself). */
  readonly relativePath: string;
  readonly category: SkillCategory;
  readonly enabled: boolean;
}

function trimTrailingSlash(p: string): string {
  return p.length > 1 ? p.replace(/\/+$/, "") : p;
}

/**
 * Container path of a skill's directory: `{base}/{category}/{relativePath}`.
 * Built from the directory, not the name, so a skill named `vercel-deploy`
 * stored in `vercel-deploy-claimable/` is found where it really is.
 */
export function skillContainerPath(
  skill: Pick<Skill, "category" | "relativePath">,
  base: string = DEFAULT_SKILLS_CONTAINER_PATH,
): string {
  const root = `${trimTrailingSlash(base)}/${skill.category}`;
  return skill.relativePath === "." || skill.relativePath === "" ? root : `${root}/${skill.relativePath}`;
}

/** Container path of a skill's SKILL.md. */
export function skillContainerFilePath(
  skill: Pick<Skill, "category" | "relativePath">,
  base: string = DEFAULT_SKILLS_CONTAINER_PATH,
): string {
  return `${skillContainerPath(skill, base)}/${SKILL_FILE_NAME}`;
}
