/**
 * What `createLeadAgent` is compiled from: injected parts (models, sandbox,
 * skills, subagents, tools, persistence, logger) and one options object per
 * configurable middleware. Nothing here is per run: runs choose through their
 * config (see `readRunOptions`).
 */
import type { SandboxProvider, SandboxToolsOptions } from "@deerflow/sandbox";
import type { CustomSkillStore, SkillPromptMode, SkillSource } from "@deerflow/skills";
import type { SubagentRegistry } from "@deerflow/subagents";
import type { DynamicTool, StructuredToolInterface } from "@langchain/core/tools";
import type { BaseCheckpointSaver, BaseStore } from "@langchain/langgraph";
import type { AgentMiddleware } from "langchain";
import type { LeadCustomAgents } from "./custom-agents/custom-agents-options.js";
import type { Logger } from "./logger.js";
import type { LoopDetectionOptions } from "./middleware/loop-detection/loop-detection.js";
import type { LlmErrorHandlingOptions } from "./middleware/llm-error-handling/llm-error-handling.js";
import type { SafetyFinishReasonOptions } from "./middleware/finish-reason/safety-finish-reason.js";
import type { SummarizationOptions } from "./middleware/summarization/summarization.js";
import type { TokenBudgetOptions } from "./middleware/token-budget/token-budget.js";
import type { ToolOutputBudgetOptions } from "./middleware/tool-output-budget/tool-output-budget.js";
import type { GuardrailOptions } from "./middleware/guardrails/guardrail.js";
import type { ToolAuthorizationOptions } from "./middleware/authorization/tool-authorization.js";
import type { InputSanitizationOptions } from "./middleware/sanitization/input-sanitization.js";
import type { PlanModeMiddlewareOptions } from "./middleware/plan-mode/plan-mode-middleware.js";
import type { TitleMiddlewareOptions } from "./middleware/title/title-middleware.js";
import type { UploadsMiddlewareOptions } from "./middleware/uploads/uploads-middleware.js";
import type { ModelResolver } from "./models/model-resolver.js";
import type { RunOptions } from "./run/run-options.js";

/** Skills wiring of the lead agent. */
export interface LeadAgentSkills {
  /** Skills with their enabled state (a `SkillCatalog`); read again for every model call, so changes apply to the next call. */
  readonly source: SkillSource;
  /** Where the skills tree is mounted in the sandbox. Default `/mnt/skills`. */
  readonly containerBase?: string;
  /** Prompt mode (`auto` switches to names + `describe_skill` for big catalogs). Default `auto`. */
  readonly promptMode?: SkillPromptMode;
  /** Enables `skill_manage` (and the self-evolution prompt section) over this store. */
  readonly skillManage?: CustomSkillStore;
  /**
   * Per-user skills (DeerFlow's model): a run whose `configurable.user_id` is set reads that
   * user's skills — its prompt section, `describe_skill`, the disabled-skill guard of the
   * sandbox tools, and `skill_manage` (registered when `skillManage` is set, writing to the
   * user's store). Runs without a user use `source` and `skillManage`. Called per model and
   * tool call, so it should be cheap (e.g. `UserSkillsStorage.forUser`, an LRU lookup).
   */
  readonly forUser?: (userId: string) => LeadAgentUserSkills;
}

/** One user's skills (see {@link LeadAgentSkills.forUser}). */
export interface LeadAgentUserSkills {
  readonly source: SkillSource;
  readonly skillManage?: CustomSkillStore;
}

/** Subagent wiring of the lead agent. */
export interface LeadAgentSubagents {
  readonly registry: SubagentRegistry;
  /** `task` calls per response (1–4); a run's `max_concurrent_subagents` wins. Default 3. */
  readonly maxConcurrent?: number;
  /** `task` calls per run (1–50). Default 6. */
  readonly maxTotal?: number;
}

/** Prompt options. */
export interface LeadPromptSettings {
  /** Name in the prompt's `<role>`. Default `DeerFlow`. */
  readonly agentName?: string;
  /** Operator text appended to the system prompt. */
  readonly extraInstructions?: string;
}

/**
 * Options of the configurable middlewares, one object each (keyed by the
 * middleware, so a new middleware adds a key without touching the others).
 */
export interface LeadMiddlewareOptions {
  /** `ReadBeforeWriteMiddleware` (needs a sandbox): `enabled` (`read_before_write.enabled`, default true). */
  readonly readBeforeWrite?: { readonly enabled?: boolean };
  /** `InputSanitizationMiddleware` (always on): `frameUserInput` (default false). */
  readonly inputSanitization?: Omit<InputSanitizationOptions, "logger">;
  /**
   * `GuardrailMiddleware` and `HumanApprovalMiddleware` (`guardrails:`): `provider` (none = no
   * guardrail), `failClosed` (`fail_closed`, true), `passport`, and `requireApproval`
   * (`require_approval`: tools that wait for a human decision; default none).
   */
  readonly guardrails?: Omit<Partial<GuardrailOptions>, "logger"> & { readonly requireApproval?: readonly string[] };
  /**
   * `AuthorizationMiddleware` (`authorization:`, lead and subagents): `authorizer` (the role policy; none =
   * no checks), `failClosed` (true), `defaultRole` (`user`: the role of runs without `configurable.user_role`).
   * Each model call is offered only the tools the run's role may use; a call to another is refused.
   */
  readonly authorization?: Omit<ToolAuthorizationOptions, "logger">;
  /**
   * `LoopDetectionMiddleware` (`loop_detection:`): `enabled` (true), `warnThreshold` (3), `hardLimit` (5),
   * `windowSize` (20), `toolFreqWarn` (30), `toolFreqHardLimit` (50), `toolFreqOverrides`.
   */
  readonly loopDetection?: Omit<LoopDetectionOptions, "logger"> & { readonly enabled?: boolean };
  /**
   * `LlmErrorHandlingMiddleware` (`llm_call:`, `circuit_breaker:`): `retryMaxAttempts` (3), `retryBaseDelayMs` (1000),
   * `retryCapDelayMs` (8000), `burstRetryBaseDelayMs` (5000), `fallbackModels` (none), `circuitBreaker`
   * (`failureThreshold` 5, `recoveryTimeoutSec` 60).
   */
  readonly llmErrorHandling?: Omit<LlmErrorHandlingOptions, "logger" | "resolveModel">;
  /** `SafetyFinishReasonMiddleware` (`safety_finish_reason:`): `enabled` (true), `detectors` (the providers' safety stops). */
  readonly safetyFinishReason?: Omit<SafetyFinishReasonOptions, "logger"> & { readonly enabled?: boolean };
  /**
   * `ToolOutputBudgetMiddleware` (`tool_output:`): `enabled` (true), `externalizeMinChars` (12000),
   * `fallbackMaxChars` (30000), `exemptTools` (`read_file`, `read_file_tool`), `toolOverrides`.
   */
  readonly toolOutput?: Omit<ToolOutputBudgetOptions, "getSandbox" | "logger"> & { readonly enabled?: boolean };
  /**
   * `SummarizationMiddleware` (`summarization:`): `enabled` (false), `trigger` (none), `keep` (20 messages),
   * `trimTokensToSummarize` (4000), `summaryPrompt`, and `modelName` (`model_name`; unset = the run's model).
   */
  readonly summarization?: Omit<SummarizationOptions, "model" | "logger"> & {
    readonly enabled?: boolean;
    readonly modelName?: string;
  };
  /** `TokenUsageMiddleware` (`token_usage:`): `enabled` (true). */
  readonly tokenUsage?: { readonly enabled?: boolean };
  /**
   * `TokenBudgetMiddleware` (`token_budget:`): `enabled` (false), `maxTokens` (200000), `maxInputTokens`,
   * `maxOutputTokens` (none), `warnThreshold` (0.8), `hardStopThreshold` (1.0).
   */
  readonly tokenBudget?: Omit<TokenBudgetOptions, "logger"> & { readonly enabled?: boolean };
  /** `UploadsMiddleware`: `maxFiles` (files listed in `<current_uploads>`, ≥ 1; default 10). */
  readonly uploads?: Pick<UploadsMiddlewareOptions, "maxFiles">;
  /** `PlanModeMiddleware` (runs with `is_plan_mode`): `systemPrompt`, `toolDescription` (default LangChain's). */
  readonly planMode?: PlanModeMiddlewareOptions;
  /**
   * `TitleMiddleware` (`title:`): `enabled` (true), `maxWords` (6), `maxChars` (60), `promptTemplate`,
   * and `modelName` (`title.model_name`: a configured model asked for the title; unset = local fallback).
   */
  readonly title?: Omit<TitleMiddlewareOptions, "model" | "logger"> & { readonly modelName?: string };
  /**
   * The MCP tools of each model call: `createMcpToolsMiddleware` of `@deerflow/tools` (it offers the
   * toolset's current tools, or `tool_search` and the deferred list, and runs their calls). Default none.
   */
  readonly mcpTools?: AgentMiddleware;
  /**
   * Long-term memory: `createMemoryMiddleware` of `@deerflow/memory` (DeerFlow rows 14 and 22: injects the
   * user's memory into a conversation's model requests, queues the conversation for extraction). Default none.
   */
  readonly memory?: AgentMiddleware;
}

/** What the lead agent is compiled from. */
export interface LeadAgentOptions {
  /** The chat models; a run picks one with `model_name` (unknown names use the default, with a warning). */
  readonly models: ModelResolver;
  /** Without a provider the agent has no sandbox tools and no `present_files`. */
  readonly sandboxProvider?: SandboxProvider;
  /** Options of the sandbox tools (limits, secrets...); the sandbox itself comes from each call's run. */
  readonly sandboxTools?: Omit<SandboxToolsOptions, "sandbox" | "getSandbox">;
  readonly skills?: LeadAgentSkills;
  readonly subagents?: LeadAgentSubagents;
  /** More tools for the lead (and its subagents), e.g. results of `tool()` from `@langchain/core/tools`. */
  readonly tools?: readonly (StructuredToolInterface | DynamicTool)[];
  /**
   * More per-run filters of the lead's tools (each returns the names a run must not get), e.g. the
   * configured tools outside a run's `tool_groups` whitelist. A hidden tool is neither offered nor run,
   * nor handed to the run's subagents. Synchronous, since subagents are given their tools synchronously.
   */
  readonly toolFilters?: readonly ((run: RunOptions) => Iterable<string>)[];
  /** Where thread state persists (a run may lend another one through its config). */
  readonly checkpointer?: BaseCheckpointSaver;
  readonly store?: BaseStore;
  readonly prompt?: LeadPromptSettings;
  /**
   * Default LangGraph recursion limit of a run (a run's own `recursionLimit` wins). Every
   * model call passes through several middleware nodes, so LangGraph's default of 25 ends
   * long tool loops early. Default 100.
   */
  readonly recursionLimit?: number;
  readonly middleware?: LeadMiddlewareOptions;
  /**
   * Per-user custom agents (a run's `agent_name` selects one: its SOUL.md, model, tool groups, skills)
   * and the `setup_agent` / `update_agent` tools. Default none: `agent_name` only names a memory bucket.
   */
  readonly customAgents?: LeadCustomAgents;
  readonly logger?: Logger;
}
