/**
 * The lead agent's middleware chain: ONE ordered list. Order = outer → inner
 * for `wrapModelCall` / `wrapToolCall` and execution order for `before*`
 * hooks; `afterModel` / `afterAgent` hooks run in reverse (LangChain v1, as
 * DeerFlow). A new middleware is one entry at its place in {@link LEAD_CHAIN};
 * an entry whose part is not configured contributes nothing.
 *
 * Where hooks live. LangChain compiles every `beforeAgent` / `beforeModel` /
 * `afterModel` / `afterAgent` hook into a graph node of its own, and each node
 * is a superstep of LangGraph's loop (task, writes, checkpoint, router) on
 * every model call or run: five such hooks made a one-call run cost 8.8× a
 * bare `createAgent`. So the default chain has none; its work lives in the
 * model node:
 *
 * - after-model work is the code after `handler()` in a `wrapModelCall`.
 *   Wrappers unwind inner-first, so the after-work of the chain still runs in
 *   reverse order, ClarificationMiddleware (last, innermost) first. A wrapper's
 *   after-work sees the answer as the wrappers inside it left it; after-work
 *   that must see the model node's final answer once (TokenUsage, Title) sits
 *   outside the LLM error handling, which retries and replaces answers.
 * - before-agent work (uploads, the sandbox) runs before `handler()` on the
 *   run's first model call, recognised by the run's input being the state's
 *   last message; its state changes go back as a `Command` from the model node.
 * - after-agent work (the sandbox lease) runs after the answer without tool
 *   calls, the run's last model call; interrupted, failed and aborted runs end
 *   their leases with the agent's `invoke` / `stream` (as they always did).
 * - state channels are declared by the agent (`LeadAgentState`), not by the
 *   middlewares (`declareState: false`): langchain parses a middleware's own
 *   state schema on every model call it wraps.
 * - checks of a tool call's batch (plan mode's parallel `write_todos`) are
 *   `wrapToolCall` work.
 * - {@link buildLeadChain} then fuses the consecutive model-call wrappers into
 *   one layer (`fuseModelCallWrappers`): LangChain's per-wrapper layer (a frozen
 *   runtime, a state view, a tool check, prompt normalisation) cost more than
 *   the fourteen wrappers' own work on every call.
 *
 * Nodes remain where a node is what the hook needs: human approval (an
 * interrupt after the model call must not repeat the call on resume),
 * summarization (rewrites the messages before the call) and the token budget,
 * all off by default, and third-party middlewares (memory).
 *
 * DeerFlow rows (§3 of the capabilities notes) are named in each module's TSDoc.
 */
import type { AgentMiddleware } from "langchain";
import type { Logger } from "../logger.js";
import { fuseModelCallWrappers } from "./fuse-model-wrappers.js";
import { createArtifactsMiddleware } from "../middleware/artifacts.js";
import { createClarificationMiddleware } from "../middleware/clarification.js";
import { createDanglingToolCallMiddleware } from "../middleware/dangling-tool-calls.js";
import { createLoopDetectionMiddleware } from "../middleware/loop-detection/loop-detection.js";
import { createLlmErrorHandlingMiddleware } from "../middleware/llm-error-handling/llm-error-handling.js";
import { createModelLengthFinishReasonMiddleware } from "../middleware/finish-reason/model-length-finish-reason.js";
import { createSafetyFinishReasonMiddleware } from "../middleware/finish-reason/safety-finish-reason.js";
import { createTerminalResponseMiddleware } from "../middleware/terminal-response/terminal-response.js";
import { createRunModelMiddleware } from "../middleware/run-model.js";
import { createRunPromptMiddleware } from "../middleware/run-prompt.js";
import { createRunToolsMiddleware, type ToolFilter } from "../middleware/run-tools.js";
import { createSandboxMiddleware } from "../middleware/sandbox.js";
import { createRunSubagentLimitMiddleware } from "../middleware/subagent-limit.js";
import { createToolErrorMiddleware } from "../middleware/tool-errors.js";
import { createGuardrailMiddleware } from "../middleware/guardrails/guardrail.js";
import { createToolAuthorizationMiddleware } from "../middleware/authorization/tool-authorization.js";
import { createHumanApprovalMiddleware } from "../middleware/human-approval/human-approval.js";
import { createReadBeforeWriteMiddleware } from "../middleware/read-before-write/read-before-write.js";
import { createInputSanitizationMiddleware } from "../middleware/sanitization/input-sanitization.js";
import { createToolResultSanitizationMiddleware } from "../middleware/sanitization/tool-result-sanitization.js";
import { createSummarizationMiddleware } from "../middleware/summarization/summarization.js";
import { createTokenBudgetMiddleware } from "../middleware/token-budget/token-budget.js";
import { createTokenUsageMiddleware } from "../middleware/token-usage/token-usage.js";
import { createToolOutputBudgetMiddleware } from "../middleware/tool-output-budget/tool-output-budget.js";
import { readRunOptions, type RunConfigLike } from "../run/run-options.js";
import { createPlanModeMiddleware } from "../middleware/plan-mode/plan-mode-middleware.js";
import { createTitleMiddleware } from "../middleware/title/title-middleware.js";
import { listThreadUploads } from "../middleware/uploads/thread-uploads.js";
import { createUploadsMiddleware } from "../middleware/uploads/uploads-middleware.js";
import { createViewImageMiddleware } from "../middleware/view-image/view-image-middleware.js";
import type { RunModels } from "../models/run-models.js";
import type { LeadAgentSubagents, LeadMiddlewareOptions } from "../options.js";
import type { RunPromptBuilder } from "../prompt/run-prompt.js";
import type { ThreadSandboxes } from "../sandbox/thread-sandboxes.js";

/** What the chain's middlewares are made from (assembled once by `createLeadAgent`). */
export interface LeadChainParts {
  readonly logger: Logger;
  readonly models: RunModels;
  readonly prompt: RunPromptBuilder;
  /** Tools registered at compile time that some runs do not get. */
  readonly toolFilters: readonly ToolFilter[];
  /** The per-thread sandbox sessions; absent without a sandbox provider. */
  readonly sessions?: ThreadSandboxes | undefined;
  /** Absent when subagents are off. */
  readonly subagents?: LeadAgentSubagents | undefined;
  /** The per-middleware options. */
  readonly options: LeadMiddlewareOptions;
  /** The agent's name (`createAgent({ name })`), given to answers the chain replaces (see `fuseModelCallWrappers`). */
  readonly agentName?: string | undefined;
}

/** One place in the chain. */
export interface LeadChainEntry {
  /** The middleware's `name` (unique in a chain). */
  readonly name: string;
  /** Builds it, or `undefined` when its part is not configured. */
  readonly create: (parts: LeadChainParts) => AgentMiddleware | undefined;
}

/** The lead agent's chain, in order. */
export const LEAD_CHAIN: readonly LeadChainEntry[] = [
  // Outermost tool wrapper: errors of every inner tool wrapper become results too.
  { name: "ToolErrorHandlingMiddleware", create: (p) => createToolErrorMiddleware({ logger: p.logger }) },
  // DeerFlow row 1: the outermost model-call wrapper, so no inner middleware sees the user's forged tags.
  {
    name: "InputSanitizationMiddleware",
    create: ({ options, logger }) => createInputSanitizationMiddleware({ ...options.inputSanitization, logger }),
  },
  // DeerFlow row 2: oversized results saved to the thread's outputs/.tool-results/ (cut without a sandbox).
  {
    name: "ToolOutputBudgetMiddleware",
    create: ({ options, sessions, logger }) => {
      const { enabled = true, ...budget } = options.toolOutput ?? {};
      if (!enabled) return undefined;
      return createToolOutputBudgetMiddleware({
        ...budget,
        logger,
        ...(sessions === undefined ? {} : { getSandbox: (scope) => sessions.sandboxFor(scope) }),
      });
    },
  },
  // DeerFlow row 3: inside the output budget (row 2), so what it stores and samples is already neutralised.
  { name: "ToolResultSanitizationMiddleware", create: () => createToolResultSanitizationMiddleware() },
  // The run's choices first, so every inner middleware sees the run's model, prompt and tools.
  { name: "RunModelMiddleware", create: (p) => createRunModelMiddleware({ models: p.models }) },
  { name: "RunPromptMiddleware", create: (p) => createRunPromptMiddleware({ build: p.prompt }) },
  {
    name: "RunToolsMiddleware",
    create: (p) => (p.toolFilters.length === 0 ? undefined : createRunToolsMiddleware({ filters: p.toolFilters })),
  },
  // Tools resolved per model call (MCP servers: the set follows extensions_config.json without recompiling).
  { name: "McpToolsMiddleware", create: ({ options }) => options.mcpTools },
  // authorization: (DeerFlow's two layers): inside the MCP tools, so the role filters what they add too; its
  // refusal of a denied call comes before the guardrail provider, which then never sees it.
  {
    name: "AuthorizationMiddleware",
    create: ({ options, logger, models }) =>
      options.authorization === undefined
        ? undefined
        : createToolAuthorizationMiddleware({ ...options.authorization, logger }, models),
  },
  // DeerFlow row 5 (lead only): announces the last message's uploads; checks them in the thread's sandbox.
  {
    name: "UploadsMiddleware",
    create: ({ sessions, logger, options }) =>
      createUploadsMiddleware({
        ...options.uploads,
        logger,
        ...(sessions === undefined ? {} : { listUploads: (config) => listThreadUploads(sessions, config, logger) }),
      }),
  },
  {
    name: "SandboxMiddleware",
    create: (p) =>
      p.sessions === undefined ? undefined : createSandboxMiddleware({ sessions: p.sessions, logger: p.logger }),
  },
  {
    name: "ArtifactsMiddleware",
    create: ({ sessions }) =>
      sessions === undefined
        ? undefined
        : createArtifactsMiddleware({ getSandbox: (config) => sessions.sandboxFor(config ?? {}) }),
  },
  { name: "DanglingToolCallMiddleware", create: () => createDanglingToolCallMiddleware() },
  // DeerFlow row 20: the thread's and the run's token usage (state and run report). After-work
  // only, so outside the LLM error handling: it counts each model node's final answer once.
  {
    name: "TokenUsageMiddleware",
    create: ({ options, models }) =>
      options.tokenUsage?.enabled === false
        ? undefined
        : createTokenUsageMiddleware({
            declareState: false,
            modelName: (runtime) => readRunOptions(runtime).modelName ?? models.defaultName,
          }),
  },
  // DeerFlow row 21: after-work only, outside the LLM error handling, so a failed first answer gets its title too.
  {
    name: "TitleMiddleware",
    create: ({ options, models, logger }) => {
      const { modelName, ...title } = options.title ?? {};
      const model =
        modelName === undefined
          ? undefined
          : async () => (await models.resolve({ modelName, thinkingEnabled: false })).model;
      return createTitleMiddleware({ ...title, logger, ...(model === undefined ? {} : { model }) });
    },
  },
  // DeerFlow row 8: retries, circuit breaker and fallback models around the run's model (set by RunModelMiddleware, outside).
  {
    name: "LlmErrorHandlingMiddleware",
    create: ({ options, models, logger }) =>
      createLlmErrorHandlingMiddleware({
        ...options.llmErrorHandling,
        resolveModel: (name) => models.get(name),
        logger,
      }),
  },
  // DeerFlow row 9b: the guardrail provider judges every call; then the human approves the configured tools.
  {
    name: "GuardrailMiddleware",
    create: ({ options, logger }) => {
      const { provider, failClosed, passport } = options.guardrails ?? {};
      return provider === undefined
        ? undefined
        : createGuardrailMiddleware({
            provider,
            logger,
            ...(failClosed === undefined ? {} : { failClosed }),
            ...(passport === undefined ? {} : { passport }),
          });
    },
  },
  {
    name: "HumanApprovalMiddleware",
    create: ({ options }) => {
      const tools = options.guardrails?.requireApproval ?? [];
      return tools.length === 0 ? undefined : createHumanApprovalMiddleware({ tools });
    },
  },
  // DeerFlow row 11: edits of existing files need a read of their current version.
  {
    name: "ReadBeforeWriteMiddleware",
    create: ({ sessions, options, logger }) =>
      sessions === undefined || options.readBeforeWrite?.enabled === false
        ? undefined
        : createReadBeforeWriteMiddleware({ getSandbox: (scope) => sessions.sandboxFor(scope), logger }),
  },
  // DeerFlow rows 17-18: the summary (summary_text) shown as data, then summarization; off by default.
  {
    name: "SummarizationMiddleware",
    create: ({ options, models, logger }) => {
      const { enabled = false, modelName, ...summarization } = options.summarization ?? {};
      if (!enabled) return undefined;
      const model = async (scope: RunConfigLike) => {
        // A named summary model that cannot be resolved falls back to the run's (DeerFlow).
        // Auxiliary calls run with thinking off (DeerFlow §5.2).
        const run = { ...readRunOptions(scope), thinkingEnabled: false };
        if (modelName !== undefined && models.has(modelName))
          return (await models.resolve({ ...run, modelName }).catch(async () => models.resolve(run))).model;
        return (await models.resolve(run)).model;
      };
      return createSummarizationMiddleware({ ...summarization, model, logger });
    },
  },
  // DeerFlow row 19: write_todos and `todos` for runs with is_plan_mode.
  {
    name: "PlanModeMiddleware",
    create: ({ options }) => createPlanModeMiddleware({ ...options.planMode, declareState: false }),
  },
  // DeerFlow rows 14 and 22: memory injected into a conversation's first turn, the conversation queued after the run.
  { name: "MemoryMiddleware", create: ({ options }) => options.memory },
  // DeerFlow row 23: view_image and the viewed images for runs whose model has supports_vision (needs a sandbox).
  {
    name: "ViewImageMiddleware",
    create: ({ sessions, models }) =>
      sessions === undefined
        ? undefined
        : createViewImageMiddleware({
            getSandbox: (config) => sessions.sandboxFor(config ?? {}),
            supportsVision: (run) => models.supportsVision(readRunOptions(run)),
          }),
  },
  {
    name: "SubagentLimitMiddleware",
    create: ({ subagents, logger }) =>
      subagents === undefined
        ? undefined
        : createRunSubagentLimitMiddleware({
            ...(subagents.maxConcurrent === undefined ? {} : { maxConcurrent: subagents.maxConcurrent }),
            ...(subagents.maxTotal === undefined ? {} : { maxTotal: subagents.maxTotal }),
            logger,
          }),
  },
  {
    name: "LoopDetectionMiddleware",
    create: ({ options, logger }) => {
      const { enabled = true, ...loop } = options.loopDetection ?? {};
      return enabled ? createLoopDetectionMiddleware({ ...loop, logger }) : undefined;
    },
  },
  // DeerFlow row 29: off by default.
  {
    name: "TokenBudgetMiddleware",
    create: ({ options, logger }) => {
      const { enabled = false, ...budget } = options.tokenBudget ?? {};
      return enabled ? createTokenBudgetMiddleware({ ...budget, logger }) : undefined;
    },
  },
  // DeerFlow row 32: an empty answer after a tool run is retried once, then a visible message and an error run.
  { name: "TerminalResponseMiddleware", create: ({ logger }) => createTerminalResponseMiddleware({ logger }) },
  // DeerFlow rows 33-34: finish_reason length → stop_reason model_length_capped; safety stops lose their tool calls.
  {
    name: "ModelLengthFinishReasonMiddleware",
    create: ({ logger }) => createModelLengthFinishReasonMiddleware({ logger }),
  },
  {
    name: "SafetyFinishReasonMiddleware",
    create: ({ options, logger }) => {
      const { enabled = true, ...safety } = options.safetyFinishReason ?? {};
      return enabled ? createSafetyFinishReasonMiddleware({ ...safety, logger }) : undefined;
    },
  },
  // Always last (DeerFlow's invariant): the innermost wrapper, its after-work sees the response first.
  { name: "ClarificationMiddleware", create: () => createClarificationMiddleware() },
];

/**
 * Builds the chain from its parts.
 *
 * @param parts - what the middlewares are made from
 * @param chain - the entries, in order (default {@link LEAD_CHAIN})
 * @returns the middlewares for `createAgent({ middleware })`, their model-call wrappers fused (`fuseModelCallWrappers`)
 */
export function buildLeadChain(
  parts: LeadChainParts,
  chain: readonly LeadChainEntry[] = LEAD_CHAIN,
): AgentMiddleware[] {
  return fuseModelCallWrappers(
    chain.flatMap((entry) => {
      const middleware = entry.create(parts);
      return middleware === undefined ? [] : [middleware];
    }),
    parts.agentName === undefined ? {} : { agentName: parts.agentName },
  );
}
