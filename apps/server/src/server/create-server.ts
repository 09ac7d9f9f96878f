/**
 * `createServer`: the composition root. From a loaded `config.yaml` it builds
 * the logger, the runtime components (run store, stream bridge, coordinator,
 * checkpointer), the lead agent (models, sandbox, skills, subagents), the
 * assistants, the `RunManager` and the gateway with its skills, thread-files
 * and LangGraph-compatible routes (`server-gateway.ts`) — and `close()`, the
 * graceful shutdown that takes them down in order (`shutdown.ts`).
 */
import { createLeadAgent } from "@deerflow/agent";
import { AssistantRegistry, createGateway } from "@deerflow/gateway";
import { RunManager, type AssistantStore } from "@deerflow/runtime";
import type { CommandRunner } from "@deerflow/sandbox";
import type { FastifyInstance } from "fastify";
import { createLeadAgentDeps } from "../agent/create-deps.js";
import { AgentAssistants } from "../agents/agent-assistants.js";
import { createServerAgents } from "../agents/server-agents.js";
import { resolveMemory } from "../config/resolve-memory.js";
import { loadMemoryBackend } from "../memory/load-memory-backend.js";
import { createServerMemory, withServerMemory, type ServerMemory } from "../memory/server-memory.js";
import { withThreadTitles } from "../agent/title-deps.js";
import { describeConfig } from "../config/describe.js";
import type { LoadedConfig } from "../config/load-config.js";
import { readDeploymentSettings, type DeploymentSettings } from "./deployment.js";
import { leadAgentGraphFactory } from "./lead-agent-graph.js";
import { createServerLogger, type ServerLogger } from "./logger.js";
import { createRuntimeComponents, type RuntimeComponents } from "./runtime-components.js";
import { createAssistantStore } from "./assistant-store.js";
import { createAccountStore } from "./account-store.js";
import { createServerAccounts, type ServerAccounts } from "./server-accounts.js";
import { serverGatewayOptions } from "./server-gateway.js";
import { drainAndClose, type CloseServerOptions } from "./shutdown.js";

/** Assistant id (and graph id) of the lead agent, as in DeerFlow (`client.runs.stream(threadId, "lead_agent")`). */
export const LEAD_AGENT_ASSISTANT_ID = "lead_agent";

/** Options of {@link createServer}. */
export interface CreateServerOptions {
  /** The server's pino logger. Default: {@link createServerLogger} at the deployment's `LOG_LEVEL`. */
  readonly logger?: ServerLogger;
  /** Environment for `REDIS_URL`, model keys and the deployment settings. Default `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
  /** Working directory for plugin lookup. Default `process.cwd()`. */
  readonly cwd?: string;
  /** Overrides of the deployment settings read from `env` (tests, embedding). */
  readonly deployment?: Partial<DeploymentSettings>;
  /** Command runner of the local sandbox. Default: bubblewrap when usable, else host commands with `sandbox.allow_host_bash`. */
  readonly runner?: CommandRunner;
  /** The built web console served at `/` (default: found by `resolveConsoleDir`); `false` serves none. */
  readonly consoleDir?: string | false;
}

/** A created server (not yet listening). */
export interface DeerFlowServer {
  /** The Fastify app: `app.inject(...)` in tests, or {@link DeerFlowServer.listen}. */
  readonly app: FastifyInstance;
  readonly manager: RunManager;
  readonly logger: ServerLogger;
  readonly loaded: LoadedConfig;
  readonly deployment: DeploymentSettings;
  /** The runtime components behind the manager. */
  readonly components: Pick<RuntimeComponents, "store" | "bridge" | "coordinator" | "checkpointer" | "graphStore">;
  /**
   * Starts listening (default: `server.host` / `server.port` of the config; port 0 picks a free one).
   * @returns the URL, e.g. `http://127.0.0.1:2024`
   */
  listen(options?: { port?: number; host?: string }): Promise<string>;
  /**
   * Graceful shutdown: answers new requests 503 (`Retry-After`) while local runs drain for up to
   * the shutdown timeout, their SSE streams staying open to their real `end`; interrupts the runs
   * still going at the deadline (their streams end too); then closes the HTTP server (ending the
   * streams still open: runs executed elsewhere), the bridge, stores, checkpointer and sandbox.
   * Idempotent; never throws (failures are logged).
   */
  close(options?: CloseServerOptions): Promise<void>;
}

/**
 * Creates the DeerFlow server from a loaded configuration.
 *
 * @param loaded - result of `loadConfig`
 * @param options - logger, environment, deployment overrides, sandbox runner
 * @returns the app (not listening), the run manager and `close()`
 * @throws ServerStartError `SERVER_ENV_INVALID` / `SERVER_COMPONENT_FAILED`; ModelError, PluginLoadError,
 *   ServerConfigError from the agent's dependencies. Nothing opened is leaked on failure.
 * @example
 * ```ts
 * const server = await createServer(await loadConfig());
 * const url = await server.listen();
 * process.once("SIGTERM", () => void server.close());
 * ```
 */
export async function createServer(loaded: LoadedConfig, options: CreateServerOptions = {}): Promise<DeerFlowServer> {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const deployment: DeploymentSettings = { ...readDeploymentSettings(env), ...options.deployment };
  const logger = options.logger ?? createServerLogger({ level: deployment.logLevel });
  const { config } = loaded;

  for (const line of describeConfig(loaded)) logger.info({ event: "config" }, line);
  logger.info(
    {
      event: "config",
      shutdownTimeoutMs: deployment.shutdownTimeoutMs,
      leaseMs: deployment.leaseMs,
      redisKeyPrefix: deployment.redisKeyPrefix,
      postgresSchema: deployment.postgresSchema,
    },
    `deployment: shutdown drains runs for ${deployment.shutdownTimeoutMs / 1000} s, run leases ${deployment.leaseMs / 1000} s`,
  );

  const components = await createRuntimeComponents(loaded, { deployment, logger, cwd, env });
  let agent: Awaited<ReturnType<typeof createLeadAgentDeps>> | undefined;
  let memory: ServerMemory | undefined;
  let started: { manager?: RunManager; app?: FastifyInstance } = {};
  let accounts: ServerAccounts | undefined;
  let assistantStore: AssistantStore | undefined;
  try {
    // auth.enabled: users, sessions and per-user keys (undefined keeps the single-user mode).
    accounts = await createServerAccounts(loaded, {
      env,
      logger,
      // In the run store's database: instances sharing PostgreSQL share users, sessions and lockouts.
      createStore: () =>
        createAccountStore({
          runStore: config.runtime.runStore,
          postgresPool: components.postgresPool,
          postgresSchema: deployment.postgresSchema,
          dataDir: config.storage.dataDir,
          logger,
        }),
    });
    agent = await createLeadAgentDeps(loaded, {
      logger,
      env,
      cwd,
      ...(options.runner === undefined ? {} : { runner: options.runner }),
    });
    // Hand-built configs without `memory:` get DeerFlow's defaults.
    const memorySettings = config.memory ?? resolveMemory({}, [], () => {});
    memory = createServerMemory({
      memory: memorySettings,
      store: components.graphStore,
      ...(await loadMemoryBackend(memorySettings, { cwd, configDir: loaded.baseDir }, logger)),
      models: agent.models,
      logger,
    });
    // Custom agents (agent_storage:, agents_api:): a run's agent_name selects one of its user's.
    const models = agent.models;
    // Each agent is also an assistant of lead_agent, kept in step once the assistant store is open (below).
    let agentAssistants: AgentAssistants | undefined;
    const customAgents = createServerAgents({
      config,
      graphStore: components.graphStore,
      hasModel: (name) => models.has(name),
      onChange: (change) => agentAssistants?.apply(change),
    });
    // Compiled once for every run; thread state is read and written with its graph (state schema and reducers).
    const leadAgent = await createLeadAgent(
      withThreadTitles(
        withServerMemory(
          { ...agent.deps, checkpointer: components.checkpointer, customAgents: customAgents.lead },
          memory,
        ),
        components.store,
        logger,
      ),
    );
    const assistants = new AssistantRegistry([
      {
        assistantId: LEAD_AGENT_ASSISTANT_ID,
        graphId: LEAD_AGENT_ASSISTANT_ID,
        name: config.agent.name,
        description: "The DeerFlow lead agent: skills, sandbox tools, clarification and subagents.",
        metadata: { created_by: "system" },
        graph: leadAgentGraphFactory(leadAgent, logger),
        stateGraph: () => leadAgent.graph,
      },
    ]);

    // Users' own assistants of these graphs (POST /api/assistants), in the run store's database.
    assistantStore = await createAssistantStore({
      runStore: config.runtime.runStore,
      postgresPool: components.postgresPool,
      postgresSchema: deployment.postgresSchema,
      dataDir: config.storage.dataDir,
      logger,
    });
    agentAssistants = new AgentAssistants({ store: assistantStore, graphId: LEAD_AGENT_ASSISTANT_ID, logger });

    const manager = new RunManager({
      graphs: assistants.graphs,
      store: components.store,
      bridge: components.bridge,
      coordinator: components.coordinator,
      checkpointer: components.checkpointer,
      // Every run streams with it: getStore() in graph nodes, the store of createAgent's runtime.
      graphStore: components.graphStore,
      logger,
      retentionMs: config.runtime.retention.finishedRunsMs,
      streamRetentionMs: config.runtime.retention.streamReplayMs,
      defaultDurability: config.runtime.checkpointDurability,
      // Orphans are found by the sweep: keep it well inside the lease so recovery follows expiry closely.
      sweepIntervalMs: Math.min(10_000, Math.max(500, Math.floor(deployment.leaseMs / 3))),
      coordinatorTimeoutMs: deployment.coordinatorTimeoutMs,
    });
    started = { manager };

    const gatewayOptions = serverGatewayOptions({
      loaded,
      deployment,
      logger,
      env,
      components,
      agent,
      assistants,
      assistantStore,
      manager,
      consoleDir: options.consoleDir,
      ...(accounts === undefined ? {} : { accounts: accounts.options }),
    });
    const app = await createGateway({
      ...gatewayOptions,
      routes: [...(gatewayOptions.routes ?? []), memory.routes, customAgents.routes],
    });
    started = { manager, app };
    await manager.start();
    logger.info(
      {
        event: "runtime",
        instanceId: manager.instanceId,
        store: components.store.constructor.name,
        bridge: components.bridge.constructor.name,
        coordinator: components.coordinator.constructor.name,
      },
      "run manager started",
    );

    const resources = agent;
    const serverMemory = memory;
    const serverAccounts = accounts;
    const serverAssistants = assistantStore;
    let closing: Promise<void> | undefined;
    const server: DeerFlowServer = {
      app,
      manager,
      logger,
      loaded,
      deployment,
      components: {
        store: components.store,
        bridge: components.bridge,
        coordinator: components.coordinator,
        checkpointer: components.checkpointer,
        graphStore: components.graphStore,
      },
      async listen(listenOptions = {}) {
        const host = listenOptions.host ?? config.server.host;
        const port = listenOptions.port ?? config.server.port;
        await app.listen({ host, port });
        const address = app.server.address();
        const actualPort = typeof address === "object" && address !== null ? address.port : port;
        const url = `http://${host.includes(":") ? `[${host}]` : host}:${actualPort}`;
        logger.info(
          { event: "listening", url, host, port: actualPort, instanceId: manager.instanceId },
          `DeerFlow server listening at ${url}`,
        );
        return url;
      },
      close(closeOptions = {}) {
        // The memory queue flushes what the drained runs queued (shutdown_flush_timeout_seconds) before the store closes.
        const withMemoryFlush = {
          close: async () => {
            await serverMemory.close();
            await serverAccounts?.close();
            await serverAssistants.close();
            await components.close();
          },
        };
        closing ??= drainAndClose(
          {
            app,
            manager,
            logger,
            components: withMemoryFlush,
            agent: resources,
            shutdownTimeoutMs: deployment.shutdownTimeoutMs,
          },
          closeOptions,
        );
        return closing;
      },
    };

    return server;
  } catch (err) {
    await started.app?.close().catch(() => {});
    await started.manager?.shutdown({ drain: false, timeoutMs: 0 }).catch(() => {});
    await agent?.close().catch(() => {});
    await accounts?.close().catch(() => {});
    await assistantStore?.close().catch(() => {});
    await components.close();
    throw err;
  }
}
