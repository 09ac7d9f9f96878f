/**
 * Options of the sandbox tools and their resolution into one context shared by
 * the seven tools of a set.
 */
import type { ToolRunnableConfig } from "@langchain/core/tools";
import { SandboxError } from "../errors.js";
import { DEFAULT_COMMAND_TIMEOUT_MS, DEFAULT_GLOB_RESULTS, DEFAULT_GREP_RESULTS } from "../limits.js";
import { silentLogger, type Logger } from "../logger.js";
import type { Sandbox } from "../sandbox.js";
import type { PathBlockedHook } from "./blocked-paths.js";
import { sharedFileLock, type KeyedLock } from "./keyed-lock.js";

/** Secrets for one call: a fixed map, or a function of the tool call's config (request-scoped secrets). */
export type SecretsSource =
  | Readonly<Record<string, string>>
  | ((
      config: ToolRunnableConfig | undefined,
    ) => Readonly<Record<string, string>> | undefined | Promise<Readonly<Record<string, string>> | undefined>);

/** Options of {@link createSandboxTools} and the single-tool factories. */
export interface SandboxToolsOptions {
  /** A fixed sandbox. Give this or {@link SandboxToolsOptions.getSandbox}. */
  readonly sandbox?: Sandbox;
  /**
   * Resolves the sandbox for one tool call, given its config, so a server can
   * acquire the thread's sandbox lazily from `config.configurable.thread_id`.
   */
  readonly getSandbox?: (config: ToolRunnableConfig | undefined) => Promise<Sandbox>;
  /**
   * Whether commands are confined (bubblewrap, container). When omitted, a
   * boolean `isolated` property on the sandbox is used; when that is missing
   * too, the sandbox counts as NOT isolated (the safe assumption).
   */
  readonly isolated?: boolean;
  /** `validate` (default): check commands of non-isolated sandboxes with {@link findHostCommandViolation}; `off`: never. */
  readonly hostBashPolicy?: "validate" | "off";
  /** Extra path families host commands may name (configured mounts are taken from `sandbox.mounts` when present). */
  readonly hostCommandAllowedPaths?: readonly string[];
  /** Extra read-only virtual paths that write_file/str_replace refuse up front. */
  readonly readOnlyPaths?: readonly string[];
  /** Command timeout. Default 600 000 ms (0 also means the default). */
  readonly bashTimeoutMs?: number;
  /** Bash output limit (middle truncation). Default 20 000; 0 disables. */
  readonly bashOutputMaxChars?: number;
  /** ls output limit (head truncation). Default 20 000; 0 disables. */
  readonly lsOutputMaxChars?: number;
  /** read_file output limit (head truncation). Default 50 000; 0 disables. */
  readonly readFileOutputMaxChars?: number;
  /** Largest non-append write_file content in UTF-8 bytes. Default 80 KiB; 0 or less disables. */
  readonly writeFileMaxBytes?: number;
  /** Operator cap on glob results (≤0 → 200; at most 1000). The model's `max_results` cannot exceed it. */
  readonly globMaxResults?: number;
  /** Operator cap on grep matches (≤0 → 100; at most 500). */
  readonly grepMaxResults?: number;
  /** Secrets injected into bash's environment; values of 8+ characters are redacted from its output. */
  readonly secrets?: SecretsSource;
  /** Blocks read access to paths (disabled skills); see {@link PathBlockedHook}. */
  readonly isPathBlocked?: PathBlockedHook;
  /** The per-(sandbox, path) lock; defaults to one shared by the whole process. */
  readonly fileLock?: KeyedLock;
  readonly logger?: Logger;
}

/** Defaults of {@link SandboxToolsOptions}. */
export const SANDBOX_TOOL_DEFAULTS = {
  bashTimeoutMs: DEFAULT_COMMAND_TIMEOUT_MS,
  bashOutputMaxChars: 20_000,
  lsOutputMaxChars: 20_000,
  readFileOutputMaxChars: 50_000,
  writeFileMaxBytes: 80 * 1024,
  globMaxResults: DEFAULT_GLOB_RESULTS,
  grepMaxResults: DEFAULT_GREP_RESULTS,
} as const;

/** Everything a tool needs, with defaults applied. */
export interface ToolContext {
  readonly sandboxFor: (config: ToolRunnableConfig | undefined) => Promise<Sandbox>;
  readonly isolated: boolean | undefined;
  readonly hostBashPolicy: "validate" | "off";
  readonly hostCommandAllowedPaths: readonly string[];
  readonly readOnlyPaths: readonly string[];
  readonly bashTimeoutMs: number;
  readonly bashOutputMaxChars: number;
  readonly lsOutputMaxChars: number;
  readonly readFileOutputMaxChars: number;
  readonly writeFileMaxBytes: number;
  readonly globMaxResults: number;
  readonly grepMaxResults: number;
  readonly secretsFor: (
    config: ToolRunnableConfig | undefined,
  ) => Promise<Readonly<Record<string, string>> | undefined>;
  readonly isPathBlocked: PathBlockedHook | undefined;
  readonly fileLock: KeyedLock;
  readonly logger: Logger;
}

function nonNegative(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0)
    throw new SandboxError("CONFIG_INVALID", `${name} must be a non-negative number, got ${String(value)}`);
  return value;
}

/**
 * Applies defaults and checks the options.
 *
 * @param options - The caller's options.
 * @returns The context shared by a set of tools.
 * @throws SandboxError `CONFIG_INVALID` when neither (or both of) `sandbox` and `getSandbox` is given, or a limit is negative.
 */
export function resolveToolContext(options: SandboxToolsOptions): ToolContext {
  const { sandbox, getSandbox } = options;
  if ((sandbox === undefined) === (getSandbox === undefined)) {
    throw new SandboxError("CONFIG_INVALID", "Sandbox tools need exactly one of `sandbox` or `getSandbox`");
  }
  const timeout = nonNegative("bashTimeoutMs", options.bashTimeoutMs, SANDBOX_TOOL_DEFAULTS.bashTimeoutMs);
  const secrets = options.secrets;
  return {
    sandboxFor:
      sandbox !== undefined
        ? () => Promise.resolve(sandbox)
        : (getSandbox as (c: ToolRunnableConfig | undefined) => Promise<Sandbox>),
    isolated: options.isolated,
    hostBashPolicy: options.hostBashPolicy ?? "validate",
    hostCommandAllowedPaths: options.hostCommandAllowedPaths ?? [],
    readOnlyPaths: options.readOnlyPaths ?? [],
    bashTimeoutMs: timeout === 0 ? SANDBOX_TOOL_DEFAULTS.bashTimeoutMs : timeout,
    bashOutputMaxChars: nonNegative(
      "bashOutputMaxChars",
      options.bashOutputMaxChars,
      SANDBOX_TOOL_DEFAULTS.bashOutputMaxChars,
    ),
    lsOutputMaxChars: nonNegative("lsOutputMaxChars", options.lsOutputMaxChars, SANDBOX_TOOL_DEFAULTS.lsOutputMaxChars),
    readFileOutputMaxChars: nonNegative(
      "readFileOutputMaxChars",
      options.readFileOutputMaxChars,
      SANDBOX_TOOL_DEFAULTS.readFileOutputMaxChars,
    ),
    writeFileMaxBytes: options.writeFileMaxBytes ?? SANDBOX_TOOL_DEFAULTS.writeFileMaxBytes,
    globMaxResults: options.globMaxResults ?? SANDBOX_TOOL_DEFAULTS.globMaxResults,
    grepMaxResults: options.grepMaxResults ?? SANDBOX_TOOL_DEFAULTS.grepMaxResults,
    secretsFor: async (config) => {
      if (secrets === undefined) return undefined;
      if (typeof secrets === "function") return (await secrets(config)) ?? undefined;
      return secrets;
    },
    isPathBlocked: options.isPathBlocked,
    fileLock: options.fileLock ?? sharedFileLock,
    logger: options.logger ?? silentLogger,
  };
}

/**
 * Whether a sandbox confines its commands: the explicit option wins, then a
 * boolean `isolated` property of the sandbox, else false.
 *
 * @param ctx - The tool context.
 * @param sandbox - The call's sandbox.
 * @returns True when host command validation can be skipped.
 */
export function isIsolated(ctx: ToolContext, sandbox: Sandbox): boolean {
  if (ctx.isolated !== undefined) return ctx.isolated;
  return "isolated" in sandbox && typeof sandbox.isolated === "boolean" ? sandbox.isolated : false;
}
