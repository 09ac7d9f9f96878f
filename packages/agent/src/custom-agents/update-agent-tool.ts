/**
 * `update_agent(soul?, description?, skills?, tool_groups?, model?)` —
 * DeerFlow's self-update tool of a custom agent: persists the given fields of
 * the run's agent (the user's own, from `configurable.user_id`), keeping the
 * rest of its config (model settings, thinking, unmanaged keys). Offered only
 * in a custom agent's runs, never on webhook channels; checked again here so
 * a host that binds it elsewhere stays safe. `"null"`, `"none"` and
 * `"undefined"` count as omitted, as models send them for "unchanged".
 */
import { tool } from "@langchain/core/tools";
import type { JSONSchema } from "@langchain/core/utils/json_schema";
import { AgentError } from "../errors.js";
import type { Logger } from "../logger.js";
import { applyAgentFields, normalizeAgentName, type AgentConfigFields } from "./agent-config.js";
import { DEFAULT_WEBHOOK_CHANNELS, type LeadCustomAgents } from "./custom-agents-options.js";
import { toolRun, toolText } from "./tool-run.js";

/** Tool name. */
export const UPDATE_AGENT_TOOL_NAME = "update_agent";

/** DeerFlow's texts. */
export const UPDATE_AGENT_TEXTS = {
  webhook: (channel: string): string =>
    `Error: update_agent is disabled on the '${channel}' channel. Self-mutation requests must come from an operator-trusted surface (chat UI or the HTTP API), not a webhook fan-out.`,
  noFields:
    'Error: No fields provided. Pass at least one of: soul, description, skills, tool_groups, model. Omit unchanged fields instead of passing null-like strings such as "null", "none", or "undefined".',
  emptySoul:
    "Error: soul content is empty; refusing to update agent with an empty SOUL.md. Omit the soul field if you do not want to change it.",
  noAgent:
    "Error: update_agent is only available inside a custom agent's chat. There is no agent_name in the current runtime context, so there is nothing to update. If you are inside the bootstrap flow, use setup_agent instead.",
  unknownModel: (model: string): string =>
    `Error: Unknown model '${model}'. Pass a model name that exists in config.yaml's models section.`,
  missing: (name: string): string =>
    `Error: Agent '${name}' does not exist for the current user. Use setup_agent to create a new agent first.`,
  unchanged: (name: string): string =>
    `No changes applied to agent '${name}'. The provided values matched the existing config.`,
  updated: (name: string, fields: readonly string[]): string =>
    `Agent '${name}' updated successfully. Changed: ${fields.join(", ")}. The new configuration takes effect on the next user turn.`,
} as const;

const NULLISH = new Set(["null", "none", "undefined"]);
const omitted = (v: unknown): boolean =>
  v === undefined || v === null || (typeof v === "string" && NULLISH.has(v.trim().toLowerCase()));

const text = { anyOf: [{ type: "string" }, { type: "null" }] };
const list = { anyOf: [{ type: "array", items: { type: "string" } }, { type: "string" }, { type: "null" }] };
const SCHEMA: JSONSchema = {
  type: "object",
  properties: {
    soul: { ...text, description: "Optional full replacement SOUL.md content." },
    description: { ...text, description: "Optional new one-line description." },
    skills: { ...list, description: "Optional skill whitelist. `[]` = no skills, omit = unchanged." },
    tool_groups: { ...list, description: "Optional tool-group whitelist. `[]` = empty, omit = unchanged." },
    model: { ...text, description: "Optional model override (must match a configured model name)." },
  },
};

const DESCRIPTION = `Persist updates to the current custom agent's SOUL.md and config.yaml.

Use this when the user asks to refine the agent's identity, description, skill whitelist, tool-group whitelist, or default model. Only the fields you explicitly pass are updated; omitted fields keep their existing values.

Pass \`soul\` as the FULL replacement SOUL.md content — there is no patch semantics, so always start from the current SOUL and apply your edits.

Pass \`skills=[]\` to disable all skills for this agent. Omit \`skills\` entirely to keep the existing whitelist. Do not pass literal strings like "null" / "none" / "undefined" for unchanged fields; omit those fields instead.

Changes take effect on the next user turn.`;

type Args = { soul?: unknown; description?: unknown; skills?: unknown; tool_groups?: unknown; model?: unknown };

const sameList = (a: readonly string[] | null, b: readonly string[] | null): boolean =>
  a === b || (a !== null && b !== null && a.length === b.length && a.every((x, i) => x === b[i]));

/**
 * Creates the tool.
 *
 * @param agents - the custom-agent wiring
 * @param hasModel - whether a name is a configured model
 * @param logger - receives failures
 * @returns the tool
 */
export function createUpdateAgentTool(agents: LeadCustomAgents, hasModel: (name: string) => boolean, logger: Logger) {
  const webhooks = agents.webhookChannels ?? DEFAULT_WEBHOOK_CHANNELS;
  return tool(
    async (args: Args, config) => {
      const { run, userId, toolCallId } = toolRun(config, agents);
      const say = (content: string, error = true) => toolText(UPDATE_AGENT_TOOL_NAME, toolCallId, content, error);
      if (run.channelName !== undefined && webhooks.includes(run.channelName))
        return say(UPDATE_AGENT_TEXTS.webhook(run.channelName));
      const soul = omitted(args.soul) ? undefined : args.soul;
      const description = omitted(args.description) ? undefined : args.description;
      const skills = omitted(args.skills) ? undefined : args.skills;
      const toolGroups = omitted(args.tool_groups) ? undefined : args.tool_groups;
      const model = omitted(args.model) ? undefined : args.model;
      if ([soul, description, skills, toolGroups, model].every((v) => v === undefined))
        return say(UPDATE_AGENT_TEXTS.noFields);
      if (soul !== undefined && (typeof soul !== "string" || soul.trim() === ""))
        return say(UPDATE_AGENT_TEXTS.emptySoul);
      for (const [key, v] of [
        ["skills", skills],
        ["tool_groups", toolGroups],
      ] as const)
        if (v !== undefined && !(Array.isArray(v) && v.every((s) => typeof s === "string")))
          return say(`Error: ${key} must be a list of names (or omitted).`);
      if (run.agentName === undefined) return say(UPDATE_AGENT_TEXTS.noAgent);
      let name: string;
      try {
        name = normalizeAgentName(run.agentName);
      } catch (err) {
        return say(`Error: ${(err as Error).message}`);
      }
      if (model !== undefined && (typeof model !== "string" || !hasModel(model)))
        return say(UPDATE_AGENT_TEXTS.unknownModel(String(model)));
      try {
        const existing = await agents.store.get(userId, name);
        if (existing === undefined) {
          // The legacy layout answers AGENT_LEGACY_ONLY here with its own text.
          await agents.store.update(userId, name, {});
          return say(UPDATE_AGENT_TEXTS.missing(name));
        }
        const fields: { -readonly [K in keyof AgentConfigFields]: AgentConfigFields[K] } = {};
        const changed: string[] = [];
        if (typeof description === "string") {
          fields.description = description;
          if (description !== existing.description) changed.push("description");
        }
        if (typeof model === "string") {
          fields.model = model;
          if (model !== existing.model) changed.push("model");
        }
        if (Array.isArray(toolGroups)) {
          fields.tool_groups = toolGroups as string[];
          if (!sameList(toolGroups as string[], existing.tool_groups)) changed.push("tool_groups");
        }
        if (Array.isArray(skills)) {
          fields.skills = skills as string[];
          if (!sameList(skills as string[], existing.skills)) changed.push("skills");
        }
        const configChanged = changed.length > 0;
        if (typeof soul === "string") changed.push("soul");
        if (changed.length === 0) return say(UPDATE_AGENT_TEXTS.unchanged(name), false);
        const stored = await agents.store.update(userId, name, {
          ...(configChanged ? { config: applyAgentFields(existing, fields) } : {}),
          ...(typeof soul === "string" ? { soul } : {}),
        });
        logger.info({ userId, agent: name, fields: changed }, "update_agent updated the agent");
        try {
          await agents.onAgentChange?.({ kind: "updated", userId, config: stored });
        } catch (err) {
          logger.warn({ err, agent: name }, "custom agent change hook failed");
        }
        return say(UPDATE_AGENT_TEXTS.updated(name, changed), false);
      } catch (err) {
        if (AgentError.isInstance(err) && err.code === "AGENT_NOT_FOUND") return say(UPDATE_AGENT_TEXTS.missing(name));
        if (!AgentError.isInstance(err)) logger.error({ err, agent: name }, "update_agent failed");
        return say(
          AgentError.isInstance(err) && err.code === "AGENT_LEGACY_ONLY"
            ? `Error: ${err.message}`
            : `Error: Failed to update agent '${name}': ${(err as Error).message}`,
        );
      }
    },
    { name: UPDATE_AGENT_TOOL_NAME, description: DESCRIPTION, schema: SCHEMA },
  );
}
