import { tool, type ToolRunnableConfig } from "@langchain/core/tools";
import type { JSONSchema } from "@langchain/core/utils/json_schema";
import type { SkillSource } from "../catalog/skill-source.js";
import { DEFAULT_SKILLS_CONTAINER_PATH } from "../limits.js";
import { skillContainerFilePath, type Skill } from "../model/skill.js";
import { escapeXml, mutabilityLabel } from "./escape.js";
import { searchSkills } from "./search-skills.js";

/** Name of the deferred-discovery tool. */
export const DESCRIBE_SKILL_TOOL_NAME = "describe_skill";

/**
 * Where the tool gets its skills: a fixed list, a function (given the call's config, so a host can
 * narrow the skills per run), or a {@link SkillSource}.
 */
export type DescribeSkillInput =
  | readonly Skill[]
  | SkillSource
  | ((config?: ToolRunnableConfig) => readonly Skill[] | Promise<readonly Skill[]>);

/** Options of {@link createDescribeSkillTool} and {@link describeSkills}. */
export interface DescribeSkillOptions {
  /** Container mount point used in locations (default `/mnt/skills`). */
  readonly containerBase?: string;
}

/**
 * Answers one `describe_skill` query as text: a block per match with
 * `## Skill: <name>`, `- Description: <desc> <label>`, `- Allowed tools:
 * <list or "(all)">` and `- Location: <container SKILL.md>`, separated by
 * blank lines and XML-escaped; `No skills matched: <query>` otherwise.
 * Disabled skills are never described.
 *
 * @param skills - Candidate skills.
 * @param query - See {@link searchSkills} for the query forms.
 * @param options - The container base.
 * @returns The tool output.
 */
export function describeSkills(skills: readonly Skill[], query: string, options: DescribeSkillOptions = {}): string {
  const base = options.containerBase ?? DEFAULT_SKILLS_CONTAINER_PATH;
  const matches = searchSkills(
    skills.filter((s) => s.enabled),
    query,
  );
  if (matches.length === 0) return `No skills matched: ${escapeXml(query)}`;
  return matches
    .map((s) => {
      const tools = s.allowedTools && s.allowedTools.length > 0 ? s.allowedTools.join(", ") : "(all)";
      // DeerFlow's describe_skill labels legacy skills built-in; only the prompt says legacy.
      return [
        `## Skill: ${escapeXml(s.name)}`,
        `- Description: ${escapeXml(s.description)} ${mutabilityLabel(s.category === "legacy" ? "public" : s.category)}`,
        `- Allowed tools: ${escapeXml(tools)}`,
        `- Location: ${escapeXml(skillContainerFilePath(s, base))}`,
      ].join("\n");
    })
    .join("\n\n");
}

/** The arguments of `describe_skill`. */
export interface DescribeSkillArgs {
  readonly name: string;
}

/** The LangChain tool returned by {@link createDescribeSkillTool}. */
export type DescribeSkillTool = ReturnType<typeof buildTool>;

/** JSON Schema of the tool input: one string, `name`. */
export const DESCRIBE_SKILL_SCHEMA: JSONSchema = {
  type: "object",
  properties: {
    name: { type: "string", description: "A skill name, select:a,b for exact names, a regex, or +required rest" },
  },
  required: ["name"],
  additionalProperties: false,
};

const DESCRIPTION = `Fetch the details of installed skills so you can decide whether to load one.
Skills are listed by name only in <skill_index> in the system prompt. This tool returns each matching skill's description, allowed tools and SKILL.md location; call read_file on that location to load the skill.
Query forms for \`name\`:
- "select:data-analysis,deep-research": exactly these skills (no limit)
- "chart|graph": case-insensitive regex over names and descriptions, best 5 matches
- "+podcast generate": names must contain "podcast", ranked by the rest (best 5)`;

/**
 * Creates the LangChain `describe_skill` tool used in deferred mode. It takes
 * one string parameter, `name`, and returns {@link describeSkills}' text.
 * Skills are fetched on every call when a function or source is given, so the
 * tool follows enable/disable changes; pass the same allowlisted set that the
 * prompt's `<skill_index>` shows.
 *
 * @param skills - The skills, or where to get them.
 * @param options - The container base.
 * @returns A structured tool (JSON Schema input, no zod).
 * @example
 * ```ts
 * const describeSkill = createDescribeSkillTool(() => catalog.enabledSkills(), { containerBase: "/mnt/skills" });
 * const agent = createAgent({ model, tools: [describeSkill, readFile] });
 * ```
 */
export function createDescribeSkillTool(
  skills: DescribeSkillInput,
  options: DescribeSkillOptions = {},
): DescribeSkillTool {
  const load = async (config?: ToolRunnableConfig): Promise<readonly Skill[]> => {
    if (typeof skills === "function") return skills(config);
    if (isSource(skills)) return skills.list();
    return skills;
  };
  return buildTool(async (query, config) => describeSkills(await load(config), query, options));
}

function buildTool(answer: (query: string, config?: ToolRunnableConfig) => Promise<string>) {
  // Explicit type arguments select tool()'s JSON Schema overload.
  return tool<JSONSchema, typeof DESCRIBE_SKILL_TOOL_NAME, DescribeSkillArgs, DescribeSkillArgs, string>(
    async (input: unknown, config?: ToolRunnableConfig) =>
      answer(String((input as Partial<DescribeSkillArgs> | undefined)?.name ?? ""), config),
    { name: DESCRIBE_SKILL_TOOL_NAME, description: DESCRIPTION, schema: DESCRIBE_SKILL_SCHEMA },
  );
}

function isSource(value: DescribeSkillInput): value is SkillSource {
  return !Array.isArray(value) && typeof (value as SkillSource).list === "function";
}
