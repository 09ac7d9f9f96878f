/**
 * A custom agent's `config.yaml` (DeerFlow's `AgentConfig`, §7): the rules of
 * its name and fields, shared by every {@link AgentStore} and by the tools and
 * routes that write it. Unknown top-level keys (DeerFlow's `github:` block, a
 * future field) are kept verbatim in `extra`, so a rewrite never drops what an
 * operator wrote by hand; unknown `model_settings` keys are refused, so a stray
 * key never reaches a provider request.
 */
import { AgentError } from "../errors.js";

/** DeerFlow's agent name rule (letters, digits and hyphens); names are stored lowercase. */
export const AGENT_NAME_PATTERN = /^[A-Za-z0-9-]+$/;

/** Upper bound of `model_settings.max_tokens` (DeerFlow's `MAX_AGENT_OUTPUT_TOKENS`). */
export const MAX_AGENT_OUTPUT_TOKENS = 200_000;

/** Longest accepted name (a path segment; DeerFlow has no bound, file systems do). */
const MAX_AGENT_NAME_LENGTH = 128;

/** Per-agent sampling overrides layered on the model's profile. */
export interface AgentModelSettings {
  /** 0..2. */
  readonly temperature?: number;
  /** 1..{@link MAX_AGENT_OUTPUT_TOKENS}. */
  readonly max_tokens?: number;
}

/** `low`, `medium` or `high`. */
export type AgentReasoningEffort = "low" | "medium" | "high";

/** A custom agent's configuration, with DeerFlow's (wire and file) key names. */
export interface AgentConfig {
  /** Lowercase name (the folder / record key). */
  readonly name: string;
  readonly description: string;
  /** A configured model; `null`: the request's or the default. */
  readonly model: string | null;
  /** Tool-group whitelist; `null`: all groups. */
  readonly tool_groups: readonly string[] | null;
  /** Skill whitelist; `null`: all enabled skills, `[]`: none. */
  readonly skills: readonly string[] | null;
  readonly model_settings: AgentModelSettings | null;
  /** Thinking default of the agent's runs (a request's `thinking_enabled` wins). */
  readonly thinking_enabled: boolean | null;
  readonly reasoning_effort: AgentReasoningEffort | null;
  /** Top-level keys this package does not manage (e.g. DeerFlow's `github:`), kept as written. */
  readonly extra?: Readonly<Record<string, unknown>>;
}

/** The managed fields a create or update may set (`name` comes from the path, never a body). */
export type AgentConfigFields = Partial<Omit<AgentConfig, "name" | "extra">>;

/** Keys of {@link AgentConfigFields}. */
export const MANAGED_AGENT_FIELDS = [
  "description",
  "model",
  "tool_groups",
  "skills",
  "model_settings",
  "thinking_enabled",
  "reasoning_effort",
] as const;

/**
 * DeerFlow's 422 text for a name that breaks the rule.
 *
 * @param name - the name as given
 * @returns the message
 */
export function invalidAgentNameText(name: string): string {
  return `Invalid agent name '${name}'. Must match ^[A-Za-z0-9-]+$ (letters, digits, and hyphens only).`;
}

/**
 * Checks and normalises an agent name: the rule, a length bound, lowercase.
 * Anything that could be a path (`..`, `/`, `\`, NUL, an empty string) fails the rule.
 *
 * @param name - a name from a request, a run's context or a folder
 * @returns the lowercase name
 * @throws {@link AgentError} `AGENT_NAME_INVALID`
 * @example
 * ```ts
 * normalizeAgentName("Code-Reviewer"); // "code-reviewer"
 * ```
 */
export function normalizeAgentName(name: unknown): string {
  if (typeof name !== "string" || name.length > MAX_AGENT_NAME_LENGTH || !AGENT_NAME_PATTERN.test(name)) {
    const shown = typeof name === "string" ? name.slice(0, MAX_AGENT_NAME_LENGTH) : String(name);
    throw new AgentError("AGENT_NAME_INVALID", invalidAgentNameText(shown), { details: { name: shown } });
  }
  return name.toLowerCase();
}

function invalid(name: string, message: string): AgentError {
  return new AgentError("AGENT_CONFIG_INVALID", `Agent '${name}': ${message}`, { details: { name } });
}

const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === "string");

function modelSettingsOf(name: string, raw: unknown): AgentModelSettings | null {
  if (raw === null || raw === undefined) return null;
  if (typeof raw !== "object" || Array.isArray(raw)) throw invalid(name, "model_settings must be an object");
  const settings: { temperature?: number; max_tokens?: number } = {};
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    if (value === null || value === undefined) continue;
    if (key === "temperature") {
      if (typeof value !== "number" || !(value >= 0 && value <= 2))
        throw invalid(name, `model_settings.temperature must be a number from 0 to 2, got ${JSON.stringify(value)}`);
      settings.temperature = value;
    } else if (key === "max_tokens") {
      if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > MAX_AGENT_OUTPUT_TOKENS)
        throw invalid(
          name,
          `model_settings.max_tokens must be an integer from 1 to ${MAX_AGENT_OUTPUT_TOKENS}, got ${JSON.stringify(value)}`,
        );
      settings.max_tokens = value;
    } else throw invalid(name, `model_settings.${key} is not allowed (allowed: temperature, max_tokens)`);
  }
  return Object.keys(settings).length === 0 ? null : settings;
}

/**
 * Checks the managed fields of a create or update (absent keys stay absent; `null` clears).
 *
 * @param name - the agent (for messages)
 * @param raw - the fields
 * @returns the checked fields
 * @throws {@link AgentError} `AGENT_CONFIG_INVALID` naming the field
 */
export function checkAgentFields(name: string, raw: Readonly<Record<string, unknown>>): AgentConfigFields {
  const out: { -readonly [K in keyof AgentConfigFields]: AgentConfigFields[K] } = {};
  const has = (key: string): boolean => Object.hasOwn(raw, key) && raw[key] !== undefined;
  if (has("description")) {
    const v = raw["description"];
    if (v !== null && typeof v !== "string") throw invalid(name, "description must be a string");
    out.description = v ?? "";
  }
  if (has("model")) {
    const v = raw["model"];
    if (v !== null && (typeof v !== "string" || v === "")) throw invalid(name, "model must be a model name or null");
    out.model = v;
  }
  for (const key of ["tool_groups", "skills"] as const) {
    if (!has(key)) continue;
    const v = raw[key];
    if (v !== null && !isStringList(v)) throw invalid(name, `${key} must be a list of names or null`);
    out[key] = v === null ? null : [...v];
  }
  if (has("model_settings")) out.model_settings = modelSettingsOf(name, raw["model_settings"]);
  if (has("thinking_enabled")) {
    const v = raw["thinking_enabled"];
    if (v !== null && typeof v !== "boolean") throw invalid(name, "thinking_enabled must be true, false or null");
    out.thinking_enabled = v;
  }
  if (has("reasoning_effort")) {
    const v = raw["reasoning_effort"];
    if (v !== null && v !== "low" && v !== "medium" && v !== "high")
      throw invalid(name, `reasoning_effort must be low, medium, high or null, got ${JSON.stringify(v)}`);
    out.reasoning_effort = v;
  }
  return out;
}

/**
 * Builds a full config from a name and fields (the defaults for the rest).
 *
 * @param name - a normalised name
 * @param fields - checked fields
 * @param extra - unmanaged keys to keep
 * @returns the config
 */
export function agentConfigOf(
  name: string,
  fields: AgentConfigFields,
  extra?: Readonly<Record<string, unknown>>,
): AgentConfig {
  return {
    name,
    description: fields.description ?? "",
    model: fields.model ?? null,
    tool_groups: fields.tool_groups ?? null,
    skills: fields.skills ?? null,
    model_settings: fields.model_settings ?? null,
    thinking_enabled: fields.thinking_enabled ?? null,
    reasoning_effort: fields.reasoning_effort ?? null,
    ...(extra === undefined || Object.keys(extra).length === 0 ? {} : { extra }),
  };
}

/**
 * Parses a stored document (a parsed `config.yaml`, a store record) into a config.
 * The stored `name` is ignored: the folder or key names the agent.
 *
 * @param name - the normalised name the document is stored under
 * @param raw - the parsed document
 * @returns the config
 * @throws {@link AgentError} `AGENT_CONFIG_INVALID`
 */
export function parseAgentConfig(name: string, raw: unknown): AgentConfig {
  if (raw === null || raw === undefined) return agentConfigOf(name, {});
  if (typeof raw !== "object" || Array.isArray(raw)) throw invalid(name, "config.yaml must be a mapping");
  const doc = raw as Record<string, unknown>;
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(doc))
    if (key !== "name" && !(MANAGED_AGENT_FIELDS as readonly string[]).includes(key)) extra[key] = value;
  return agentConfigOf(name, checkAgentFields(name, doc), extra);
}

/**
 * The document a config is stored as: the set fields only (DeerFlow writes minimal YAML), then the kept extras.
 *
 * @param config - the config
 * @returns a plain object for YAML or JSON
 */
export function agentConfigDocument(config: AgentConfig): Record<string, unknown> {
  const doc: Record<string, unknown> = { name: config.name, description: config.description };
  for (const key of MANAGED_AGENT_FIELDS) {
    if (key === "description") continue;
    const value = config[key];
    if (value !== null && value !== undefined) doc[key] = value;
  }
  for (const [key, value] of Object.entries(config.extra ?? {})) if (!(key in doc)) doc[key] = value;
  return doc;
}

/**
 * Applies an update: the given fields replace, `model_settings` merges per key
 * (DeerFlow's PUT: an omitted sub-field is kept, a `null` one cleared, a `null`
 * block clears them all).
 *
 * @param current - the stored config
 * @param fields - checked fields (absent: unchanged)
 * @param rawSettings - the update's `model_settings` as sent (its `null` sub-fields are dropped by the check)
 * @returns the new config
 */
export function applyAgentFields(current: AgentConfig, fields: AgentConfigFields, rawSettings?: unknown): AgentConfig {
  const { model_settings: _settings, ...rest } = fields;
  const next: AgentConfig = { ...current, ...rest, description: rest.description ?? current.description };
  if (!Object.hasOwn(fields, "model_settings")) return next;
  if (rawSettings === null || typeof rawSettings !== "object") return { ...next, model_settings: null };
  const merged: Record<string, number> = { ...current.model_settings };
  for (const [key, value] of Object.entries(rawSettings as Record<string, unknown>)) {
    const checked = (fields.model_settings as Record<string, number> | null)?.[key];
    if (value === null || checked === undefined) delete merged[key];
    else merged[key] = checked;
  }
  return { ...next, model_settings: Object.keys(merged).length === 0 ? null : (merged as AgentModelSettings) };
}
