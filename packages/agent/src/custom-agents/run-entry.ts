/**
 * The custom agent of a run, resolved once when the run starts — DeerFlow
 * loads it when it builds the agent for a run; here the agent is compiled
 * once, so the run's config carries what the per-call middlewares need:
 *
 * - `context.agent_name` lowercased (memory's bucket, the tools);
 * - `model_name`, `thinking_enabled`, `reasoning_effort` from the agent when
 *   the request set none (request → agent → default);
 * - `tool_groups`: the agent's whitelist (intersected with the request's);
 * - `configurable.__deerflow_custom_agent`: its SOUL.md, skills whitelist and
 *   model settings (the prompt, the skills section and the run's model read it).
 *
 * A run without `agent_name` gets the default SOUL.md, if any. An unknown
 * agent fails the run before any work with `AGENT_NOT_FOUND`.
 */
import type { ReactAgent } from "langchain";
import { AgentError } from "../errors.js";
import { CUSTOM_AGENT_CONFIG_KEY, readRunOptions, type RunCustomAgent } from "../run/run-options.js";
import { normalizeAgentName } from "./agent-config.js";
import { DEFAULT_AGENT_USER_ID, DEFAULT_BOOTSTRAP_SKILLS, type LeadCustomAgents } from "./custom-agents-options.js";

type Config = Record<string, unknown> & {
  configurable?: Record<string, unknown>;
  context?: unknown;
};

/**
 * The text of a run naming an agent the user does not have.
 *
 * @param name - the agent
 * @returns the message
 */
export function unknownRunAgentText(name: string): string {
  return `Custom agent '${name}' does not exist for the current user. Create it first (POST /api/agents or a bootstrap run with setup_agent), or omit agent_name.`;
}

/**
 * Resolves a run's custom agent into its config.
 *
 * @param config - the run's config (not changed)
 * @param agents - the lead agent's custom-agent wiring
 * @returns a new config carrying the agent
 * @throws {@link AgentError} `AGENT_NAME_INVALID`, `AGENT_NOT_FOUND`, `AGENT_CONFIG_INVALID`
 */
export async function resolveRunCustomAgent(config: Config | undefined, agents: LeadCustomAgents): Promise<Config> {
  const base: Config = { ...config };
  // Only this entry writes the resolved agent: a client-sent one is dropped.
  const configurable: Record<string, unknown> = { ...base.configurable };
  delete configurable[CUSTOM_AGENT_CONFIG_KEY];
  const context: Record<string, unknown> =
    typeof base.context === "object" && base.context !== null ? { ...(base.context as Record<string, unknown>) } : {};
  const run = readRunOptions({ configurable, context });
  const userId = run.userId ?? agents.defaultUserId ?? DEFAULT_AGENT_USER_ID;
  const { store } = agents;
  let resolved: RunCustomAgent | undefined;

  if (run.agentName !== undefined) context["agent_name"] = normalizeAgentName(run.agentName);
  const name = context["agent_name"] as string | undefined;
  // Memory reads configurable's agent_name first: one lowercase name everywhere, so one bucket.
  if (name !== undefined && configurable["agent_name"] !== undefined) configurable["agent_name"] = name;

  if (run.isBootstrap === true || name === undefined) {
    // The default agent, and the agent creator (whose agent does not exist yet): the default SOUL.md.
    const soul = await store.getDefaultSoul();
    const skills = run.isBootstrap === true ? (agents.bootstrapSkills ?? DEFAULT_BOOTSTRAP_SKILLS) : undefined;
    if (soul !== undefined || skills !== undefined)
      resolved = { ...(soul === undefined ? {} : { soul }), ...(skills === undefined ? {} : { skills: [...skills] }) };
  } else {
    const agent = await store.get(userId, name);
    if (agent === undefined)
      throw new AgentError("AGENT_NOT_FOUND", unknownRunAgentText(name), { details: { name, userId } });
    const soul = await store.getSoul(userId, name);
    const settings = agent.model_settings;
    resolved = {
      name,
      ...(soul === undefined ? {} : { soul }),
      ...(agent.skills === null ? {} : { skills: [...agent.skills] }),
      ...(settings === null
        ? {}
        : {
            modelSettings: {
              ...(settings.temperature === undefined ? {} : { temperature: settings.temperature }),
              ...(settings.max_tokens === undefined ? {} : { maxTokens: settings.max_tokens }),
            },
          }),
    };
    if (run.modelName === undefined && agent.model !== null) context["model_name"] = agent.model;
    if (run.thinkingEnabled === undefined && agent.thinking_enabled !== null)
      context["thinking_enabled"] = agent.thinking_enabled;
    if (run.reasoningEffort === undefined && agent.reasoning_effort !== null)
      context["reasoning_effort"] = agent.reasoning_effort;
    if (agent.tool_groups !== null) {
      const requested = run.toolGroups;
      context["tool_groups"] =
        requested === undefined ? [...agent.tool_groups] : agent.tool_groups.filter((g) => requested.includes(g));
    }
  }
  if (resolved !== undefined) configurable[CUSTOM_AGENT_CONFIG_KEY] = resolved;
  return {
    ...base,
    configurable,
    ...(Object.keys(context).length === 0 && base.context === undefined ? {} : { context }),
  };
}

/**
 * Makes `agent.invoke` and `agent.stream` resolve each run's custom agent first
 * (changed in place, like `releaseSandboxesAfterRuns`). `agent.graph` used
 * directly and `streamEvents` run as the default agent, without the SOUL.md.
 *
 * @param agent - the compiled agent
 * @param agents - the custom-agent wiring
 * @returns the same agent
 */
export function resolveCustomAgentsOnRuns<T extends ReactAgent>(agent: T, agents: LeadCustomAgents): T {
  const invoke = agent.invoke.bind(agent);
  const stream = agent.stream.bind(agent);
  Object.assign(agent, {
    invoke: async (input: Parameters<typeof invoke>[0], config?: Parameters<typeof invoke>[1]) =>
      invoke(input, (await resolveRunCustomAgent(config as Config, agents)) as Parameters<typeof invoke>[1]),
    stream: async (input: Parameters<typeof stream>[0], config?: Parameters<typeof stream>[1]) =>
      stream(input, (await resolveRunCustomAgent(config as Config, agents)) as Parameters<typeof stream>[1]),
  });
  return agent;
}
