/**
 * `createLeadAgentDeps`: the options `createLeadAgent` (of `@deerflow/agent`)
 * compiles the lead agent from, built from a loaded `config.yaml` — the model registry (all models created up front, so a
 * bad entry fails at startup), the sandbox provider (`local` or a `use:`
 * plugin), the skills catalog with its scanners and `skill_manage` store, and
 * the subagent registry.
 */
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import type { LeadAgentOptions, LeadAgentSkills } from "@deerflow/agent";
import { DEFAULT_USER_ID } from "@deerflow/gateway";
import {
  LocalSandboxProvider,
  createDefaultRunner,
  isSandboxProvider,
  type CommandRunner,
  type SandboxProvider,
  type SandboxToolsOptions,
  type UserSkillsMountConfig,
} from "@deerflow/sandbox";
import { SkillCatalog, StaticSkillScanner, UserSkillsStorage, type SkillScanner } from "@deerflow/skills";
import { SubagentRegistry } from "@deerflow/subagents";
import { McpToolset, createMcpToolsMiddleware } from "@deerflow/tools";
import type { LoadedConfig } from "../config/load-config.js";
import { ServerConfigError } from "../config/errors.js";
import type { ServerConfig } from "../config/types.js";
import { silentLogger, type Logger } from "../logger.js";
import { ModelRegistry } from "../models/model-registry.js";
import { loadPlugin } from "../plugins/index.js";
import { combineScanners, isSkillScanner } from "./composite-scanner.js";
import { titleMiddlewareOptions } from "./title-deps.js";
import { createConfiguredToolDeps } from "./configured-tools.js";
import { safetyMiddlewareOptions } from "./safety-deps.js";
import { loadServerAuthorization, toolAuthorizationOptions, type ServerAuthorization } from "./authorization-deps.js";
import { serverMcpSource, threadMcpWorkDir } from "../mcp/mcp-source.js";

/** Options of {@link createLeadAgentDeps}. */
export interface CreateLeadAgentDepsOptions {
  readonly logger?: Logger;
  /** Environment for model API keys. Default `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
  /** Working directory for plugin lookup. Default `process.cwd()`. */
  readonly cwd?: string;
  /** Command runner of the local sandbox. Default: bubblewrap when usable, else host with `allow_host_bash`, else refusing. */
  readonly runner?: CommandRunner;
}

/** What {@link createLeadAgentDeps} built; `close()` shuts the sandbox provider and the catalog watcher down. */
export interface LeadAgentResources {
  /** Everything but the checkpointer and store, which the runtime provides. */
  readonly deps: LeadAgentOptions;
  readonly models: ModelRegistry;
  readonly sandboxProvider: SandboxProvider;
  /** The skills of user `default` (the operator's); `undefined` when skills are disabled or the default skills folder does not exist. */
  readonly catalog: SkillCatalog | undefined;
  /** Every user's skills (public + their own custom skills), which the agent, the sandbox and the skills routes share. */
  readonly userSkills: UserSkillsStorage | undefined;
  /** Whether sandbox commands run isolated (bubblewrap or a remote plugin). */
  readonly isolated: boolean;
  /** The MCP servers of `extensions_config.json` (loaded on first use, reloaded when the file changes). */
  readonly mcp: McpToolset;
  /** `authorization:` when enabled: the provider the gateway and the agent share. */
  readonly authorization: ServerAuthorization | undefined;
  close(): Promise<void>;
}

function configInvalid(loaded: LoadedConfig, keyPath: string, message: string): ServerConfigError {
  const label = loaded.file === undefined ? "config" : path.basename(loaded.file);
  return new ServerConfigError("CONFIG_INVALID", `${label}: ${keyPath}: ${message}`, {
    problems: [{ path: keyPath, message }],
  });
}

/**
 * The sandbox folders of a user's skills: their custom folder (created on use) and the shared
 * folders that exist (a missing `public/` is not created in the operator's skills folder).
 */
function userSkillsMountsOf(storage: UserSkillsStorage): (userId: string) => UserSkillsMountConfig[] {
  return (userId) => storage.forUser(userId).mounts.filter((m) => m.category === "custom" || existsSync(m.hostPath));
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

async function createScanners(
  config: ServerConfig,
  lookup: { cwd: string; configDir: string },
): Promise<SkillScanner | null> {
  const scanners: SkillScanner[] = [];
  for (const s of config.skills.scanners) {
    if (s.kind === "static") scanners.push(new StaticSkillScanner());
    else {
      scanners.push(
        await loadPlugin(s.use, {
          ...lookup,
          purpose: "skill scanner",
          shape: "an object with id and scanDirectory(dir)",
          check: isSkillScanner,
        }),
      );
    }
  }
  return scanners.length === 0 ? null : combineScanners(scanners);
}

/**
 * Builds the lead agent's dependencies from configuration.
 *
 * @param loaded - result of `loadConfig`
 * @param options - logger, environment, working directory, runner override
 * @returns the deps and the resources behind them
 * @throws ServerConfigError `CONFIG_INVALID` when `skills.path` names a missing folder;
 *   ModelError / PluginLoadError / SandboxError for models and plugins that cannot be created
 * @example
 * ```ts
 * const loaded = await loadConfig();
 * const { deps, close } = await createLeadAgentDeps(loaded, { logger });
 * const agent = await createLeadAgent({ ...deps, checkpointer }); // compiled once, for every run
 * ```
 */
export async function createLeadAgentDeps(
  loaded: LoadedConfig,
  options: CreateLeadAgentDepsOptions = {},
): Promise<LeadAgentResources> {
  const { config } = loaded;
  const logger = options.logger ?? silentLogger;
  const lookup = { cwd: path.resolve(options.cwd ?? process.cwd()), configDir: loaded.baseDir };

  const models = new ModelRegistry({
    models: config.models,
    defaultModel: config.defaultModel,
    ...lookup,
    env: options.env ?? process.env,
    logger,
  });
  for (const name of models.names()) await models.get(name);

  // Skills
  let skills: LeadAgentSkills | undefined;
  let catalog: SkillCatalog | undefined;
  let userSkills: UserSkillsStorage | undefined;
  const sk = config.skills;
  if (sk.enabled) {
    if (!isDirectory(sk.path)) {
      if (sk.pathConfigured) throw configInvalid(loaded, "skills.path", `folder not found: ${sk.path}`);
      logger.info({ path: sk.path }, "no skills folder; the agent runs without skills");
    } else {
      // DeerFlow's per-user skills: each user's custom skills under <data_dir>/users/<id>/skills. User
      // `default` (the operator's admin key, everyone while auth is off) owns <skills.path>/custom, so a
      // single-user deployment keeps its skills where they were; other users see that folder as
      // read-only `legacy` until they create their own.
      const storage = new UserSkillsStorage({
        root: sk.path,
        dataDir: config.storage.dataDir,
        extensionsConfigPath: config.extensionsConfigPath,
        containerBase: sk.containerPath,
        // The operator (plain API keys, auth off): the gateway's default user.
        legacyOwner: DEFAULT_USER_ID,
        staticScanner: await createScanners(config, lookup),
        logger,
      });
      userSkills = storage;
      const operator = storage.forUser(DEFAULT_USER_ID);
      catalog = operator.catalog;
      skills = {
        source: operator.catalog,
        containerBase: sk.containerPath,
        promptMode: sk.promptMode,
        ...(sk.skillManage.enabled ? { skillManage: operator.store } : {}),
        forUser: (userId) => {
          const user = storage.forUser(userId);
          return { source: user.catalog, skillManage: user.store };
        },
      };
    }
  }

  // Sandbox
  const sb = config.sandbox;
  let sandboxProvider: SandboxProvider;
  let isolated: boolean;
  const toolOptions: {
    -readonly [K in keyof Omit<SandboxToolsOptions, "sandbox" | "getSandbox">]: Omit<
      SandboxToolsOptions,
      "sandbox" | "getSandbox"
    >[K];
  } = {
    bashTimeoutMs: sb.commandTimeoutMs,
    logger,
  };
  if (sb.use.kind === "local") {
    const runner = options.runner ?? (await createDefaultRunner({ allowHostBash: sb.allowHostBash, logger }));
    isolated = runner.isolated;
    sandboxProvider = new LocalSandboxProvider({
      baseDir: config.storage.dataDir,
      runner,
      // Each user's sandboxes mount public + that user's custom (or legacy) skills, never another user's.
      ...(userSkills === undefined ? {} : { userSkillsMounts: userSkillsMountsOf(userSkills) }),
      mounts: sb.mounts.map((m) => ({ virtualPath: m.containerPath, hostPath: m.hostPath, readOnly: m.readOnly })),
      limits: sb.limits,
      network: sb.network,
      defaultTimeoutMs: sb.commandTimeoutMs,
      logger,
    });
  } else {
    sandboxProvider = await loadPlugin(sb.use.use, {
      ...lookup,
      options: { ...sb.options, logger },
      purpose: "sandbox provider",
      shape: "a SandboxProvider (acquire, get, release, shutdown)",
      check: isSandboxProvider,
    });
    isolated = true;
    // The tools cannot see a plugin's mounts: refuse writes into the read-only ones up front.
    toolOptions.readOnlyPaths = [sk.containerPath, ...sb.mounts.filter((m) => m.readOnly).map((m) => m.containerPath)];
  }

  // Subagents: the bash subagent only where commands really run (isolated, or host bash allowed).
  const sa = config.subagents;
  const subagents = sa.enabled
    ? {
        registry: new SubagentRegistry({
          config: {
            timeoutMs: sa.timeoutMs,
            ...(sa.maxTurns === undefined ? {} : { maxTurns: sa.maxTurns }),
            perAgent: sa.agents,
            customAgents: Object.fromEntries(Object.entries(sa.customAgents).map(([name, c]) => [name, { ...c }])),
          },
          hostShellAllowed: isolated || sb.allowHostBash,
        }),
        maxConcurrent: sa.maxConcurrent,
        maxTotal: sa.maxTotalPerRun,
      }
    : undefined;

  // MCP: the tools follow extensions_config.json per model call (no recompile); closed with the server.
  const mcp = new McpToolset({
    source: serverMcpSource(config.extensionsConfigPath, options.env ?? process.env),
    stdioWorkDir: threadMcpWorkDir(config.storage.dataDir),
    logger,
  });

  // tools: of config.yaml (web_search, web_fetch, image_search, plugin tools); the lead and its subagents get them.
  const configuredTools = await createConfiguredToolDeps(loaded, {
    logger,
    env: options.env ?? process.env,
    cwd: lookup.cwd,
  });

  const authorization = await loadServerAuthorization(config, lookup);
  const deps: LeadAgentOptions = {
    models,
    sandboxProvider,
    tools: configuredTools.tools(),
    toolFilters: [configuredTools.runFilter],
    sandboxTools: toolOptions,
    ...(skills === undefined ? {} : { skills }),
    ...(subagents === undefined ? {} : { subagents }),
    prompt: { agentName: config.agent.name },
    middleware: {
      ...config.resilience,
      ...config.contextMiddleware,
      ...titleMiddlewareOptions(config),
      ...(await safetyMiddlewareOptions(config, lookup)),
      ...toolAuthorizationOptions(authorization, config),
      mcpTools: createMcpToolsMiddleware({
        toolset: mcp,
        logger,
        ...(config.toolSearch === undefined ? {} : { toolSearch: config.toolSearch }),
      }),
    },
    logger,
  };
  return {
    deps,
    models,
    sandboxProvider,
    catalog,
    userSkills,
    isolated,
    mcp,
    authorization,
    async close() {
      catalog?.close();
      await Promise.all([sandboxProvider.shutdown(), mcp.close()]);
    },
  };
}
