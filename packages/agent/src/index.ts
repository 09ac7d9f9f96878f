/**
 * `@deerflow/agent`: DeerFlow's lead agent for LangGraph JS, compiled once from
 * injected parts; every middleware of its chain is exported on its own so a
 * third party can assemble their own chain.
 *
 * @packageDocumentation
 */
export { createLeadAgent, DEFAULT_RECURSION_LIMIT, type LeadAgent } from "./create-lead-agent.js";
export type {
  LeadAgentOptions,
  LeadAgentSkills,
  LeadAgentUserSkills,
  LeadAgentSubagents,
  LeadMiddlewareOptions,
  LeadPromptSettings,
} from "./options.js";
export { silentLogger, type Logger } from "./logger.js";
export { AgentError, isDeerflowError, type AgentErrorCode } from "./errors.js";

// Models and per-run options
export { staticModels, type ModelResolver } from "./models/model-resolver.js";
export { RunModels, type RunModel } from "./models/run-models.js";
export {
  resolveRunThinking,
  type ModelThinkingProfile,
  type RunThinking,
  type RunThinkingRequest,
} from "./models/thinking.js";
export {
  VIEWED_IMAGES_HEADING,
  VIEW_IMAGE_CONTEXT_ID_PREFIX,
  createViewImageMiddleware,
  type ViewImageMiddlewareOptions,
} from "./middleware/view-image/view-image-middleware.js";
export {
  MAX_IMAGE_BYTES,
  VIEW_IMAGE_TEXTS,
  VIEW_IMAGE_TOOL_NAME,
  createViewImageTool,
  readCheckedImage,
  sniffImageMime,
  type ImageCheck,
} from "./middleware/view-image/view-image-tool.js";
export {
  readRunOptions,
  CUSTOM_AGENT_CONFIG_KEY,
  type RunConfigLike,
  type RunCustomAgent,
  type RunOptions,
} from "./run/run-options.js";

// Custom agents
export {
  AGENT_NAME_PATTERN,
  MAX_AGENT_OUTPUT_TOKENS,
  MANAGED_AGENT_FIELDS,
  agentConfigOf,
  applyAgentFields,
  checkAgentFields,
  invalidAgentNameText,
  normalizeAgentName,
  parseAgentConfig,
  type AgentConfig,
  type AgentConfigFields,
  type AgentModelSettings,
  type AgentReasoningEffort,
} from "./custom-agents/agent-config.js";
export type { AgentChange, AgentStore } from "./custom-agents/agent-store.js";
export {
  FileAgentStore,
  AGENT_CONFIG_FILE,
  SOUL_FILE,
  USER_PROFILE_FILE,
  type FileAgentStoreOptions,
} from "./custom-agents/file-agent-store.js";
export { StoreAgentStore, type StoreAgentStoreOptions } from "./custom-agents/store-agent-store.js";
export {
  DEFAULT_AGENT_USER_ID,
  DEFAULT_BOOTSTRAP_SKILLS,
  DEFAULT_WEBHOOK_CHANNELS,
  type AgentChangeEvent,
  type LeadCustomAgents,
} from "./custom-agents/custom-agents-options.js";
export { resolveRunCustomAgent, unknownRunAgentText } from "./custom-agents/run-entry.js";
export { escapeElementText, selfUpdateSection, soulSection } from "./custom-agents/custom-agent-prompt.js";
export { createSetupAgentTool, SETUP_AGENT_TEXTS, SETUP_AGENT_TOOL_NAME } from "./custom-agents/setup-agent-tool.js";
export {
  createUpdateAgentTool,
  UPDATE_AGENT_TEXTS,
  UPDATE_AGENT_TOOL_NAME,
} from "./custom-agents/update-agent-tool.js";

// The chain
export { LEAD_CHAIN, buildLeadChain, type LeadChainEntry, type LeadChainParts } from "./chain/lead-chain.js";
export {
  fuseModelCallWrappers,
  MODEL_CALL_LAYER_NAME,
  type FuseModelCallWrappersOptions,
} from "./chain/fuse-model-wrappers.js";
export {
  createToolErrorMiddleware,
  toolErrorText,
  MAX_TOOL_ERROR_DETAIL,
  type ToolErrorMiddlewareOptions,
} from "./middleware/tool-errors.js";
export { createRunModelMiddleware, type RunModelMiddlewareOptions } from "./middleware/run-model.js";
export { createRunPromptMiddleware, type RunPromptMiddlewareOptions } from "./middleware/run-prompt.js";
export {
  createRunToolsMiddleware,
  toolNotOfferedText,
  type RunToolsMiddlewareOptions,
  type ToolFilter,
} from "./middleware/run-tools.js";
export { createSandboxMiddleware, type SandboxMiddlewareOptions } from "./middleware/sandbox.js";
export { createArtifactsMiddleware, type ArtifactsMiddlewareOptions } from "./middleware/artifacts.js";
export {
  createDanglingToolCallMiddleware,
  patchDanglingToolCalls,
  INTERRUPTED_TOOL_CALL_TEXT,
} from "./middleware/dangling-tool-calls.js";
export { createRunSubagentLimitMiddleware, type RunSubagentLimitOptions } from "./middleware/subagent-limit.js";
export {
  createLoopDetectionMiddleware,
  DEFAULT_LOOP_DETECTION,
  type LoopDetectionOptions,
  type ToolFrequencyLimit,
} from "./middleware/loop-detection/loop-detection.js";
export {
  LOOP_WARNING_TEXT,
  LOOP_FORCED_STOP_TEXT,
  toolFrequencyWarningText,
  toolFrequencyForcedStopText,
} from "./middleware/loop-detection/texts.js";
export { toolCallSetHash, stableJson } from "./middleware/loop-detection/tool-call-hash.js";
export {
  createLlmErrorHandlingMiddleware,
  type LlmErrorHandlingOptions,
} from "./middleware/llm-error-handling/llm-error-handling.js";
export {
  classifyError,
  retryAfterOf,
  decorrelatedJitter,
  DEFAULT_RETRY_SETTINGS,
  type ErrorKind,
  type RetrySettings,
} from "./middleware/llm-error-handling/retry-policy.js";
export { CircuitBreaker, type CircuitBreakerSettings } from "./middleware/llm-error-handling/circuit-breaker.js";
export { modelFailedText, circuitOpenText } from "./middleware/llm-error-handling/texts.js";
export {
  createTerminalResponseMiddleware,
  TERMINAL_RESPONSE_FALLBACK_TEXT,
  type TerminalResponseOptions,
} from "./middleware/terminal-response/terminal-response.js";
export {
  createModelLengthFinishReasonMiddleware,
  LENGTH_FINISH_REASONS,
  type ModelLengthFinishReasonOptions,
} from "./middleware/finish-reason/model-length-finish-reason.js";
export {
  createSafetyFinishReasonMiddleware,
  providerSafetyDetector,
  SAFETY_FINISH_REASONS,
  type SafetyDetector,
  type SafetyFinishReasonOptions,
} from "./middleware/finish-reason/safety-finish-reason.js";
export { finishReasonOf } from "./middleware/finish-reason/finish-reason.js";
export { stampStopReason, failRun, type StopReason } from "./internal/run-stop.js";
export {
  createReadBeforeWriteMiddleware,
  type ReadBeforeWriteOptions,
} from "./middleware/read-before-write/read-before-write.js";
export { readBeforeWriteBlockedText, READ_MARK_KEY, WRITE_MARK_KEY } from "./middleware/read-before-write/texts.js";
export {
  createInputSanitizationMiddleware,
  type InputSanitizationOptions,
} from "./middleware/sanitization/input-sanitization.js";
export {
  createToolResultSanitizationMiddleware,
  REMOTE_CONTENT_TOOL_NAMES,
  type ToolResultSanitizationOptions,
} from "./middleware/sanitization/tool-result-sanitization.js";
export {
  neutralizeUntrustedTags,
  frameUntrustedText,
  BLOCKED_TAG_NAMES,
  USER_INPUT_BEGIN,
  USER_INPUT_END,
} from "./middleware/sanitization/neutralize.js";
export {
  createGuardrailMiddleware,
  guardrailDeniedText,
  type GuardrailOptions,
} from "./middleware/guardrails/guardrail.js";
export { AllowlistProvider, type AllowlistProviderOptions } from "./middleware/guardrails/allowlist-provider.js";
export {
  NO_AUTHORIZED_MODEL_TEXT,
  createToolAuthorizationMiddleware,
  type ToolAuthorizationOptions,
} from "./middleware/authorization/tool-authorization.js";
export type { ToolAuthorizationSubject, ToolAuthorizer } from "./middleware/authorization/tool-authorizer.js";
export {
  isGuardrailProvider,
  GUARDRAIL_PROVIDER_SHAPE,
  type GuardrailDecision,
  type GuardrailProvider,
  type GuardrailReason,
  type GuardrailRequest,
} from "./middleware/guardrails/provider.js";
export {
  createHumanApprovalMiddleware,
  type ApprovalDecisionType,
  type ApprovalRequest,
  type HumanApprovalOptions,
} from "./middleware/human-approval/human-approval.js";
export {
  createUploadsMiddleware,
  announcedUploads,
  type UploadsMiddlewareOptions,
} from "./middleware/uploads/uploads-middleware.js";
export {
  currentUploadsBlock,
  formatUploadSize,
  DEFAULT_MAX_ANNOUNCED_FILES,
  UPLOADS_VIRTUAL_DIR,
  type AnnouncedUpload,
} from "./middleware/uploads/uploads-text.js";
export {
  createPlanModeMiddleware,
  PARALLEL_WRITE_TODOS_TEXT,
  PlanModeState,
  WRITE_TODOS_TOOL_NAME,
  type PlanModeMiddlewareOptions,
} from "./middleware/plan-mode/plan-mode-middleware.js";
export {
  createTitleMiddleware,
  shouldTitle,
  TitleState,
  titleStateField,
  type TitleMiddlewareOptions,
} from "./middleware/title/title-middleware.js";
export {
  DEFAULT_TITLE_PROMPT_TEMPLATE,
  NEW_CONVERSATION_TITLE,
  fallbackTitle,
  parseTitle,
  titlePrompt,
} from "./middleware/title/title-text.js";
export {
  createToolOutputBudgetMiddleware,
  TOOL_RESULTS_DIR,
  TOOL_OUTPUT_SAMPLES,
  type ToolOutputBudgetOptions,
} from "./middleware/tool-output-budget/tool-output-budget.js";
export { externalizedOutputText, truncatedOutputText } from "./middleware/tool-output-budget/texts.js";
export {
  createSummarizationMiddleware,
  durableContextMessage,
  SummarizationState,
  type ContextSize,
  type SummarizationOptions,
} from "./middleware/summarization/summarization.js";
export { DURABLE_CONTEXT_CONTRACT, MAX_SUMMARY_CHARS, durableContextText } from "./middleware/summarization/texts.js";
export {
  createTokenUsageMiddleware,
  addTokenUsage,
  TokenUsageState,
  type RunTokenUsage,
  type TokenUsage,
  type TokenUsageMiddlewareOptions,
} from "./middleware/token-usage/token-usage.js";
export {
  createTokenBudgetMiddleware,
  TOKEN_CAPPED,
  TokenBudgetState,
  type TokenBudgetOptions,
} from "./middleware/token-budget/token-budget.js";
export {
  tokenBudgetExceededText,
  tokenBudgetWarningText,
  type TokenBudgetReason,
} from "./middleware/token-budget/texts.js";
export { usageOf, type TokenCounts } from "./internal/token-usage.js";
export {
  createClarificationMiddleware,
  clarificationAnswer,
  clarificationRequest,
  type ClarificationRequest,
} from "./middleware/clarification.js";

// Prompt, state, sandbox sessions, skills, tools
export { buildLeadSystemPrompt, type LeadPromptOptions } from "./prompt/lead-prompt.js";
export { createRunPromptBuilder, type RunPromptBuilder, type RunPromptParts } from "./prompt/run-prompt.js";
export { LeadAgentState, mergeArtifacts, type SandboxStateValue } from "./state/thread-state.js";
export { ThreadSandbox, type ThreadSandboxOptions } from "./sandbox/thread-sandbox.js";
export { ThreadSandboxes } from "./sandbox/thread-sandboxes.js";
export { releaseSandboxesAfterRuns } from "./sandbox/release-after-runs.js";
export { createDisabledSkillGuard, disabledSkillMessage, skillNotAvailableMessage } from "./skills/skill-path-guard.js";
export { SkillPromptView, DEFAULT_SKILLS_CONTAINER_BASE } from "./skills/skill-prompt-view.js";
export { createRunTaskTool, type RunTaskToolOptions } from "./subagents/run-task-tool.js";
export { SUBAGENT_CHAIN, SUBAGENT_ENTRY_NAMES, selectChainEntries } from "./subagents/subagent-chain.js";
export {
  createAskClarificationTool,
  ASK_CLARIFICATION_TOOL_NAME,
  CLARIFICATION_TYPES,
  type AskClarificationArgs,
  type ClarificationType,
} from "./tools/ask-clarification.js";
export {
  createPresentFilesTool,
  checkOutputPath,
  PRESENT_FILES_TOOL_NAME,
  OUTPUTS_DIR,
} from "./tools/present-files.js";
