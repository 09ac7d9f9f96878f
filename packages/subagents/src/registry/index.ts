export { SubagentRegistry, type SubagentRegistryOptions } from "./registry.js";
export {
  BASH_SUBAGENT,
  BASH_SUBAGENT_TOOLS,
  BUILTIN_DISALLOWED_TOOLS,
  BUILTIN_SUBAGENTS,
  BUILTIN_TIMEOUT_MS,
  GENERAL_PURPOSE_SUBAGENT,
} from "./builtins.js";
export {
  SUBAGENT_NAME_PATTERN,
  validateCustomSubagent,
  validateOverride,
  type CustomSubagentInput,
  type SubagentOverride,
  type SubagentsConfig,
} from "./config.js";
