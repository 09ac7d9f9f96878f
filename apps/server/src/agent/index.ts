/** The lead agent: prompt, tools and middleware chain, and its wiring from configuration. */
export {
  createLeadAgentFactory,
  DEFAULT_RECURSION_LIMIT,
  type ChatModelSource,
  type LeadAgent,
  type LeadAgentContext,
  type LeadAgentDeps,
  type LeadAgentFactory,
  type LeadAgentSkills,
  type LeadAgentSubagents,
} from "./lead-agent-factory.js";
export { createLeadAgentDeps, type CreateLeadAgentDepsOptions, type LeadAgentResources } from "./create-deps.js";
export { buildLeadSystemPrompt, type LeadPromptOptions } from "./prompt/lead-prompt.js";
export { LeadAgentState, mergeArtifacts, type SandboxStateValue } from "./thread-state.js";
export { readRunOptions, type RunOptions } from "./run-options.js";
export { ThreadSandbox } from "./thread-sandbox.js";
export { createDisabledSkillGuard, disabledSkillMessage } from "./skill-path-guard.js";
export { combineScanners, isSkillScanner } from "./composite-scanner.js";
export { createToolErrorMiddleware, toolErrorText, MAX_TOOL_ERROR_DETAIL, type ToolErrorMiddlewareOptions } from "./middleware/tool-errors.js";
export { createDanglingToolCallMiddleware, patchDanglingToolCalls, INTERRUPTED_TOOL_CALL_TEXT } from "./middleware/dangling-tool-calls.js";
export { createLoopDetectionMiddleware, findToolLoop, loopStoppedText, DEFAULT_LOOP_THRESHOLD, type LoopDetectionOptions } from "./middleware/loop-detection.js";
export { createClarificationMiddleware, clarificationAnswer, clarificationRequest, type ClarificationRequest } from "./middleware/clarification.js";
export { createSandboxMiddleware } from "./middleware/sandbox.js";
export { createArtifactsMiddleware } from "./middleware/artifacts.js";
export { createAskClarificationTool, ASK_CLARIFICATION_TOOL_NAME, CLARIFICATION_TYPES, type AskClarificationArgs, type ClarificationType } from "./tools/ask-clarification.js";
export { createPresentFilesTool, checkOutputPath, PRESENT_FILES_TOOL_NAME, OUTPUTS_DIR } from "./tools/present-files.js";
