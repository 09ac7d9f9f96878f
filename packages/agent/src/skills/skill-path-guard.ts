/**
 * Keeps the sandbox read tools away from the files of disabled skills
 * (DeerFlow's disabled-skill blocking), and of skills outside a custom
 * agent's `skills` whitelist in that agent's runs, as a `PathBlockedHook`
 * over the skills catalog.
 */
import type { PathBlockedHook } from "@deerflow/sandbox";
import type { ToolRunnableConfig } from "@langchain/core/tools";
import { skillContainerPath, type Skill } from "@deerflow/skills";
import { readRunOptions } from "../run/run-options.js";

/** DeerFlow's refusal text for a disabled skill's files. */
export function disabledSkillMessage(name: string): string {
  return `Skill '${name}' is disabled. Access to its files is blocked. Enable the skill in settings before using it.`;
}

/** The refusal text for a skill outside the run's custom-agent whitelist. */
export function skillNotAvailableMessage(name: string): string {
  return `Skill '${name}' is not available to this agent. Access to its files is blocked.`;
}

/**
 * Creates the hook.
 *
 * @param listSkills - every skill with its enabled state (e.g. `() => catalog.list()`); given the tool
 *   call's config, so per-user skills can list the calling user's
 * @param containerBase - where the skills tree is mounted (`/mnt/skills`)
 * @returns a hook refusing paths inside a disabled skill's folder
 */
export function createDisabledSkillGuard(
  listSkills: (config?: ToolRunnableConfig) => Promise<readonly Skill[]>,
  containerBase: string,
): PathBlockedHook {
  const base = containerBase.replace(/\/+$/, "");
  return async (virtualPath, config) => {
    if (virtualPath !== base && !virtualPath.startsWith(`${base}/`)) return null;
    const allowed = readRunOptions(config as Parameters<typeof readRunOptions>[0]).customAgent?.skills;
    for (const skill of await listSkills(config)) {
      if (skill.enabled && (allowed === undefined || allowed.includes(skill.name))) continue;
      const dir = skillContainerPath(skill, base);
      if (virtualPath === dir || virtualPath.startsWith(`${dir}/`))
        return skill.enabled ? skillNotAvailableMessage(skill.name) : disabledSkillMessage(skill.name);
    }
    return null;
  };
}
