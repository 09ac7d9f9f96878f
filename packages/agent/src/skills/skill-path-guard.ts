/**
 * Keeps the sandbox read tools away from the files of disabled skills
 * (DeerFlow's disabled-skill blocking), as a `PathBlockedHook` over the skills
 * catalog.
 */
import type { PathBlockedHook } from "@deerflow/sandbox";
import { skillContainerPath, type Skill } from "@deerflow/skills";

/** DeerFlow's refusal text for a disabled skill's files. */
export function disabledSkillMessage(name: string): string {
  return `Skill '${name}' is disabled. Access to its files is blocked. Enable the skill in settings before using it.`;
}

/**
 * Creates the hook.
 *
 * @param listSkills - every skill with its enabled state (e.g. `() => catalog.list()`)
 * @param containerBase - where the skills tree is mounted (`/mnt/skills`)
 * @returns a hook refusing paths inside a disabled skill's folder
 */
export function createDisabledSkillGuard(
  listSkills: () => Promise<readonly Skill[]>,
  containerBase: string,
): PathBlockedHook {
  const base = containerBase.replace(/\/+$/, "");
  return async (virtualPath) => {
    if (virtualPath !== base && !virtualPath.startsWith(`${base}/`)) return null;
    for (const skill of await listSkills()) {
      if (skill.enabled) continue;
      const dir = skillContainerPath(skill, base);
      if (virtualPath === dir || virtualPath.startsWith(`${dir}/`)) return disabledSkillMessage(skill.name);
    }
    return null;
  };
}
