/**
 * `describeConfig`: one line per resolved choice, for startup logs. Secrets
 * (API keys, passwords in URLs) are masked; plugin options are not printed.
 */
import { existsSync } from "node:fs";
import type { LoadedConfig } from "./load-config.js";
import { maskSecret, maskUrl } from "./mask.js";
import type { CheckpointerSettings, ModelConfig, RunStoreSettings, StreamBridgeSettings } from "./types.js";

function modelLine(m: ModelConfig, isDefault: boolean): string {
  const tag = isDefault ? " (default)" : "";
  switch (m.use.kind) {
    case "demo":
      return `model "${m.name}"${tag}: the offline demo model (canned answers, no provider)`;
    case "plugin":
      return `model "${m.name}"${tag}: plugin ${m.use.use}${m.model === undefined ? "" : ` model ${m.model}`}`;
    case "openai": {
      const key = m.apiKey !== undefined ? `api key ${maskSecret(m.apiKey)}` : "api key from OPENAI_API_KEY";
      return `model "${m.name}"${tag}: OpenAI-compatible ${m.model ?? "?"} at ${m.baseUrl ?? "the OpenAI API"}, ${key}`;
    }
    case "anthropic":
    case "google": {
      const variable = m.use.kind === "anthropic" ? "ANTHROPIC_API_KEY" : "GOOGLE_API_KEY";
      const key = m.apiKey !== undefined ? `api key ${maskSecret(m.apiKey)}` : `api key from ${variable}`;
      return `model "${m.name}"${tag}: ${m.use.kind === "anthropic" ? "Anthropic" : "Google Gemini"} ${m.model ?? "?"} at ${m.baseUrl === undefined ? "the provider's API" : maskUrl(m.baseUrl)}, ${key}`;
    }
  }
}

function bridgeText(b: StreamBridgeSettings): string {
  if (b.type === "plugin") return `plugin ${b.use}`;
  if (b.type === "redis") return `redis ${maskUrl(b.redisUrl)}`;
  return "memory (this process only)";
}

function storeText(s: RunStoreSettings | CheckpointerSettings): string {
  if (s.type === "plugin") return `plugin ${s.use}`;
  if (s.type === "postgres") return `postgres ${maskUrl(s.databaseUrl)}`;
  if (s.type === "file") return `file ${s.path}`;
  return "memory (lost on restart)";
}

/**
 * Summarises a loaded configuration for the startup log.
 *
 * @param loaded - result of `loadConfig`
 * @returns human-readable lines, each naming a choice and why it was made
 * @example
 * ```ts
 * for (const line of describeConfig(await loadConfig())) logger.info({}, line);
 * ```
 */
export function describeConfig(loaded: LoadedConfig): string[] {
  const { config: c, provenance: p, extensions } = loaded;
  const why = (key: string): string => (p[key] === undefined ? "" : ` [${p[key]}]`);
  const lines: string[] = [];
  lines.push(`config: ${loaded.file ?? "no config.yaml found; using embedded defaults"}`);
  const s = c.server;
  lines.push(
    `server: ${s.host}:${s.port}, CORS ${s.corsOrigins.length === 0 ? "off" : s.corsOrigins.join(", ")}, ` +
      `${s.apiKeys.length === 0 ? "no API keys (unauthenticated)" : `${s.apiKeys.length} API key(s) ${s.apiKeys.map(maskSecret).join(", ")}`}, body limit ${s.bodyLimit} bytes`,
  );
  for (const m of c.models)
    lines.push(modelLine(m, m.name === c.defaultModel) + (m === c.models[0] ? why("models") : ""));

  const sb = c.sandbox;
  const sandboxKind =
    sb.use.kind === "local" ? `local (per-thread folders under ${c.storage.dataDir})` : `plugin ${sb.use.use}`;
  lines.push(
    `sandbox: ${sandboxKind}, host bash ${sb.allowHostBash ? "ALLOWED when bubblewrap is unavailable (not isolated)" : "disabled"}, network ${sb.network ? "on" : "off"}, ` +
      `${sb.mounts.length} extra mount(s), command timeout ${Math.round(sb.commandTimeoutMs / 1000)} s${why("sandbox")}`,
  );

  const sk = c.skills;
  lines.push(
    sk.enabled
      ? `skills: root ${sk.path}${existsSync(sk.path) ? "" : " (missing: no skills)"} at ${sk.containerPath} (read-only), prompt ${sk.promptMode}, scanners ${sk.scanners.map((x) => (x.kind === "static" ? "static" : x.use)).join(", ") || "none"}, skill_manage ${sk.skillManage.enabled ? "on" : "off"}${why("skills")}`
      : "skills: disabled",
  );
  const states = [...extensions.skillStates.entries()];
  const disabled = states.filter(([, on]) => !on).map(([n]) => n);
  const mcp = Object.entries(extensions.mcpServers);
  lines.push(
    `extensions: ${extensions.exists ? extensions.path : `${extensions.path} (not present: every skill enabled)`}${why("extensions_config")}` +
      `${disabled.length > 0 ? `, disabled skills: ${disabled.join(", ")}` : ""}` +
      `${mcp.length > 0 ? `, MCP servers: ${mcp.map(([n, e]) => `${n}${e.enabled ? "" : " (disabled)"}`).join(", ")} (not used by the agent yet)` : ""}`,
  );

  const sa = c.subagents;
  const custom = Object.keys(sa.customAgents);
  lines.push(
    sa.enabled
      ? `subagents: on, ${sa.maxConcurrent} task call(s) per response, ${sa.maxTotalPerRun} per run, timeout ${Math.round(sa.timeoutMs / 1000)} s${custom.length > 0 ? `, custom: ${custom.join(", ")}` : ""}${why("subagents")}`
      : "subagents: off",
  );

  const rt = c.runtime;
  lines.push(`stream bridge: ${bridgeText(rt.streamBridge)}${why("runtime.stream_bridge")}`);
  lines.push(`run store: ${storeText(rt.runStore)}${why("runtime.run_store")}`);
  lines.push(`checkpointer: ${storeText(rt.checkpointer)}${why("runtime.checkpointer")}`);
  lines.push(
    `retention: finished runs ${rt.retention.finishedRunsMs / 1000} s, streams replayable ${rt.retention.streamReplayMs / 1000} s after the end`,
  );
  lines.push(`storage: data dir ${c.storage.dataDir}${why("storage")}`);
  const auth = c.auth;
  lines.push(
    auth?.enabled === true
      ? `auth: accounts on (sessions ${auth.tokenExpiryDays} day(s), registration ${auth.allowRegistration ? "open" : "closed"}, cookies ${auth.cookieSecure ? "always Secure" : "Secure over HTTPS"}${auth.allowedOrigins.length > 0 ? `, other origins: ${auth.allowedOrigins.join(", ")}` : ""})${why("auth")}`
      : `auth: accounts off${why("auth")}`,
  );
  lines.push(`agent: "${c.agent.name}"`);
  // Tool names and providers only: options may hold API keys.
  const tools = c.tools?.tools ?? [];
  if (tools.length > 0) lines.push(`tools: ${tools.map((t) => `${t.name} (${t.use}, group ${t.group})`).join(", ")}`);
  return lines;
}
