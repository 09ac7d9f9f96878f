export {
  AUTO_MODE_DEFAULTS,
  renderSkillSection,
  type RenderedSkillSection,
  type RenderSkillSectionOptions,
  type SkillPromptMode,
} from "./render.js";
export { approximateTokenCount } from "./tokens.js";
export { escapeXml, mutabilityLabel } from "./escape.js";
export { DESCRIBE_SKILL_MAX_RESULTS, searchSkills } from "./search-skills.js";
export {
  createDescribeSkillTool,
  DESCRIBE_SKILL_SCHEMA,
  DESCRIBE_SKILL_TOOL_NAME,
  describeSkills,
  type DescribeSkillArgs,
  type DescribeSkillInput,
  type DescribeSkillOptions,
  type DescribeSkillTool,
} from "./describe-skill.js";
