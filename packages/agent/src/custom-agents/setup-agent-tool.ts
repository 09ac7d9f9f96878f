/**
 * `setup_agent(soul, description, skills?)` — DeerFlow's agent-creator tool,
 * offered only in bootstrap runs (`is_bootstrap`). It upserts the run's
 * `agent_name` into the user's store (config and SOUL.md), and records
 * `created_agent_name` in the thread's state. Without `agent_name` it would
 * replace the default agent's SOUL.md, which every user's default agent
 * reads: only when the host allows it (`defaultSoulWritable`).
 */
import { tool } from "@langchain/core/tools";
import type { JSONSchema } from "@langchain/core/utils/json_schema";
import { Command } from "@langchain/langgraph";
import { AgentError } from "../errors.js";
import type { Logger } from "../logger.js";
import { agentConfigOf, applyAgentFields, normalizeAgentName } from "./agent-config.js";
import type { LeadCustomAgents } from "./custom-agents-options.js";
import { toolRun, toolText } from "./tool-run.js";

/** Tool name. */
export const SETUP_AGENT_TOOL_NAME = "setup_agent";

/** DeerFlow's texts (and ours for the default SOUL.md refusal). */
export const SETUP_AGENT_TEXTS = {
  emptySoul: "Error: soul content is empty; refusing to create agent with an empty SOUL.md",
  created: (name: string): string => `Agent '${name}' created successfully!`,
  defaultSoulRefused:
    "Error: this run has no agent_name, so setup_agent would replace the default agent's SOUL.md, which every user's default agent reads; this server does not allow that. Start the bootstrap run with an agent_name in its context.",
} as const;

const SCHEMA: JSONSchema = {
  type: "object",
  properties: {
    soul: { type: "string", description: "Full SOUL.md content defining the agent's personality and behavior." },
    description: { type: "string", description: "One-line description of what the agent does." },
    skills: {
      anyOf: [{ type: "array", items: { type: "string" } }, { type: "null" }],
      description:
        "Optional list of skill names this agent should use. None means use all enabled skills, empty list means no skills.",
    },
  },
  required: ["soul", "description"],
};

/**
 * Creates the tool.
 *
 * @param agents - the custom-agent wiring
 * @param logger - receives failures
 * @returns the tool
 */
export function createSetupAgentTool(agents: LeadCustomAgents, logger: Logger) {
  return tool(
    async (args: { soul: string; description: string; skills?: string[] | null }, config) => {
      const { run, userId, toolCallId } = toolRun(config, agents);
      const say = (text: string, error = false) =>
        new Command({ update: { messages: [toolText(SETUP_AGENT_TOOL_NAME, toolCallId, text, error)] } });
      if (typeof args.soul !== "string" || args.soul.trim() === "") return say(SETUP_AGENT_TEXTS.emptySoul, true);
      try {
        if (run.agentName === undefined) {
          if (agents.defaultSoulWritable !== true) return say(SETUP_AGENT_TEXTS.defaultSoulRefused, true);
          await agents.store.setDefaultSoul(args.soul);
          logger.info({ userId }, "setup_agent replaced the default SOUL.md");
          return new Command({
            update: { messages: [toolText(SETUP_AGENT_TOOL_NAME, toolCallId, SETUP_AGENT_TEXTS.created("default"))] },
          });
        }
        const name = normalizeAgentName(run.agentName);
        const existing = await agents.store.get(userId, name);
        const fields = {
          ...(args.description ? { description: args.description } : {}),
          ...(Array.isArray(args.skills) ? { skills: args.skills } : {}),
        };
        const config = existing === undefined ? agentConfigOf(name, fields) : applyAgentFields(existing, fields);
        const stored = await agents.store.update(userId, name, { config, soul: args.soul }, { upsert: true });
        logger.info({ userId, agent: name }, "setup_agent created the agent");
        try {
          await agents.onAgentChange?.({
            kind: existing === undefined ? "created" : "updated",
            userId,
            config: stored,
          });
        } catch (err) {
          logger.warn({ err, agent: name }, "custom agent change hook failed");
        }
        return new Command({
          update: {
            created_agent_name: name,
            messages: [toolText(SETUP_AGENT_TOOL_NAME, toolCallId, SETUP_AGENT_TEXTS.created(name))],
          },
        });
      } catch (err) {
        if (!AgentError.isInstance(err)) logger.error({ err }, "setup_agent failed");
        return say(`Error: ${(err as Error).message}`, true);
      }
    },
    {
      name: SETUP_AGENT_TOOL_NAME,
      description: "Setup the custom DeerFlow agent.",
      schema: SCHEMA,
    },
  );
}
