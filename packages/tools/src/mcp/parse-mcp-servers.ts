/**
 * `mcpServers` of `extensions_config.json` (snake_case, DeerFlow's keys) to
 * {@link McpServerSpec}s, with DeerFlow's substitution: a string whose whole
 * value starts with `$` is replaced by that environment variable (unset = "").
 */
import { McpError } from "./errors.js";
import type { McpOAuthSpec, McpServerSpec, McpTransportType } from "./server-spec.js";

function substitute(value: unknown, env: NodeJS.ProcessEnv): unknown {
  if (typeof value === "string") return value.startsWith("$") ? (env[value.slice(1)] ?? "") : value;
  if (Array.isArray(value)) return value.map((v) => substitute(v, env));
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, env)]));
  return value;
}

const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
const strMap = (v: unknown): Record<string, string> | undefined =>
  v !== null && typeof v === "object" && !Array.isArray(v)
    ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, String(x)]))
    : undefined;

/** Drops `undefined` values, so optional keys are absent rather than undefined. */
function defined<T>(o: Record<string, unknown>): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

function parseOAuth(v: unknown): McpOAuthSpec | undefined {
  if (v === null || typeof v !== "object") return undefined;
  const o = v as Record<string, unknown>;
  const tokenUrl = str(o["token_url"]);
  if (tokenUrl === undefined) return undefined;
  return defined<McpOAuthSpec>({
    enabled: typeof o["enabled"] === "boolean" ? o["enabled"] : undefined,
    tokenUrl,
    grantType: o["grant_type"] === "refresh_token" ? ("refresh_token" as const) : undefined,
    clientId: str(o["client_id"]),
    clientSecret: str(o["client_secret"]),
    refreshToken: str(o["refresh_token"]),
    scope: str(o["scope"]),
    audience: str(o["audience"]),
    tokenField: str(o["token_field"]),
    tokenTypeField: str(o["token_type_field"]),
    expiresInField: str(o["expires_in_field"]),
    defaultTokenType: str(o["default_token_type"]),
    refreshSkewSeconds: num(o["refresh_skew_seconds"]),
    extraTokenParams: strMap(o["extra_token_params"]),
  });
}

/**
 * Parses the `mcpServers` map.
 *
 * @param raw - the value of `mcpServers` (absent = no servers)
 * @param env - environment for `$VAR` values (enabled servers only, so a disabled server's missing secret is harmless)
 * @returns the specs by name
 * @throws McpError `MCP_CONFIG_INVALID` when `mcpServers` or an entry is not an object
 */
export function parseMcpServers(raw: unknown, env: NodeJS.ProcessEnv = process.env): Record<string, McpServerSpec> {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== "object" || Array.isArray(raw))
    throw new McpError("MCP_CONFIG_INVALID", "mcpServers must be an object of server entries");
  const out: Record<string, McpServerSpec> = {};
  for (const [name, entry] of Object.entries(raw)) {
    if (entry === null || typeof entry !== "object" || Array.isArray(entry))
      throw new McpError("MCP_CONFIG_INVALID", `mcpServers.${name} must be an object`);
    const enabled = (entry as Record<string, unknown>)["enabled"] !== false;
    const e = (enabled ? substitute(entry, env) : entry) as Record<string, unknown>;
    const type = str(e["type"]) ?? str(e["transport"]) ?? (str(e["url"]) === undefined ? "stdio" : "http");
    out[name] = defined<McpServerSpec>({
      enabled,
      type: (type === "streamable_http" || type === "streamable-http" ? "http" : type) as McpTransportType,
      command: str(e["command"]),
      args: Array.isArray(e["args"]) ? e["args"].map(String) : undefined,
      env: strMap(e["env"]),
      cwd: str(e["cwd"]),
      url: str(e["url"]),
      headers: strMap(e["headers"]),
      oauth: parseOAuth(e["oauth"]),
      description: str(e["description"]),
      toolNamePrefix: typeof e["tool_name_prefix"] === "boolean" ? e["tool_name_prefix"] : undefined,
      toolCallTimeout: num(e["tool_call_timeout"]),
      sessionInitTimeout: e["session_init_timeout"] === null ? Infinity : num(e["session_init_timeout"]),
    });
  }
  return out;
}
