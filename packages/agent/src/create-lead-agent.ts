/**
 * `createLeadAgent`: DeerFlow's lead agent (`make_lead_agent`) on `createAgent`
 * from `langchain` v1 — system prompt, tools and the middleware chain of
 * `chain/lead-chain.ts` — compiled ONCE from injected parts and reused by
 * every run. What differs per run travels in the run's config: the thread
 * (`configurable.thread_id`), the user (`configurable.user_id`), the abort
 * signal (the call's `signal`), and `model_name`, `subagent_enabled`,
 * `max_concurrent_subagents`, `is_plan_mode`, `thinking_enabled`
 * (`context` over `configurable`).
 */
import { createSandboxTools } from "@deerflow/sandbox";
import { createDescribeSkillTool, createSkillManageTool } from "@deerflow/skills";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { createAgent, type ReactAgent } from "langchain";
import { buildLeadChain } from "./chain/lead-chain.js";
import { DEFAULT_WEBHOOK_CHANNELS } from "./custom-agents/custom-agents-options.js";
import { resolveCustomAgentsOnRuns } from "./custom-agents/run-entry.js";
import { SETUP_AGENT_TOOL_NAME, createSetupAgentTool } from "./custom-agents/setup-agent-tool.js";
import { UPDATE_AGENT_TOOL_NAME, createUpdateAgentTool } from "./custom-agents/update-agent-tool.js";
import { callGraphDirectly, middlewareStatesAreEmpty } from "./internal/call-graph-directly.js";
import { silentLogger } from "./logger.js";
import type { ToolFilter } from "./middleware/run-tools.js";
import { RunModels } from "./models/run-models.js";
import type { LeadAgentOptions } from "./options.js";
import { createRunPromptBuilder } from "./prompt/run-prompt.js";
import { releaseSandboxesAfterRuns } from "./sandbox/release-after-runs.js";
import { ThreadSandboxes } from "./sandbox/thread-sandboxes.js";
import { createDisabledSkillGuard } from "./skills/skill-path-guard.js";
import { SkillPromptView } from "./skills/skill-prompt-view.js";
import { LeadAgentState } from "./state/thread-state.js";
import { readRunOptions, type RunOptions } from "./run/run-options.js";
import { createRunTaskTool } from "./subagents/run-task-tool.js";
import { SUBAGENT_CHAIN } from "./subagents/subagent-chain.js";

/** Default recursion limit of a lead-agent run (DeerFlow uses 100 too). */
export const DEFAULT_RECURSION_LIMIT = 100;

/** Name of the `describe_skill` tool of `@deerflow/skills` (offered only while the skills section is deferred). */
const DESCRIBE_SKILL_TOOL_NAME = "describe_skill";
/** `createAgent`'s name for the lead agent (LangChain names its answers after it). */
const LEAD_AGENT_NAME = "lead_agent";
/** Name of the `task` tool of `@deerflow/subagents`. */
const TASK_TOOL_NAME = "task";

/**
 * The compiled lead agent: a `createAgent` result (`stream` and `invoke` with the
 * agent's defaults); `agent.graph` is the compiled LangGraph `StateGraph`
 * (`getState`, `updateState`...). Its `invoke`, `stream` and v3 `streamEvents`
 * go straight to `agent.graph` (the same defaults, without LangChain's read of
 * the thread's state per call) when no middleware's state schema has a default.
 */
export type LeadAgent = ReactAgent;

/**
 * Compiles the lead agent.
 *
 * @param options - models, sandbox provider and tool options, skills, subagents, extra tools,
 *   checkpointer and store, prompt, recursion limit, per-middleware options, logger
 * @returns the compiled agent, for any number of runs on any threads
 * @throws ModelError or whatever `models.get(defaultModel)` throws (the default model is resolved here)
 * @example
 * ```ts
 * const agent = await createLeadAgent({ models: staticModels({ fast: model }), checkpointer: new MemorySaver() });
 * await agent.invoke({ messages: [new HumanMessage("hi")] }, { configurable: { thread_id: "t1" } });
 * ```
 */
export async function createLeadAgent(options: LeadAgentOptions): Promise<LeadAgent> {
  const logger = options.logger ?? silentLogger;
  const models = await RunModels.create(options.models, logger);
  const sessions =
    options.sandboxProvider === undefined ? undefined : new ThreadSandboxes(options.sandboxProvider, logger);
  const skills = options.skills === undefined ? undefined : new SkillPromptView(options.skills);
  const toolFilters: ToolFilter[] = [...(options.toolFilters ?? [])];

  // Tools shared with subagents.
  const shared: StructuredToolInterface[] = [];
  if (sessions !== undefined) {
    const view = skills;
    const isPathBlocked =
      view === undefined
        ? undefined
        : createDisabledSkillGuard(
            (config) => view.sourceFor(readRunOptions(config).userId).list(),
            view.containerBase,
          );
    shared.push(
      ...createSandboxTools({
        ...options.sandboxTools,
        getSandbox: (config) => sessions.sandboxFor(config ?? {}),
        ...(isPathBlocked === undefined ? {} : { isPathBlocked }),
      }),
    );
  }
  if (options.skills !== undefined && skills?.mayDefer === true) {
    const view = skills;
    // A custom agent's run describes only the skills of its whitelist, as its prompt lists only those.
    const runSkills = async (config?: Parameters<typeof readRunOptions>[0]) => {
      const run = readRunOptions(config);
      const allowed = run.customAgent?.skills;
      const all = await view.sourceFor(run.userId).list();
      return allowed === undefined ? all : all.filter((s) => allowed.includes(s.name));
    };
    shared.push(createDescribeSkillTool(runSkills, { containerBase: skills.containerBase }));
    toolFilters.push(async (run) =>
      (await view.section(undefined, run.userId)).mode === "deferred" ? [] : [DESCRIBE_SKILL_TOOL_NAME],
    );
  }
  // DynamicTool is a StructuredTool at runtime; the interface split is a typing artefact.
  shared.push(...((options.tools ?? []) as readonly StructuredToolInterface[]));
  const sharedFor = (run?: RunOptions): StructuredToolInterface[] => {
    const visible =
      skills?.mayDefer === true && skills.lastMode !== "deferred"
        ? shared.filter((t) => t.name !== DESCRIBE_SKILL_TOOL_NAME)
        : shared;
    // The host's filters hold for the run's subagents too (a tool hidden from the run is not delegated).
    if (run === undefined || options.toolFilters === undefined) return visible;
    const hidden = new Set(options.toolFilters.flatMap((f) => [...f(run)]));
    return hidden.size === 0 ? visible : visible.filter((t) => !hidden.has(t.name));
  };

  // Lead-only tools.
  const lead: StructuredToolInterface[] = [...shared];
  if (options.skills?.skillManage !== undefined && skills !== undefined) {
    // With per-user skills each call edits the store of its run's user (DeerFlow's per-user skill_manage).
    const view = skills;
    lead.push(
      createSkillManageTool(
        options.skills.forUser === undefined
          ? options.skills.skillManage
          : (config) => view.storeFor(readRunOptions(config).userId),
        { logger },
      ),
    );
  }
  const subagents = options.subagents;
  const customAgents = options.customAgents;
  if (customAgents !== undefined) {
    // Registered once; offered per run: setup_agent in bootstrap runs, update_agent in a custom agent's runs.
    // tool() over a JSON Schema types as DynamicTool | DynamicStructuredTool; both are structured tools at runtime.
    lead.push(
      createSetupAgentTool(customAgents, logger) as unknown as StructuredToolInterface,
      createUpdateAgentTool(customAgents, (name) => models.has(name), logger) as unknown as StructuredToolInterface,
    );
    const webhooks = customAgents.webhookChannels ?? DEFAULT_WEBHOOK_CHANNELS;
    toolFilters.push((run) => (run.isBootstrap === true ? [] : [SETUP_AGENT_TOOL_NAME]));
    toolFilters.push((run) =>
      run.customAgent?.name !== undefined &&
      run.isBootstrap !== true &&
      !(run.channelName !== undefined && webhooks.includes(run.channelName))
        ? []
        : [UPDATE_AGENT_TOOL_NAME],
    );
  }

  const prompt = createRunPromptBuilder({
    agentName: options.prompt?.agentName ?? "DeerFlow",
    skills,
    sandbox: sessions !== undefined,
    subagents,
    extraInstructions: options.prompt?.extraInstructions,
  });
  const chainParts = { logger, models, prompt, toolFilters, sessions, subagents, options: options.middleware ?? {} };
  if (subagents !== undefined) {
    lead.push(
      createRunTaskTool({
        registry: subagents.registry,
        models,
        parentTools: sharedFor,
        logger,
        // Subagents run the runtime part of the same chain (DeerFlow rows 1-4, 6-13).
        middleware: buildLeadChain(chainParts, SUBAGENT_CHAIN),
        ...(sessions === undefined ? {} : { sessions }),
        withheldTools: options.middleware?.guardrails?.requireApproval ?? [],
      }),
    );
    toolFilters.push((run) => (run.subagentEnabled === false ? [TASK_TOOL_NAME] : []));
  }
  const middleware = buildLeadChain({ ...chainParts, agentName: LEAD_AGENT_NAME });

  logger.debug(
    { model: models.defaultName, tools: lead.map((t) => t.name), middleware: middleware.map((m) => m.name) },
    "lead agent compiled",
  );
  const agent = createAgent({
    model: models.defaultModel,
    tools: lead,
    middleware,
    // The prompt of a run with no options; RunPromptMiddleware sets each run's.
    systemPrompt: await prompt({}),
    stateSchema: LeadAgentState,
    name: LEAD_AGENT_NAME,
    ...(options.checkpointer === undefined ? {} : { checkpointer: options.checkpointer }),
    ...(options.store === undefined ? {} : { store: options.store }),
  });
  const configured = agent.withConfig({
    recursionLimit: options.recursionLimit ?? DEFAULT_RECURSION_LIMIT,
  }) as unknown as LeadAgent;
  // Runs skip LangChain's per-call read of the thread's state for middleware defaults (see
  // call-graph-directly.ts) unless a middleware's own state schema has a default to add.
  const compiled = (await middlewareStatesAreEmpty(middleware)) ? callGraphDirectly(configured) : configured;
  const released = sessions === undefined ? compiled : releaseSandboxesAfterRuns(compiled, sessions);
  // Outermost: a run naming an unknown agent fails before it leases a sandbox.
  return customAgents === undefined ? released : resolveCustomAgentsOnRuns(released, customAgents);
}
