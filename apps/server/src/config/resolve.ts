/**
 * Turns a validated `config.yaml` document (snake_case) into the typed
 * {@link ServerConfig}: defaults filled in, paths made absolute, `use:` values
 * parsed, cross-field rules checked, and the runtime's backing services
 * chosen (from the config, else from `REDIS_URL` / `DATABASE_URL`, else the
 * embedded defaults). Every choice is recorded in `provenance` for
 * `describeConfig`.
 */
import path from "node:path";
import { isUseSpec } from "../plugins/index.js";
import { parseByteSize } from "./body-limit.js";
import { CONFIG_DEFAULTS as D } from "./defaults.js";
import { configError, type ConfigProblem } from "./errors.js";
import { resolveAuth } from "./resolve-auth.js";
import { resolveAuthorization } from "./resolve-authorization.js";
import { resolveContext } from "./resolve-context.js";
import { thinkingSettings } from "./resolve-model-thinking.js";
import { resolveRuntime } from "./resolve-runtime.js";
import { resolveTitle } from "./resolve-title.js";
import { resolveMemory } from "./resolve-memory.js";
import { resolveSafety } from "./resolve-safety.js";
import { resolveTools } from "./resolve-tools.js";
import { resolveResilience } from "./resolve-resilience.js";
import type {
  CustomSubagentSettings,
  ModelConfig,
  ModelUse,
  ScannerUse,
  ServerConfig,
  SubagentOverrideSettings,
} from "./types.js";

/** Loosely typed view of a validated document. */
type Doc = Record<string, unknown>;

/** Options of {@link resolveConfig}. */
export interface ResolveOptions {
  readonly env: NodeJS.ProcessEnv;
  /** Folder relative paths are resolved against. */
  readonly baseDir: string;
  /** File label for messages. */
  readonly label: string;
}

/** Result of {@link resolveConfig}. */
export interface ResolvedConfig {
  readonly config: ServerConfig;
  /** Why each choice was made, keyed by section (`runtime.stream_bridge` → `environment (REDIS_URL is set)`). */
  readonly provenance: Readonly<Record<string, string>>;
}

const SUBAGENT_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const BUILTIN_SUBAGENTS = new Set(["general-purpose", "bash"]);

const section = (doc: Doc, key: string): Doc => (doc[key] as Doc | undefined) ?? {};
const opt = <K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } =>
  value === undefined ? {} : ({ [key]: value } as { [P in K]: V });
const secondsToMs = (s: number | undefined): number | undefined => (s === undefined ? undefined : Math.round(s * 1000));

/**
 * Resolves a validated document.
 *
 * @param doc - the document after env substitution and schema validation
 * @param options - environment, base folder, label
 * @returns the typed config and its provenance
 * @throws ServerConfigError `CONFIG_INVALID` listing every cross-field problem with its key path
 */
export function resolveConfig(doc: Doc, options: ResolveOptions): ResolvedConfig {
  const { env, baseDir, label } = options;
  const problems: ConfigProblem[] = [];
  const provenance: Record<string, string> = {};
  const problem = (p: string, message: string): void => void problems.push({ path: p, message });
  const abs = (p: string): string => path.resolve(baseDir, p);

  // storage first: other defaults live under the data dir.
  const storage = section(doc, "storage");
  const dataDir = abs((storage["data_dir"] as string | undefined) ?? D.dataDir);
  provenance["storage"] = storage["data_dir"] === undefined ? "default" : "config";

  // server
  const s = section(doc, "server");
  let bodyLimit: number = D.bodyLimitBytes;
  if (s["body_limit"] !== undefined) {
    const parsed = parseByteSize(s["body_limit"] as number | string);
    if (parsed === undefined) problem("server.body_limit", 'must be a positive number of bytes or a size like "10mb"');
    else bodyLimit = parsed;
  }
  const keyEntries =
    (s["api_keys"] as (string | { key: string; user_id: string; admin?: boolean; role?: string })[] | undefined) ?? [];
  const apiKeyUsers = keyEntries.flatMap((e) =>
    typeof e === "string"
      ? []
      : [{ key: e.key, userId: e.user_id, admin: e.admin ?? false, ...(e.role === undefined ? {} : { role: e.role }) }],
  );
  const server = {
    host: (s["host"] as string | undefined) ?? D.host,
    port: (s["port"] as number | undefined) ?? D.port,
    corsOrigins: (s["cors_origins"] as string[] | undefined) ?? [],
    apiKeys: keyEntries.map((e) => (typeof e === "string" ? e : e.key)),
    ...(apiKeyUsers.length === 0 ? {} : { apiKeyUsers }),
    bodyLimit,
  };

  // models
  const rawModels = (doc["models"] as Doc[] | undefined) ?? [];
  const models: ModelConfig[] = [];
  const seenNames = new Map<string, number>();
  rawModels.forEach((m, i) => {
    const at = `models[${i}]`;
    const name = m["name"] as string;
    const previous = seenNames.get(name);
    if (previous !== undefined) problem(`${at}.name`, `duplicate model name "${name}" (also models[${previous}])`);
    seenNames.set(name, i);
    const use = parseModelUse(m["use"] as string | undefined);
    if (use === undefined)
      problem(
        `${at}.use`,
        `must be "openai", "anthropic", "google", "demo" or "<module>:<export>", got "${String(m["use"])}"`,
      );
    if (use?.kind === "openai" && m["model"] === undefined)
      problem(`${at}.model`, "is required for OpenAI-compatible models (use: openai)");
    if ((use?.kind === "anthropic" || use?.kind === "google") && m["model"] === undefined)
      problem(`${at}.model`, `is required for use: ${use.kind}`);
    models.push({
      name,
      use: use ?? { kind: "openai" },
      supportsVision: (m["supports_vision"] as boolean | undefined) ?? false,
      supportsThinking: (m["supports_thinking"] as boolean | undefined) ?? false,
      options: (m["options"] as Record<string, unknown> | undefined) ?? {},
      ...opt("displayName", m["display_name"] as string | undefined),
      ...opt("description", m["description"] as string | undefined),
      ...opt("model", m["model"] as string | undefined),
      ...opt("baseUrl", m["base_url"] as string | undefined),
      ...opt("apiKey", m["api_key"] as string | undefined),
      ...opt("temperature", m["temperature"] as number | undefined),
      ...opt("maxTokens", m["max_tokens"] as number | undefined),
      ...opt("timeoutMs", secondsToMs(m["timeout_seconds"] as number | undefined)),
      ...opt("maxRetries", m["max_retries"] as number | undefined),
      ...opt("replayReasoning", m["replay_reasoning"] as boolean | undefined),
      ...thinkingSettings(m),
    });
  });
  if (models.length === 0) {
    models.push({
      name: D.demoModelName,
      use: { kind: "demo" },
      supportsVision: false,
      supportsThinking: false,
      options: {},
      displayName: "Demo (offline)",
    });
    provenance["models"] = "default (no models configured: the offline demo model)";
  } else {
    provenance["models"] = "config";
  }
  const modelNames = models.map((m) => m.name);
  let defaultModel = doc["default_model"] as string | undefined;
  if (defaultModel === undefined) {
    defaultModel = models[0]?.name ?? D.demoModelName;
    provenance["default_model"] = "default (the first model)";
  } else {
    provenance["default_model"] = "config";
    if (!modelNames.includes(defaultModel))
      problem("default_model", `unknown model "${defaultModel}" (configured: ${modelNames.join(", ")})`);
  }

  // sandbox
  const sb = section(doc, "sandbox");
  const sbUse = sb["use"] as string | undefined;
  let sandboxUse: ServerConfig["sandbox"]["use"] = { kind: "local" };
  if (sbUse !== undefined && sbUse !== "local") {
    if (isUseSpec(sbUse)) sandboxUse = { kind: "plugin", use: sbUse };
    else problem("sandbox.use", `must be "local" or "<module>:<export>", got "${sbUse}"`);
  }
  provenance["sandbox"] = sbUse === undefined ? "default" : "config";
  const limits = section(sb, "limits");
  const sandbox = {
    use: sandboxUse,
    allowHostBash: (sb["allow_host_bash"] as boolean | undefined) ?? false,
    network: (sb["network"] as boolean | undefined) ?? false,
    commandTimeoutMs:
      secondsToMs((sb["command_timeout_seconds"] as number | undefined) ?? D.sandboxCommandTimeoutSeconds) ?? 0,
    mounts: ((sb["mounts"] as Doc[] | undefined) ?? []).map((m) => ({
      hostPath: abs(m["host_path"] as string),
      containerPath: m["container_path"] as string,
      readOnly: (m["read_only"] as boolean | undefined) ?? false,
    })),
    limits: {
      ...opt("cpuSeconds", limits["cpu_seconds"] as number | undefined),
      ...opt("memoryBytes", limits["memory_bytes"] as number | undefined),
      ...opt("fileSizeBytes", limits["file_size_bytes"] as number | undefined),
      ...opt("processes", limits["processes"] as number | undefined),
      ...opt("openFiles", limits["open_files"] as number | undefined),
      ...opt("tmpBytes", limits["tmp_bytes"] as number | undefined),
      ...opt("cpuWeight", limits["cpu_weight"] as number | undefined),
      ...opt("diskBytes", limits["disk_bytes"] as number | undefined),
      ...opt("diskFiles", limits["disk_files"] as number | undefined),
    },
    options: (sb["options"] as Record<string, unknown> | undefined) ?? {},
  };

  // skills
  const sk = section(doc, "skills");
  const scanners: ScannerUse[] = [];
  ((sk["scanners"] as string[] | undefined) ?? ["static"]).forEach((u, i) => {
    if (u === "static") scanners.push({ kind: "static" });
    else if (isUseSpec(u)) scanners.push({ kind: "plugin", use: u });
    else problem(`skills.scanners[${i}]`, `must be "static" or "<module>:<export>", got "${u}"`);
  });
  const skills = {
    enabled: (sk["enabled"] as boolean | undefined) ?? true,
    path: abs((sk["path"] as string | undefined) ?? D.skillsPath),
    pathConfigured: sk["path"] !== undefined,
    containerPath: ((sk["container_path"] as string | undefined) ?? D.skillsContainerPath).replace(/\/+$/, "") || "/",
    promptMode: (sk["prompt_mode"] as "full" | "deferred" | "auto" | undefined) ?? D.skillsPromptMode,
    scanners,
    skillManage: { enabled: (section(sk, "skill_manage")["enabled"] as boolean | undefined) ?? false },
  };
  provenance["skills"] = Object.keys(sk).length === 0 ? "default" : "config";

  // subagents
  const sa = section(doc, "subagents");
  const checkModelRef = (p: string, name: string | undefined): void => {
    if (name !== undefined && name !== "inherit" && !modelNames.includes(name))
      problem(p, `unknown model "${name}" (configured: ${modelNames.join(", ")}, or "inherit")`);
  };
  const agents: Record<string, SubagentOverrideSettings> = {};
  for (const [name, raw] of Object.entries(section(sa, "agents"))) {
    const o = raw as Doc;
    checkModelRef(`subagents.agents.${name}.model`, o["model"] as string | undefined);
    agents[name] = {
      ...opt("timeoutMs", secondsToMs(o["timeout_seconds"] as number | undefined)),
      ...opt("maxTurns", o["max_turns"] as number | undefined),
      ...opt("model", o["model"] as string | undefined),
    };
  }
  const customAgents: Record<string, CustomSubagentSettings> = {};
  for (const [name, raw] of Object.entries(section(sa, "custom_agents"))) {
    const o = raw as Doc;
    const at = `subagents.custom_agents.${name}`;
    if (!SUBAGENT_NAME.test(name))
      problem(at, "subagent names must be hyphen-case (lowercase letters, digits and single hyphens)");
    if (BUILTIN_SUBAGENTS.has(name))
      problem(
        at,
        `"${name}" is a built-in subagent and cannot be redefined (use subagents.agents.${name} to override its limits)`,
      );
    checkModelRef(`${at}.model`, o["model"] as string | undefined);
    customAgents[name] = {
      description: o["description"] as string,
      systemPrompt: o["system_prompt"] as string,
      ...opt("tools", o["tools"] as string[] | undefined),
      ...opt("disallowedTools", o["disallowed_tools"] as string[] | undefined),
      ...opt("model", o["model"] as string | undefined),
      ...opt("maxTurns", o["max_turns"] as number | undefined),
      ...opt("timeoutMs", secondsToMs(o["timeout_seconds"] as number | undefined)),
    };
  }
  const subagents = {
    enabled: (sa["enabled"] as boolean | undefined) ?? true,
    maxConcurrent: (sa["max_concurrent"] as number | undefined) ?? D.subagentMaxConcurrent,
    maxTotalPerRun: (sa["max_total_per_run"] as number | undefined) ?? D.subagentMaxTotalPerRun,
    timeoutMs: secondsToMs((sa["timeout_seconds"] as number | undefined) ?? D.subagentTimeoutSeconds) ?? 0,
    ...opt("maxTurns", sa["max_turns"] as number | undefined),
    agents,
    customAgents,
  };
  provenance["subagents"] = Object.keys(sa).length === 0 ? "default" : "config";

  const runtime = resolveRuntime(section(doc, "runtime"), { env, abs, dataDir, problem, provenance });

  const ag = section(doc, "agent");
  const agent = {
    name: (ag["name"] as string | undefined) ?? D.agentName,
  };
  const resilience = resolveResilience(doc, modelNames, problem);
  const title = resolveTitle(doc, modelNames, problem);
  const memory = resolveMemory(doc, modelNames, problem);
  const uploads = {
    autoConvertDocuments: (section(doc, "uploads")["auto_convert_documents"] as boolean | undefined) ?? false,
  };
  const context = resolveContext(doc, modelNames, problem);
  const extensionsConfigPath = abs((doc["extensions_config"] as string | undefined) ?? D.extensionsConfigFile);
  const safety = resolveSafety(doc, problem);
  const authorization = resolveAuthorization(doc, problem);
  const ts = section(doc, "tool_search");
  const toolSearch = {
    enabled: (ts["enabled"] as boolean | undefined) ?? false,
    autoTokenBudget: (ts["auto_token_budget"] as number | undefined) ?? 10_000,
  };

  const tools = resolveTools(doc, problem);
  const auth = resolveAuth(doc, env, problem, provenance);
  const customAgentSettings = {
    apiEnabled: (section(doc, "agents_api")["enabled"] as boolean | undefined) ?? false,
    storage: (section(doc, "agent_storage")["backend"] ?? "file") === "file" ? ("file" as const) : ("store" as const),
  };

  if (problems.length > 0) throw configError("CONFIG_INVALID", label, problems);
  return {
    config: {
      tools,
      server,
      models,
      defaultModel,
      sandbox,
      skills,
      subagents,
      runtime,
      storage: { dataDir },
      agent,
      title,
      memory,
      uploads,
      resilience,
      extensionsConfigPath,
      toolSearch,
      authorization,
      auth,
      customAgents: customAgentSettings,
      ...context,
      ...safety,
    },
    provenance,
  };
}

function parseModelUse(use: string | undefined): ModelUse | undefined {
  if (use === undefined || use === "openai") return { kind: "openai" };
  if (use === "demo") return { kind: "demo" };
  if (use === "anthropic" || use === "google") return { kind: use };
  return isUseSpec(use) ? { kind: "plugin", use } : undefined;
}
