/**
 * How the lead agent is given custom agents (`LeadAgentOptions.customAgents`):
 * the store, the bootstrap skills, who may replace the default SOUL.md, the
 * webhook channels that never get `update_agent`, and a hook called after the
 * tools change an agent (the server keeps the agent's LangGraph assistant in
 * step with it).
 */
import type { AgentConfig } from "./agent-config.js";
import type { AgentStore } from "./agent-store.js";

/** An agent created or changed by `setup_agent` / `update_agent`. */
export interface AgentChangeEvent {
  readonly kind: "created" | "updated";
  readonly userId: string;
  readonly config: AgentConfig;
}

/** Custom agents of a lead agent. */
export interface LeadCustomAgents {
  /** Where the agents live (`FileAgentStore`, `StoreAgentStore`, or another `AgentStore`). */
  readonly store: AgentStore;
  /** Skills a bootstrap run (`is_bootstrap`) may use. Default `["bootstrap"]`. */
  readonly bootstrapSkills?: readonly string[];
  /**
   * Whether `setup_agent` in a bootstrap run without `agent_name` may replace the default agent's
   * SOUL.md (DeerFlow does). That file is shared by every user's default agent, so the default is
   * `false`: the tool answers with an error and an operator edits the file.
   */
  readonly defaultSoulWritable?: boolean;
  /** `channel_name`s whose runs never get `update_agent` (untrusted webhook fan-out). Default `["github"]`. */
  readonly webhookChannels?: readonly string[];
  /** The user of a run without `configurable.user_id` (embedded single-user use). Default `default`. */
  readonly defaultUserId?: string;
  /** Called after a tool created or changed an agent (errors are logged, the tool still succeeds). */
  readonly onAgentChange?: (event: AgentChangeEvent) => void | Promise<void>;
}

/** Defaults of {@link LeadCustomAgents}. */
export const DEFAULT_BOOTSTRAP_SKILLS: readonly string[] = ["bootstrap"];
export const DEFAULT_WEBHOOK_CHANNELS: readonly string[] = ["github"];
export const DEFAULT_AGENT_USER_ID = "default";
