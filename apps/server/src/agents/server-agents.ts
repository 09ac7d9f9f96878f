/**
 * The server's custom agents: the `AgentStore` chosen by `agent_storage:`
 * (`file`: DeerFlow's folders under `storage.data_dir`; `store`/`db`: the graph
 * store, shared by instances), the lead agent's wiring (`customAgents`), and
 * the `/api/agents` + `/api/user-profile` routes gated by `agents_api.enabled`.
 */
import { FileAgentStore, StoreAgentStore, type AgentStore, type LeadCustomAgents } from "@deerflow/agent";
import type { BaseStore } from "@langchain/langgraph";
import type { FastifyPluginAsync } from "fastify";
import type { ServerConfig } from "../config/types.js";
import { agentsRoutes, type AgentRouteChange } from "./agents-routes.js";

/** What {@link createServerAgents} builds. */
export interface ServerAgents {
  readonly store: AgentStore;
  /** For `createLeadAgent({ customAgents })`. */
  readonly lead: LeadCustomAgents;
  /** The routes (mount under `/api`). */
  readonly routes: FastifyPluginAsync;
}

/** Options of {@link createServerAgents}. */
export interface ServerAgentsOptions {
  readonly config: ServerConfig;
  /** The server's graph store (used with `agent_storage.backend: store`). */
  readonly graphStore: BaseStore;
  /** Whether a name is a configured model. */
  readonly hasModel: (name: string) => boolean;
  /** Called after an agent is created, changed or deleted (routes and tools). */
  readonly onChange?: (change: AgentRouteChange) => Promise<void> | void;
}

/**
 * @param options - config, graph store, model check, change hook
 * @returns the store, the lead agent's wiring and the routes
 */
export function createServerAgents(options: ServerAgentsOptions): ServerAgents {
  const { config } = options;
  const settings = config.customAgents ?? { apiEnabled: false, storage: "file" as const };
  const store: AgentStore =
    settings.storage === "store"
      ? new StoreAgentStore({ store: options.graphStore })
      : new FileAgentStore({ dataDir: config.storage.dataDir });
  const onChange = options.onChange;
  return {
    store,
    lead: {
      store,
      ...(onChange === undefined ? {} : { onAgentChange: (event) => onChange(event) }),
    },
    routes: agentsRoutes({
      store,
      enabled: settings.apiEnabled,
      hasModel: options.hasModel,
      ...(onChange === undefined ? {} : { onChange }),
    }),
  };
}
