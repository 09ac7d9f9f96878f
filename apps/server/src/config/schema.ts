/**
 * JSON Schema (draft 07, validated with ajv) of `config.yaml`. Keys are
 * snake_case as written in YAML. Every object refuses unknown keys, except the
 * `options` objects, which are handed as they are to a `use:` plugin.
 * Defaults are not in the schema: they depend on the environment and the
 * config file's folder, so `resolveConfig` fills them in.
 */

import { authSchema } from "./auth-schema.js";
import { OIDC_SCHEMA } from "./oidc-schema.js";
import { MEMORY_SCHEMA } from "./memory-schema.js";

type Schema = Record<string, unknown>;

const str = (extra: Schema = {}): Schema => ({ type: "string", ...extra });
const nonEmpty = (extra: Schema = {}): Schema => str({ minLength: 1, ...extra });
const int = (minimum: number, extra: Schema = {}): Schema => ({ type: "integer", minimum, ...extra });
const num = (extra: Schema = {}): Schema => ({ type: "number", ...extra });
const bool = (): Schema => ({ type: "boolean" });
const list = (items: Schema, extra: Schema = {}): Schema => ({ type: "array", items, ...extra });
const obj = (properties: Record<string, Schema>, required: readonly string[] = []): Schema => ({
  type: "object",
  properties,
  additionalProperties: false,
  ...(required.length > 0 ? { required: [...required] } : {}),
});
const map = (values: Schema): Schema => ({ type: "object", additionalProperties: values });
/** Free-form options for a `use:` plugin. */
const pluginOptions = (): Schema => ({ type: "object" });
/** `"<module specifier>:<export name>"` or a built-in keyword; checked in detail by the resolver. */
const use = (): Schema => nonEmpty();
/** DeerFlow's `ContextSize` (`summarization.trigger` / `keep`); ranges per type are checked by the resolver. */
const contextSize = (): Schema =>
  obj({ type: { enum: ["tokens", "messages", "fraction"] }, value: num({ minimum: 0 }) }, ["type", "value"]);

const model = obj(
  {
    name: nonEmpty(),
    display_name: str(),
    description: str(),
    use: use(),
    model: nonEmpty(),
    base_url: nonEmpty(),
    api_key: str(),
    temperature: num({ minimum: 0, maximum: 2 }),
    max_tokens: int(1),
    timeout_seconds: num({ exclusiveMinimum: 0 }),
    max_retries: int(0),
    supports_vision: bool(),
    supports_thinking: bool(),
    supports_reasoning_effort: bool(),
    when_thinking_enabled: pluginOptions(),
    when_thinking_disabled: pluginOptions(),
    thinking: pluginOptions(),
    reasoning_effort: { enum: ["none", "minimal", "low", "medium", "high"] },
    context_window: int(1),
    replay_reasoning: bool(),
    options: pluginOptions(),
  },
  ["name"],
);

const server = obj({
  host: nonEmpty(),
  port: int(0, { maximum: 65535 }),
  cors_origins: list(nonEmpty()),
  // A string (the operator's admin key, user "default") or a key of one user (the gateway's user id pattern).
  api_keys: list({
    oneOf: [
      nonEmpty(),
      obj(
        {
          key: nonEmpty(),
          user_id: nonEmpty({ pattern: "^[A-Za-z0-9_.-]{1,128}$" }),
          admin: bool(),
          // The key's role for `authorization:` (default: admin or user by `admin`); the gateway's role pattern.
          role: nonEmpty({ pattern: "^[A-Za-z0-9_.:-]{1,64}$" }),
        },
        ["key", "user_id"],
      ),
    ],
  }),
  body_limit: { type: ["integer", "string"] },
});

const sandbox = obj({
  use: use(),
  allow_host_bash: bool(),
  network: bool(),
  command_timeout_seconds: num({ exclusiveMinimum: 0 }),
  mounts: list(
    obj({ host_path: nonEmpty(), container_path: nonEmpty({ pattern: "^/" }), read_only: bool() }, [
      "host_path",
      "container_path",
    ]),
  ),
  limits: obj({
    cpu_seconds: int(0),
    memory_bytes: int(0),
    file_size_bytes: int(0),
    processes: int(0),
    open_files: int(0),
    tmp_bytes: int(0),
    cpu_weight: int(1, { maximum: 10_000 }),
    disk_bytes: int(0),
    disk_files: int(0),
  }),
  options: pluginOptions(),
});

const skills = obj({
  enabled: bool(),
  path: nonEmpty(),
  container_path: nonEmpty({ pattern: "^/" }),
  prompt_mode: { enum: ["full", "deferred", "auto"] },
  scanners: list(nonEmpty()),
  skill_manage: obj({ enabled: bool() }),
});

const subagentOverride = obj({ timeout_seconds: int(1), max_turns: int(1), model: nonEmpty() });
const customSubagent = obj(
  {
    description: nonEmpty(),
    system_prompt: nonEmpty(),
    tools: list(nonEmpty()),
    disallowed_tools: list(nonEmpty()),
    model: nonEmpty(),
    max_turns: int(1),
    timeout_seconds: int(1),
  },
  ["description", "system_prompt"],
);

const subagents = obj({
  enabled: bool(),
  max_concurrent: int(1, { maximum: 4 }),
  max_total_per_run: int(1, { maximum: 50 }),
  timeout_seconds: int(1),
  max_turns: int(1),
  agents: map(subagentOverride),
  custom_agents: map(customSubagent),
});

const runtime = obj({
  stream_bridge: obj({
    use: use(),
    type: { enum: ["memory", "redis"] },
    redis_url: nonEmpty(),
    max_events_per_run: int(1),
    options: pluginOptions(),
  }),
  run_store: obj({
    use: use(),
    type: { enum: ["memory", "file", "postgres"] },
    path: nonEmpty(),
    database_url: nonEmpty(),
    options: pluginOptions(),
  }),
  checkpointer: obj({
    use: use(),
    type: { enum: ["memory", "file", "postgres"] },
    path: nonEmpty(),
    database_url: nonEmpty(),
    schema: nonEmpty({ pattern: "^[A-Za-z_][A-Za-z0-9_]{0,62}$" }),
    options: pluginOptions(),
    durability: { enum: ["sync", "async", "exit"] },
  }),
  retention: obj({ finished_runs_seconds: int(0), stream_replay_seconds: int(0) }),
});

/** The JSON Schema of `config.yaml`. */
export const CONFIG_SCHEMA: Schema = obj({
  server,
  models: list(model),
  default_model: nonEmpty(),
  sandbox,
  skills,
  subagents,
  runtime,
  storage: obj({ data_dir: nonEmpty() }),
  agent: obj({ name: nonEmpty() }),
  llm_call: obj({
    retry_max_attempts: int(1, { maximum: 10 }),
    retry_base_delay_ms: int(0),
    retry_cap_delay_ms: int(0),
    burst_retry_base_delay_ms: int(0),
    fallback_models: list(nonEmpty()),
  }),
  circuit_breaker: obj({ failure_threshold: int(1), recovery_timeout_sec: num({ minimum: 0 }) }),
  loop_detection: obj({
    enabled: bool(),
    warn_threshold: int(1),
    hard_limit: int(1),
    window_size: int(1),
    tool_freq_warn: int(1),
    tool_freq_hard_limit: int(1),
    tool_freq_overrides: map(obj({ warn: int(1), hard_limit: int(1) }, ["warn", "hard_limit"])),
  }),
  safety_finish_reason: obj({ enabled: bool() }),
  summarization: obj({
    enabled: bool(),
    model_name: { type: ["string", "null"], minLength: 1 },
    trigger: { anyOf: [{ type: "null" }, contextSize(), list(contextSize())] },
    keep: contextSize(),
    trim_tokens_to_summarize: int(0),
    summary_prompt: { type: ["string", "null"] },
  }),
  tool_output: obj({
    enabled: bool(),
    externalize_min_chars: int(1),
    fallback_max_chars: int(1),
    exempt_tools: list(nonEmpty()),
    tool_overrides: map(int(1)),
  }),
  token_usage: obj({ enabled: bool() }),
  token_budget: obj({
    enabled: bool(),
    max_tokens: int(1000),
    max_input_tokens: { type: ["integer", "null"], minimum: 1 },
    max_output_tokens: { type: ["integer", "null"], minimum: 1 },
    warn_threshold: num({ exclusiveMinimum: 0, maximum: 1 }),
    hard_stop_threshold: num({ exclusiveMinimum: 0 }),
  }),
  uploads: obj({ auto_convert_documents: bool() }),
  title: obj({
    enabled: bool(),
    max_words: int(1, { maximum: 20 }),
    max_chars: int(10, { maximum: 200 }),
    model_name: nonEmpty(),
    prompt_template: nonEmpty(),
  }),
  read_before_write: obj({ enabled: bool() }),
  guardrails: obj({
    enabled: bool(),
    fail_closed: bool(),
    passport: nonEmpty(),
    provider: obj({ use: use(), config: pluginOptions() }, ["use"]),
    require_approval: list(nonEmpty()),
  }),
  // DeerFlow's RBAC; provider.config is checked by its provider (rbac: in resolve-authorization.ts, with key paths).
  authorization: obj({
    enabled: bool(),
    fail_closed: bool(),
    default_role: nonEmpty(),
    provider: obj({ use: use(), config: pluginOptions() }, ["use"]),
  }),
  // DeerFlow's deferred MCP tools (§2.5); auto_token_budget is ours: defer above this many schema tokens (0 = never).
  tool_search: obj({ enabled: bool(), auto_promote_top_k: int(1), auto_token_budget: int(0) }),
  // Entries are checked per provider by @deerflow/tools (resolve-tools.ts), with their key paths.
  tools: list({ type: "object" }),
  tool_groups: list({ type: "object" }),
  extensions_config: nonEmpty(),
  memory: MEMORY_SCHEMA,
  // Custom agents (§7): the HTTP routes (off by default, as DeerFlow) and where agents live (DeerFlow's `db` = our graph store).
  agents_api: obj({ enabled: bool() }),
  agent_storage: obj({ backend: { enum: ["file", "store", "db"] } }),
  // `auth.oidc` is checked in detail by its own resolver.
  auth: authSchema(OIDC_SCHEMA),
});

/**
 * The JSON types a schema allows at a key path (for turning `port: ${PORT}`
 * into a number). Unknown paths give an empty set.
 *
 * @param schema - a schema built like {@link CONFIG_SCHEMA}
 * @param path - keys and indexes
 * @returns the allowed `type` values
 */
export function schemaTypesAt(schema: Schema, path: readonly (string | number)[]): Set<string> {
  let node: Schema | undefined = schema;
  for (const segment of path) {
    if (node === undefined) return new Set();
    if (typeof segment === "number") {
      node = node["items"] as Schema | undefined;
      continue;
    }
    const props = node["properties"] as Record<string, Schema> | undefined;
    const additional = node["additionalProperties"];
    node =
      props?.[segment] ?? (typeof additional === "object" && additional !== null ? (additional as Schema) : undefined);
  }
  const type = node?.["type"];
  return new Set(typeof type === "string" ? [type] : Array.isArray(type) ? (type as string[]) : []);
}
