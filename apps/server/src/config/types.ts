/**
 * The typed, defaults-filled configuration (camelCase), as returned by
 * `loadConfig`. Paths are absolute (resolved against the config file's folder,
 * or the working directory when there is no file).
 */
import type { LeadMiddlewareOptions } from "@deerflow/agent";
import type { OidcSettings } from "@deerflow/gateway";
import type { ResourceLimits } from "@deerflow/sandbox";
import type { CustomSubagentInput, SubagentOverride } from "@deerflow/subagents";
import type { MemoryConfigSettings } from "./resolve-memory.js";
import type { ToolsConfig } from "@deerflow/tools";
import type { ResilienceSettings } from "./resolve-resilience.js";

/** `server:` — the HTTP listener. */
export interface ServerSettings {
  readonly host: string;
  readonly port: number;
  /** Allowed CORS origins; empty disables CORS. `*` allows any. */
  readonly corsOrigins: readonly string[];
  /** Accepted `X-Api-Key` values; empty means no authentication. */
  readonly apiKeys: readonly string[];
  /**
   * Keys written as `{ key, user_id, admin, role? }`: the user (and admin right, and `authorization:`
   * role) the key authenticates. A key written as a plain string is the operator's: an admin, user `default`.
   */
  readonly apiKeyUsers?: readonly {
    readonly key: string;
    readonly userId: string;
    readonly admin: boolean;
    readonly role?: string;
  }[];
  /** Largest request body in bytes. */
  readonly bodyLimit: number;
}

/** Which implementation a model entry uses. */
export type ModelUse =
  /** `ChatOpenAI` against any OpenAI-compatible endpoint (the default). */
  | { readonly kind: "openai" }
  /** The offline demo model. */
  | { readonly kind: "demo" }
  /** `ChatAnthropic` (`@langchain/anthropic`): Anthropic's Messages API (`use: anthropic`). */
  | { readonly kind: "anthropic" }
  /** `ChatGoogleGenerativeAI` (`@langchain/google-genai`): the Gemini API (`use: google`). */
  | { readonly kind: "google" }
  /** A plugin export, `"<module>:<export>"`. */
  | { readonly kind: "plugin"; readonly use: string };

/** One entry of `models:`. */
export interface ModelConfig {
  readonly name: string;
  readonly displayName?: string;
  readonly description?: string;
  readonly use: ModelUse;
  /** Provider model id (required for `openai`). */
  readonly model?: string;
  readonly baseUrl?: string;
  readonly apiKey?: string;
  readonly temperature?: number;
  readonly maxTokens?: number;
  readonly timeoutMs?: number;
  readonly maxRetries?: number;
  readonly supportsVision: boolean;
  readonly supportsThinking: boolean;
  /** `supports_reasoning_effort` (false): a run's `reasoning_effort` is dropped unless set. */
  readonly supportsReasoningEffort?: boolean;
  /** `when_thinking_enabled`, with `thinking` merged in as its `thinking` field: constructor fields of a thinking run. */
  readonly whenThinkingEnabled?: Readonly<Record<string, unknown>>;
  /** `when_thinking_disabled`: constructor fields of a run with thinking off (absent: a disable derived per provider). */
  readonly whenThinkingDisabled?: Readonly<Record<string, unknown>>;
  /** `reasoning_effort`: the model's default effort (`low`, `medium`, `high`; `minimal`/`none` for providers that take them). */
  readonly reasoningEffort?: string;
  /** `context_window` (tokens): shown by the console as the share of the window used. */
  readonly contextWindow?: number;
  /**
   * `replay_reasoning` (false; `use: openai` only): send each earlier assistant message's
   * `reasoning_content` back to the provider (DeepSeek-style thinking models want it).
   */
  readonly replayReasoning?: boolean;
  /** Extra fields for the provider or plugin, as written. */
  readonly options: Readonly<Record<string, unknown>>;
}

/** One extra sandbox mount. */
export interface SandboxMountConfig {
  readonly hostPath: string;
  readonly containerPath: string;
  readonly readOnly: boolean;
}

/**
 * Resource limits of the local sandbox (`sandbox.limits`, snake_case in the
 * file): exactly the sandbox's own `ResourceLimits`, whose fields say what
 * each bounds.
 */
export type SandboxLimitsConfig = ResourceLimits;

/** `sandbox:` */
export interface SandboxSettings {
  /** `local` (the built-in `LocalSandboxProvider`) or a plugin. */
  readonly use: { readonly kind: "local" } | { readonly kind: "plugin"; readonly use: string };
  readonly allowHostBash: boolean;
  readonly network: boolean;
  readonly commandTimeoutMs: number;
  readonly mounts: readonly SandboxMountConfig[];
  readonly limits: SandboxLimitsConfig;
  readonly options: Readonly<Record<string, unknown>>;
}

/** A skill scanner: the built-in static SkillScan or a plugin. */
export type ScannerUse = { readonly kind: "static" } | { readonly kind: "plugin"; readonly use: string };

/** `skills:` */
export interface SkillsSettings {
  readonly enabled: boolean;
  /** Skills root holding `public/` and `custom/`. */
  readonly path: string;
  /** True when `path` was written in the config (a missing folder is then an error, not "no skills"). */
  readonly pathConfigured: boolean;
  readonly containerPath: string;
  readonly promptMode: "full" | "deferred" | "auto";
  readonly scanners: readonly ScannerUse[];
  readonly skillManage: { readonly enabled: boolean };
}

/** Per-subagent override (the shape `@deerflow/subagents` validates). */
export type SubagentOverrideSettings = SubagentOverride;

/** A custom subagent (the shape `@deerflow/subagents` validates). */
export type CustomSubagentSettings = CustomSubagentInput;

/** `subagents:` */
export interface SubagentsSettings {
  readonly enabled: boolean;
  /** `task` calls per model response (1–4). */
  readonly maxConcurrent: number;
  /** `task` calls per run (1–50). */
  readonly maxTotalPerRun: number;
  /** Wall clock of a built-in subagent task. */
  readonly timeoutMs: number;
  readonly maxTurns?: number;
  readonly agents: Readonly<Record<string, SubagentOverrideSettings>>;
  readonly customAgents: Readonly<Record<string, CustomSubagentSettings>>;
}

/** A runtime component chosen by a plugin. */
export interface PluginChoice {
  readonly type: "plugin";
  readonly use: string;
  readonly options: Readonly<Record<string, unknown>>;
}

/** `runtime.stream_bridge` */
export type StreamBridgeSettings =
  | { readonly type: "memory"; readonly maxEventsPerRun?: number }
  | { readonly type: "redis"; readonly redisUrl: string; readonly maxEventsPerRun?: number }
  | PluginChoice;

/** `runtime.run_store` */
export type RunStoreSettings =
  | { readonly type: "memory" }
  | { readonly type: "file"; readonly path: string }
  | { readonly type: "postgres"; readonly databaseUrl: string }
  | PluginChoice;

/** `runtime.checkpointer` */
export type CheckpointerSettings =
  | { readonly type: "memory" }
  | { readonly type: "file"; readonly path: string }
  | { readonly type: "postgres"; readonly databaseUrl: string; readonly schema?: string }
  | PluginChoice;

/** `runtime:` */
export interface RuntimeSettings {
  readonly streamBridge: StreamBridgeSettings;
  readonly runStore: RunStoreSettings;
  readonly checkpointer: CheckpointerSettings;
  /**
   * When runs write their checkpoints unless a run sets `durability` (`runtime.checkpointer.durability`):
   * `async` (default) after every step, `sync` before the next step, `exit` once when the run ends.
   */
  readonly checkpointDurability: "sync" | "async" | "exit";
  readonly retention: {
    /** How long finished runs are kept. */
    readonly finishedRunsMs: number;
    /** How long a finished run's stream stays replayable. */
    readonly streamReplayMs: number;
  };
}

/** `agent:` — the lead agent. */
export interface AgentSettings {
  /** Name used in the system prompt. */
  readonly name: string;
}

/** `guardrails.provider`: the built-in allowlist (`use: allowlist`) or a plugin given `config` as written. */
export type GuardrailProviderSettings =
  | { readonly kind: "allowlist"; readonly allowedTools?: readonly string[]; readonly deniedTools?: readonly string[] }
  | { readonly kind: "plugin"; readonly use: string; readonly options: Readonly<Record<string, unknown>> };

/** `authorization.provider`: the built-in RBAC (`use: rbac`) or a plugin, given `config` as written. */
export type AuthorizationProviderSettings =
  | { readonly kind: "rbac"; readonly options: Readonly<Record<string, unknown>> }
  | { readonly kind: "plugin"; readonly use: string; readonly options: Readonly<Record<string, unknown>> };

/** `authorization:` — DeerFlow's role-based authorization of routes, tools and models. */
export interface AuthorizationSettings {
  readonly enabled: boolean;
  /** Deny when the provider fails or a role is unknown. */
  readonly failClosed: boolean;
  /** The role of runs that carry none (not started through the gateway). */
  readonly defaultRole: string;
  /** Set when enabled. */
  readonly provider?: AuthorizationProviderSettings;
}

/** `guardrails:` — tool-call policy (DeerFlow's keys, plus `require_approval`). */
export interface GuardrailsSettings {
  /** Whether the provider judges tool calls. */
  readonly enabled: boolean;
  /** Deny when the provider fails. */
  readonly failClosed: boolean;
  readonly passport?: string;
  /** Set when `enabled`. */
  readonly provider?: GuardrailProviderSettings;
  /** Tools whose calls wait for a human decision (whether or not `enabled`). */
  readonly requireApproval: readonly string[];
}

/** `uploads:` — what happens to files uploaded into a thread. */
export interface UploadsSettings {
  /** PDF and DOCX uploads get a Markdown companion next to them (DeerFlow's key; parsing untrusted documents on the host, so off by default). */
  readonly autoConvertDocuments: boolean;
}

/** `title:` — thread titles after the first exchange (DeerFlow's keys). */
export interface TitleSettings {
  readonly enabled: boolean;
  /** Words asked of the title model (1–20). */
  readonly maxWords: number;
  /** Longest title (10–200). */
  readonly maxChars: number;
  /** A configured model asked for the title; absent: the local title (the first message, cut). */
  readonly modelName?: string;
  readonly promptTemplate?: string;
}

/** `summarization:`, `tool_output:`, `token_usage:`, `token_budget:` as the lead agent's middleware options. */
export type ContextMiddlewareSettings = Pick<
  LeadMiddlewareOptions,
  "summarization" | "toolOutput" | "tokenUsage" | "tokenBudget"
>;

/** `auth:` — user accounts (local users, sessions, per-user API keys). */
export interface AuthSettings {
  /** Accounts on (false keeps the single-user mode: API keys only, or none). */
  readonly enabled: boolean;
  /** Session lifetime in days (1–30). */
  readonly tokenExpiryDays: number;
  /** Always mark cookies `Secure` (TLS ends at a proxy). */
  readonly cookieSecure: boolean;
  /** Browser origins besides the server's own allowed to call login, register, initialize, logout. */
  readonly allowedOrigins: readonly string[];
  /** `auth.local.allow_registration`: self-registration is open. */
  readonly allowRegistration: boolean;
  /** `auth.oidc`: SSO login through OpenID Connect providers (absent: none). */
  readonly oidc?: OidcSettings;
}

/** The whole configuration. */
export interface ServerConfig {
  readonly server: ServerSettings;
  /** At least one model. */
  readonly models: readonly ModelConfig[];
  /** Name of one of {@link ServerConfig.models}. */
  readonly defaultModel: string;
  readonly sandbox: SandboxSettings;
  readonly skills: SkillsSettings;
  readonly subagents: SubagentsSettings;
  readonly runtime: RuntimeSettings;
  readonly storage: { readonly dataDir: string };
  readonly agent: AgentSettings;
  /** `summarization:`, `tool_output:`, `token_usage:`, `token_budget:` (absent in hand-built configs: the agent's defaults). */
  readonly contextMiddleware?: ContextMiddlewareSettings;
  /** `uploads:` (absent in hand-built configs: no conversion). */
  readonly uploads?: UploadsSettings;
  /** `title:` (absent in hand-built configs: DeerFlow's defaults). */
  readonly title?: TitleSettings;
  /** `read_before_write:` (absent in hand-built configs: enabled). */
  readonly readBeforeWrite?: { readonly enabled: boolean };
  /** `guardrails:` (absent in hand-built configs: off). */
  readonly guardrails?: GuardrailsSettings;
  /** `authorization:` (absent in hand-built configs: off). */
  readonly authorization?: AuthorizationSettings;
  /** `llm_call:`, `circuit_breaker:`, `loop_detection:`, `safety_finish_reason:` (absent in hand-built configs: DeerFlow's defaults). */
  readonly resilience?: ResilienceSettings;
  /** `tool_search:`: deferred MCP tools (absent in hand-built configs: off unless the MCP schemas exceed 10000 tokens). */
  readonly toolSearch?: { readonly enabled: boolean; readonly autoTokenBudget: number };
  /** `memory:` (absent in hand-built configs: DeerFlow's defaults). */
  readonly memory?: MemoryConfigSettings;
  /** `tools:` and `tool_groups:` (absent in hand-built configs: no configured tools). */
  readonly tools?: ToolsConfig;
  /** Where `extensions_config.json` lives (it may not exist). */
  readonly extensionsConfigPath: string;
  /** `auth:` (absent in hand-built configs: accounts off). */
  readonly auth?: AuthSettings;
  /**
   * Custom agents: `agents_api.enabled` (the `/api/agents` and `/api/user-profile` routes; default false)
   * and `agent_storage.backend` (`file`: DeerFlow's folders under the data dir, the default; `store` or
   * DeerFlow's `db`: the graph store, shared by instances). Absent in hand-built configs: routes off, files.
   */
  readonly customAgents?: { readonly apiEnabled: boolean; readonly storage: "file" | "store" };
}
