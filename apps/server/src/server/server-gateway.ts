/**
 * The gateway options of the DeerFlow server: its configuration's HTTP
 * settings, the runtime's health checks, the skills and thread-files routes,
 * the LangGraph-compatible routes and the web console.
 */
import {
  LocalThreadFiles,
  createPerUserSkillsBackend,
  langgraphRoutes,
  ownerThreadAuthorizer,
  type AccountsOptions,
  type AssistantRegistry,
  type GatewayOptions,
} from "@deerflow/gateway";
import type { AssistantStore, RunManager } from "@deerflow/runtime";
import type { LeadAgentResources } from "../agent/create-deps.js";
import type { LoadedConfig } from "../config/load-config.js";
import type { DeploymentSettings } from "./deployment.js";
import { createDocumentConverter } from "../uploads/document-converter.js";
import { healthDetailsOf } from "./health-details.js";
import { modelCatalogOf } from "./model-catalog.js";
import type { ServerLogger } from "./logger.js";
import type { RuntimeComponents } from "./runtime-components.js";
import { consoleInfo, consoleRoutes } from "./static-console.js";
import { mcpRoutes } from "../mcp/mcp-routes.js";

/** What the gateway is built over. */
export interface ServerGatewayParts {
  readonly loaded: LoadedConfig;
  readonly deployment: DeploymentSettings;
  readonly logger: ServerLogger;
  readonly env: NodeJS.ProcessEnv;
  readonly components: RuntimeComponents;
  readonly agent: LeadAgentResources;
  readonly assistants: AssistantRegistry;
  readonly manager: RunManager;
  /** The built web console (default: found by `resolveConsoleDir`); `false` serves none. */
  readonly consoleDir: string | false | undefined;
  /** User accounts (`auth.enabled`): the account store, session secret and `auth:` settings. */
  readonly accounts?: AccountsOptions;
  /** Users' own LangGraph assistants (`POST /api/assistants`, versions), beside the run store. */
  readonly assistantStore?: AssistantStore;
}

/**
 * @param parts - the configuration and what the server built
 * @returns the options of `createGateway`
 */
export function serverGatewayOptions(parts: ServerGatewayParts): GatewayOptions {
  const { loaded, logger, components, agent, manager } = parts;
  const { server } = loaded.config;
  return {
    logger,
    bodyLimit: server.bodyLimit,
    ...(server.corsOrigins.length === 0
      ? {}
      : {
          cors: server.corsOrigins.includes("*")
            ? // Never with credentials: a reflected "*" would let any site read a signed-in user's answers.
              { origins: "*" }
            : // With accounts, a console on a listed origin signs in with cookies (credentialed requests).
              { origins: server.corsOrigins, ...(parts.accounts === undefined ? {} : { credentials: true }) },
        }),
    // A plain key is the operator's: an admin key (user "default"); `{ key, user_id }` authenticates that user.
    ...(server.apiKeys.length === 0
      ? {}
      : {
          auth: {
            apiKeys: server.apiKeys.map((key) => {
              const user = server.apiKeyUsers?.find((u) => u.key === key);
              if (user === undefined) return { key, admin: true };
              const { userId, admin, role } = user;
              return { key, userId, admin, ...(role === undefined ? {} : { role }) };
            }),
          },
        }),
    ...(parts.accounts === undefined ? {} : { accounts: parts.accounts }),
    healthChecks: components.healthChecks,
    healthDetails: healthDetailsOf(manager, components.bridge),
    openapi: {
      title: "DeerFlow Server",
      version: "0.0.0",
      description: "LangGraph-compatible assistants, threads and runs; DeerFlow's skills and thread files.",
    },
    // Each caller's own skills (DeerFlow's per-user model), the same storage the agent and sandboxes read.
    ...(agent.userSkills === undefined
      ? {}
      : { skills: { backend: createPerUserSkillsBackend({ storage: agent.userSkills, logger }) } }),
    // The same root as the LocalSandboxProvider's baseDir: agent outputs are served as artifacts.
    threadFiles: new LocalThreadFiles({ root: loaded.config.storage.dataDir }),
    // Thread files and skill install: the caller's own threads only (the LangGraph routes check owners themselves).
    authorizeThread: ownerThreadAuthorizer(manager.store),
    // uploads.auto_convert_documents: PDF and DOCX uploads get a Markdown companion.
    ...(loaded.config.uploads?.autoConvertDocuments === true ? { documentConverter: createDocumentConverter() } : {}),
    models: modelCatalogOf(loaded.config),
    // authorization: — route permissions, models by role, each run's role and model (the agent checks tools).
    ...(agent.authorization === undefined
      ? {}
      : { authorization: { provider: agent.authorization.provider, failClosed: agent.authorization.failClosed } }),
    // The LangGraph Platform store API (/api/store/...): each user's items under ["user-store", <user>].
    store: components.graphStore,
    routes: [
      langgraphRoutes({
        manager,
        checkpointer: components.checkpointer,
        assistants: parts.assistants,
        ...(parts.assistantStore === undefined ? {} : { assistantStore: parts.assistantStore }),
        heartbeatMs: parts.deployment.heartbeatMs,
      }),
      mcpRoutes({ filePath: loaded.config.extensionsConfigPath, toolset: agent.mcp, env: parts.env }),
    ],
    // The web console and GET /api/info: no API key needed.
    publicRoutes: [
      consoleRoutes({
        info: consoleInfo(loaded),
        logger,
        env: parts.env,
        ...(parts.consoleDir === undefined ? {} : { distDir: parts.consoleDir }),
      }),
    ],
  };
}
