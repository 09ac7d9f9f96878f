/**
 * `createLeadAgentFactory`: builds the lead agent for each run — DeerFlow's
 * `make_lead_agent` on `createAgent` from `langchain` v1 — with its system
 * prompt, tools and middleware chain.
 *
 * Middleware, in order (DeerFlow's numbering in brackets):
 * 1. ToolErrorHandlingMiddleware [5]: thrown tools / invalid arguments → error ToolMessage (outermost tool wrapper).
 * 2. SandboxMiddleware [0]: acquires the thread's sandbox before the agent, releases it after.
 * 3. ArtifactsMiddleware: `artifacts` state and the `present_files` tool.
 * 4. DanglingToolCallMiddleware [3]: synthetic results for tool calls left without one.
 * 5. SubagentLimitMiddleware [11]: per-response and per-run `task` caps.
 * 6. LoopDetectionMiddleware [12]: stops a turn repeating the same tool call.
 * 7. ClarificationMiddleware [13]: `ask_clarification` → `interrupt()`; registers the tool.
 */
import type { SandboxProvider, SandboxToolsOptions } from "@deerflow/sandbox";
import { createSandboxTools } from "@deerflow/sandbox";
import { createDescribeSkillTool, createSkillManageTool, renderSkillSection, type CustomSkillStore, type SkillPromptMode, type SkillSource } from "@deerflow/skills";
import { SubagentExecutor, createSubagentLimitMiddleware, createTaskTool, renderSubagentSection, type SubagentRegistry } from "@deerflow/subagents";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { DynamicTool, StructuredToolInterface } from "@langchain/core/tools";
import type { BaseCheckpointSaver, BaseStore } from "@langchain/langgraph-checkpoint";
import { createAgent, type AgentMiddleware, type ReactAgent } from "langchain";
import { silentLogger, type Logger } from "../logger.js";
import { createArtifactsMiddleware } from "./middleware/artifacts.js";
import { createClarificationMiddleware } from "./middleware/clarification.js";
import { createDanglingToolCallMiddleware } from "./middleware/dangling-tool-calls.js";
import { DEFAULT_LOOP_THRESHOLD, createLoopDetectionMiddleware } from "./middleware/loop-detection.js";
import { createSandboxMiddleware } from "./middleware/sandbox.js";
import { createToolErrorMiddleware } from "./middleware/tool-errors.js";
import { buildLeadSystemPrompt } from "./prompt/lead-prompt.js";
import { readRunOptions } from "./run-options.js";
import { createDisabledSkillGuard } from "./skill-path-guard.js";
import { ThreadSandbox } from "./thread-sandbox.js";
import { LeadAgentState } from "./thread-state.js";

/** Default recursion limit of a lead-agent run (DeerFlow uses 100 too). */
export const DEFAULT_RECURSION_LIMIT = 100;

/** Where the lead agent gets its chat models (a `ModelRegistry` fits). */
export interface ChatModelSource {
  readonly defaultModel: string;
  has(name: string): boolean;
  get(name?: string): Promise<BaseChatModel>;
}

/** Skills wiring of the lead agent. */
export interface LeadAgentSkills {
  /** Skills with their enabled state (a `SkillCatalog`). */
  readonly source: SkillSource;
  /** Where the skills tree is mounted in the sandbox. Default `/mnt/skills`. */
  readonly containerBase?: string;
  /** Prompt mode (`auto` switches to names + `describe_skill` for big catalogs). Default `auto`. */
  readonly promptMode?: SkillPromptMode;
  /** Enables `skill_manage` (and the self-evolution prompt section) over this store. */
  readonly skillManage?: CustomSkillStore;
}

/** Subagent wiring of the lead agent. */
export interface LeadAgentSubagents {
  readonly registry: SubagentRegistry;
  /** `task` calls per response (1–4). Default 3. */
  readonly maxConcurrent?: number;
  /** `task` calls per run (1–50). Default 6. */
  readonly maxTotal?: number;
}

/** What the factory is built from (see `createLeadAgentDeps` for building it from `config.yaml`). */
export interface LeadAgentDeps {
  readonly models: ChatModelSource;
  /** Without a provider the agent has no sandbox tools and no `present_files`. */
  readonly sandboxProvider?: SandboxProvider;
  /** Options of the sandbox tools (limits, secrets...); the sandbox itself is supplied per run. */
  readonly sandboxTools?: Omit<SandboxToolsOptions, "sandbox" | "getSandbox">;
  readonly skills?: LeadAgentSkills;
  readonly subagents?: LeadAgentSubagents;
  /** Name in the prompt's `<role>`. Default `DeerFlow`. */
  readonly agentName?: string;
  /** Identical tool calls per turn that stop it. Default 3. */
  readonly loopThreshold?: number;
  /** More tools for the lead (and its subagents), e.g. results of `tool()` from `@langchain/core/tools`. */
  readonly extraTools?: readonly (StructuredToolInterface | DynamicTool)[];
  /** Operator text appended to the system prompt. */
  readonly extraInstructions?: string;
  /**
   * Default LangGraph recursion limit of a run (a run's own `recursionLimit` wins). Every
   * model call passes through several middleware nodes, so LangGraph's default of 25 ends
   * long tool loops early. Default 100.
   */
  readonly recursionLimit?: number;
  readonly logger?: Logger;
}

/** One run, as the runtime's worker describes it. */
export interface LeadAgentContext {
  readonly threadId: string;
  readonly runId?: string;
  /** The graph is compiled with it, so the run's state persists where the runtime reads it. */
  readonly checkpointer?: BaseCheckpointSaver | undefined;
  readonly store?: BaseStore | undefined;
  /** Aborted when the run is cancelled; releases the sandbox and is passed to model and tool calls. */
  readonly signal?: AbortSignal;
  /**
   * The run's config. Read from `configurable` (then `context`): `model_name` (or `model`),
   * `subagent_enabled`, `max_concurrent_subagents`; and from `configurable` only: `user_id`
   * (the authenticated caller, written by the gateway).
   */
  readonly config?: { readonly configurable?: Readonly<Record<string, unknown>>; readonly context?: Readonly<Record<string, unknown>> };
}

/**
 * The lead agent: a `createAgent` result (`stream` and `invoke` with the agent's defaults);
 * `agent.graph` is the compiled LangGraph `StateGraph` (`getState`, `updateState`...).
 */
export type LeadAgent = ReactAgent;

/** Builds the lead agent of one run. */
export type LeadAgentFactory = (ctx: LeadAgentContext) => Promise<LeadAgent>;

/**
 * Creates the lead-agent factory.
 *
 * @param deps - models, sandbox provider, skills, subagents
 * @returns a factory building the compiled agent of a run
 * @example
 * ```ts
 * const factory = createLeadAgentFactory({ models, sandboxProvider, skills: { source: catalog } });
 * const agent = await factory({ threadId: "t1", checkpointer: new MemorySaver() });
 * for await (const chunk of await agent.stream({ messages: [new HumanMessage("list my workspace")] }, { configurable: { thread_id: "t1" } })) { ... }
 * ```
 */
export function createLeadAgentFactory(deps: LeadAgentDeps): LeadAgentFactory {
  const logger = deps.logger ?? silentLogger;
  const containerBase = deps.skills?.containerBase ?? "/mnt/skills";

  return async (ctx: LeadAgentContext): Promise<LeadAgent> => {
    const run = readRunOptions(ctx.config);
    const log = { threadId: ctx.threadId, ...(ctx.runId === undefined ? {} : { runId: ctx.runId }) };

    let modelName = run.modelName ?? deps.models.defaultModel;
    if (!deps.models.has(modelName)) {
      logger.warn({ ...log, requested: modelName, using: deps.models.defaultModel }, "unknown model requested for the run; using the default model");
      modelName = deps.models.defaultModel;
    }
    const model = await deps.models.get(modelName);

    // Sandbox: one per thread, shared by the lead's and its subagents' tools.
    const session = deps.sandboxProvider === undefined ? undefined : new ThreadSandbox(deps.sandboxProvider, ctx.threadId, run.userId, logger);
    if (session !== undefined) ctx.signal?.addEventListener("abort", () => void session.release(), { once: true });
    const getSandbox = session === undefined ? undefined : () => session.get();

    // Tools shared with subagents.
    const tools: StructuredToolInterface[] = [];
    const skills = deps.skills;
    const skillList = skills === undefined ? [] : await skills.source.list();
    if (getSandbox !== undefined) {
      const isPathBlocked = skills === undefined ? undefined : createDisabledSkillGuard(() => skills.source.list(), containerBase);
      tools.push(...createSandboxTools({ ...deps.sandboxTools, getSandbox, ...(isPathBlocked === undefined ? {} : { isPathBlocked }) }));
    }
    const skillSection =
      skills === undefined
        ? undefined
        : renderSkillSection(skillList, { containerBase, mode: skills.promptMode ?? "auto", selfEvolution: skills.skillManage !== undefined });
    if (skills !== undefined && skillSection?.mode === "deferred") tools.push(createDescribeSkillTool(skills.source, { containerBase }));
    // DynamicTool is a StructuredTool at runtime; the interface split is a typing artefact.
    tools.push(...((deps.extraTools ?? []) as readonly StructuredToolInterface[]));

    // Lead-only tools.
    const leadTools: StructuredToolInterface[] = [...tools];
    if (skills?.skillManage !== undefined) leadTools.push(createSkillManageTool(skills.skillManage, { logger }));
    const subagents = deps.subagents !== undefined && run.subagentEnabled !== false ? deps.subagents : undefined;
    const maxConcurrent = run.maxConcurrentSubagents ?? subagents?.maxConcurrent;
    if (subagents !== undefined) {
      const executor = new SubagentExecutor({
        registry: subagents.registry,
        ...(maxConcurrent === undefined ? {} : { maxConcurrent: Math.min(4, Math.max(1, maxConcurrent)) }),
        resolveModel: (name) => (deps.models.has(name) ? deps.models.get(name) : undefined),
        logger,
      });
      leadTools.push(createTaskTool({ executor, registry: subagents.registry, getParent: () => ({ model, tools }), logger }));
    }

    const middleware: AgentMiddleware[] = [createToolErrorMiddleware({ logger })];
    if (session !== undefined && getSandbox !== undefined) middleware.push(createSandboxMiddleware(session, logger), createArtifactsMiddleware(getSandbox));
    middleware.push(createDanglingToolCallMiddleware());
    if (subagents !== undefined) {
      middleware.push(createSubagentLimitMiddleware({ ...(maxConcurrent === undefined ? {} : { maxConcurrent }), ...(subagents.maxTotal === undefined ? {} : { maxTotal: subagents.maxTotal }), logger }));
    }
    middleware.push(createLoopDetectionMiddleware({ threshold: deps.loopThreshold ?? DEFAULT_LOOP_THRESHOLD, logger }), createClarificationMiddleware());

    const systemPrompt = buildLeadSystemPrompt({
      agentName: deps.agentName ?? "DeerFlow",
      ...(skillSection === undefined ? {} : { skillsSection: skillSection.text }),
      ...(session !== undefined && skills !== undefined ? { skillsPath: containerBase } : {}),
      ...(subagents === undefined
        ? {}
        : {
            subagentSection: renderSubagentSection({
              subagents: subagents.registry.list(),
              ...(maxConcurrent === undefined ? {} : { maxConcurrent }),
              ...(subagents.maxTotal === undefined ? {} : { maxTotal: subagents.maxTotal }),
              bashAvailable: session !== undefined,
            }),
          }),
      ...(deps.extraInstructions === undefined ? {} : { extra: deps.extraInstructions }),
    });

    logger.debug({ ...log, model: modelName, tools: leadTools.map((t) => t.name), middleware: middleware.map((m) => m.name) }, "lead agent assembled");
    const agent = createAgent({
      model,
      tools: leadTools,
      middleware,
      systemPrompt,
      stateSchema: LeadAgentState,
      name: "lead_agent",
      ...(ctx.checkpointer === undefined ? {} : { checkpointer: ctx.checkpointer }),
      ...(ctx.store === undefined ? {} : { store: ctx.store }),
      ...(ctx.signal === undefined ? {} : { signal: ctx.signal }),
    });
    return agent.withConfig({ recursionLimit: deps.recursionLimit ?? DEFAULT_RECURSION_LIMIT }) as unknown as LeadAgent;
  };
}
