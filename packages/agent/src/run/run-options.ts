/**
 * Per-run options of the lead agent. The agent is compiled once; what differs
 * between runs travels in each run's config and is read here, with DeerFlow's
 * precedence (`config.context` over `config.configurable`, §5.2) — except the
 * user and the ids, which only `configurable` carries: the gateway writes
 * `user_id` from the authenticated caller over whatever the request sent.
 */

/** The part of a run's config (a `RunnableConfig`, a middleware's `runtime`) the options are read from. */
export interface RunConfigLike {
  readonly configurable?: Readonly<Record<string, unknown>> | undefined;
  readonly context?: unknown;
}

/** What a run may choose. */
export interface RunOptions {
  /** `configurable.thread_id`: the conversation (and its sandbox). */
  readonly threadId?: string;
  /** `configurable.run_id`: set by a runtime that tracks runs (the server's). */
  readonly runId?: string;
  /**
   * `configurable.user_id`: selects the user's sandbox folders. Set by the gateway from the
   * authenticated caller (never from a request body); `context.user_id` is not read.
   */
  readonly userId?: string;
  /**
   * `configurable.user_role`: the role `authorization:` checks tools against. Set by the gateway from
   * the authenticated caller, like `user_id` (a body naming another role is refused); never read from `context`.
   */
  readonly userRole?: string;
  /** `model_name` (or `model`): one of the configured models; unknown names fall back to the default. */
  readonly modelName?: string;
  /** `subagent_enabled`: `false` removes `task` for this run. */
  readonly subagentEnabled?: boolean;
  /** `max_concurrent_subagents`: `task` calls per response for this run. */
  readonly maxConcurrentSubagents?: number;
  /** `is_plan_mode`: DeerFlow's plan mode (read by the todo middleware). */
  readonly isPlanMode?: boolean;
  /** `thinking_enabled`: the per-run thinking switch (read by the model-settings middleware). */
  readonly thinkingEnabled?: boolean;
  /** `reasoning_effort`: applied when the run's model has `supports_reasoning_effort`. */
  readonly reasoningEffort?: string;
  /** `tool_groups`: a whitelist of configured tool groups for this run (read by the host's `toolFilters`); absent: all. */
  readonly toolGroups?: readonly string[];
  /** `agent_name`: the custom agent the run is (as given; the agent's entry lowercases it). */
  readonly agentName?: string;
  /** `is_bootstrap`: the agent-creator flow (only the bootstrap skills, plus `setup_agent`). */
  readonly isBootstrap?: boolean;
  /** `channel_name`: the IM channel the run came from (`update_agent` is withheld on webhook channels). */
  readonly channelName?: string;
  /**
   * The custom agent as resolved when the run started (its SOUL.md, skills whitelist, model settings),
   * written by the agent's entry under `configurable.__deerflow_custom_agent`; never read from `context`.
   */
  readonly customAgent?: RunCustomAgent;
}

/** What a run knows of its custom agent (or of the default agent's SOUL.md). */
export interface RunCustomAgent {
  /** The agent's lowercase name; absent for the default agent. */
  readonly name?: string;
  /** SOUL.md (the agent's, or the default one), when there is one. */
  readonly soul?: string;
  /** Skills whitelist; absent: all enabled skills. */
  readonly skills?: readonly string[];
  /** Sampling overrides (LangChain names) layered on the run's model. */
  readonly modelSettings?: { readonly temperature?: number; readonly maxTokens?: number };
}

/** The `configurable` key the agent's entry writes the resolved custom agent under (`__`: kept out of checkpoint metadata). */
export const CUSTOM_AGENT_CONFIG_KEY = "__deerflow_custom_agent";

const text = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

/** Options read from frozen configs (LangChain's per-call `runtime`): every wrapper of a model call reads the same one. */
const frozenConfigOptions = new WeakMap<object, RunOptions>();

/**
 * Reads a run's options. A frozen config (a middleware's `runtime`, which
 * LangChain freezes per model call) is read once and its options shared by
 * the later reads of that object.
 *
 * @param config - the run's config (`configurable` and `context`), or a middleware's `runtime`
 * @returns the options that are set and well-typed (others are ignored); not to be changed
 * @example
 * ```ts
 * readRunOptions({ configurable: { thread_id: "t1", model_name: "a" }, context: { model_name: "b" } });
 * // { threadId: "t1", modelName: "b" }
 * ```
 */
export function readRunOptions(config: RunConfigLike | undefined): RunOptions {
  if (config === undefined || !Object.isFrozen(config)) return parseRunOptions(config);
  let options = frozenConfigOptions.get(config);
  if (options === undefined) {
    options = Object.freeze(parseRunOptions(config));
    frozenConfigOptions.set(config, options);
  }
  return options;
}

function parseRunOptions(config: RunConfigLike | undefined): RunOptions {
  const configurable = config?.configurable;
  const context =
    typeof config?.context === "object" && config.context !== null
      ? (config.context as Record<string, unknown>)
      : undefined;
  const pick = (key: string): unknown => context?.[key] ?? configurable?.[key];
  const modelName = text(pick("model_name")) ?? text(pick("model"));
  const maxConcurrent = pick("max_concurrent_subagents");
  const flag = (key: string): boolean | undefined => {
    const v = pick(key);
    return typeof v === "boolean" ? v : undefined;
  };
  const options: { -readonly [K in keyof RunOptions]: RunOptions[K] } = {};
  const threadId = text(configurable?.["thread_id"]);
  const runId = text(configurable?.["run_id"]);
  const userId = text(configurable?.["user_id"]);
  if (threadId !== undefined) options.threadId = threadId;
  if (runId !== undefined) options.runId = runId;
  if (userId !== undefined) options.userId = userId;
  const userRole = text(configurable?.["user_role"]);
  if (userRole !== undefined) options.userRole = userRole;
  if (modelName !== undefined) options.modelName = modelName;
  const subagentEnabled = flag("subagent_enabled");
  if (subagentEnabled !== undefined) options.subagentEnabled = subagentEnabled;
  if (typeof maxConcurrent === "number" && Number.isInteger(maxConcurrent))
    options.maxConcurrentSubagents = maxConcurrent;
  const isPlanMode = flag("is_plan_mode");
  if (isPlanMode !== undefined) options.isPlanMode = isPlanMode;
  const thinkingEnabled = flag("thinking_enabled");
  if (thinkingEnabled !== undefined) options.thinkingEnabled = thinkingEnabled;
  const reasoningEffort = text(pick("reasoning_effort"));
  if (reasoningEffort !== undefined) options.reasoningEffort = reasoningEffort;
  const toolGroups = pick("tool_groups");
  if (Array.isArray(toolGroups) && toolGroups.every((g) => typeof g === "string")) options.toolGroups = toolGroups;
  const agentName = text(pick("agent_name"));
  if (agentName !== undefined) options.agentName = agentName;
  const isBootstrap = flag("is_bootstrap");
  if (isBootstrap !== undefined) options.isBootstrap = isBootstrap;
  const channelName = text(pick("channel_name"));
  if (channelName !== undefined) options.channelName = channelName;
  const customAgent = configurable?.[CUSTOM_AGENT_CONFIG_KEY];
  if (typeof customAgent === "object" && customAgent !== null) options.customAgent = customAgent as RunCustomAgent;
  return options;
}
