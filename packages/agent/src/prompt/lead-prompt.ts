/**
 * Assembles the lead agent's system prompt from the fixed sections, the skills
 * section (`renderSkillSection` of `@deerflow/skills`) and the subagent section
 * (`renderSubagentSection` of `@deerflow/subagents`).
 */
import {
  CLARIFICATION_SECTION,
  RESPONSE_STYLE_SECTION,
  criticalRemindersSection,
  roleSection,
  thinkingStyleSection,
  workingDirectorySection,
} from "./sections.js";

/** Inputs of {@link buildLeadSystemPrompt}. */
export interface LeadPromptOptions {
  /** Agent name in `<role>`. */
  readonly agentName: string;
  /** Rendered `<skill_system>` section, or `""`/`undefined` without skills. */
  readonly skillsSection?: string;
  /** Container path of the skills tree, when mounted. */
  readonly skillsPath?: string;
  /** Rendered `<subagent_system>` section, or `undefined` when subagents are off. */
  readonly subagentSection?: string;
  /** Extra text appended at the end (operator instructions). */
  readonly extra?: string;
  /** The `<soul>` block (`soulSection`), after the role. */
  readonly soul?: string;
  /** A custom agent's `<self_update>` block (`selfUpdateSection`), after the soul. */
  readonly selfUpdate?: string;
}

/**
 * Builds the lead agent's system prompt.
 *
 * @param options - name and dynamic sections
 * @returns the prompt: role, thinking style, clarification system, skills, subagents,
 *   working directory, response style, critical reminders (blank line between sections)
 * @example
 * ```ts
 * const prompt = buildLeadSystemPrompt({ agentName: "DeerFlow", skillsSection: renderSkillSection(skills).text, skillsPath: "/mnt/skills" });
 * ```
 */
export function buildLeadSystemPrompt(options: LeadPromptOptions): string {
  const skills = options.skillsSection !== undefined && options.skillsSection !== "";
  const subagents = options.subagentSection !== undefined && options.subagentSection !== "";
  const sections = [
    roleSection(options.agentName),
    ...(options.soul !== undefined && options.soul !== "" ? [options.soul] : []),
    ...(options.selfUpdate !== undefined && options.selfUpdate !== "" ? [options.selfUpdate] : []),
    thinkingStyleSection(subagents),
    CLARIFICATION_SECTION,
    ...(skills ? [options.skillsSection as string] : []),
    ...(subagents ? [options.subagentSection as string] : []),
    workingDirectorySection(options.skillsPath),
    RESPONSE_STYLE_SECTION,
    criticalRemindersSection({ skills, subagents }),
    ...(options.extra !== undefined && options.extra.trim() !== "" ? [options.extra.trim()] : []),
  ];
  return sections.join("\n\n");
}
