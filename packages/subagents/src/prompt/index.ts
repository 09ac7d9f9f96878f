/** The lead's `<subagent_system>` prompt section. */
export { escapePromptText, renderSubagentSection, type SubagentSectionOptions } from "./subagent-section.js";
