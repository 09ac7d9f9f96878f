/**
 * Resolves subagent configs: built-ins first (a custom agent cannot replace
 * them), then custom agents; overrides applied on a copy, never in place.
 */
import { SubagentError } from "../errors.js";
import type { SubagentConfig } from "../types.js";
import { BASH_SUBAGENT, BUILTIN_SUBAGENTS } from "./builtins.js";
import {
  checkLimit,
  validateCustomSubagent,
  validateOverride,
  type SubagentOverride,
  type SubagentsConfig,
} from "./config.js";

/** Options of {@link SubagentRegistry}. */
export interface SubagentRegistryOptions {
  /** The `subagents:` configuration section (validated here). */
  readonly config?: SubagentsConfig;
  /**
   * Whether the sandbox lets agents run shell commands on the host. When false
   * (the default, the safe choice) the `bash` subagent is left out of {@link SubagentRegistry.list}.
   */
  readonly hostShellAllowed?: boolean;
}

/**
 * The subagent types a lead can delegate to.
 *
 * @example
 * ```ts
 * const registry = new SubagentRegistry({ config: { timeoutMs: 600_000 }, hostShellAllowed: true });
 * registry.get("general-purpose")?.timeoutMs; // 600000
 * ```
 */
export class SubagentRegistry {
  readonly #configs = new Map<string, SubagentConfig>();
  readonly #builtinNames: ReadonlySet<string>;
  readonly #hostShellAllowed: boolean;

  /**
   * @param options - configuration and sandbox capability
   * @throws {@link SubagentError} `CONFIG_INVALID` for an invalid limit, override or custom agent
   */
  constructor(options: SubagentRegistryOptions = {}) {
    const config = options.config ?? {};
    this.#hostShellAllowed = options.hostShellAllowed ?? false;
    const globalTimeout = checkLimit(config.timeoutMs, "timeoutMs", 1000, "subagents");
    const globalTurns = checkLimit(config.maxTurns, "maxTurns", 1, "subagents");
    const overrides = new Map<string, SubagentOverride>();
    for (const [name, raw] of Object.entries(config.perAgent ?? {})) overrides.set(name, validateOverride(name, raw));

    this.#builtinNames = new Set(BUILTIN_SUBAGENTS.map((c) => c.name));
    for (const builtin of BUILTIN_SUBAGENTS) {
      const withGlobals: SubagentConfig = {
        ...builtin,
        timeoutMs: globalTimeout ?? builtin.timeoutMs,
        maxTurns: globalTurns ?? builtin.maxTurns,
      };
      this.#configs.set(builtin.name, applyOverride(withGlobals, overrides.get(builtin.name)));
    }
    for (const [name, raw] of Object.entries(config.customAgents ?? {})) {
      if (this.#builtinNames.has(name)) {
        throw new SubagentError(
          "CONFIG_INVALID",
          `Custom subagent ${JSON.stringify(name)} cannot replace a built-in subagent`,
          { details: { name } },
        );
      }
      this.#configs.set(name, applyOverride(validateCustomSubagent(name, raw), overrides.get(name)));
    }
  }

  /**
   * The resolved config of a subagent, whether or not it is currently available.
   * @param name - subagent type
   * @returns a frozen copy, or `undefined` when unknown
   */
  get(name: string): SubagentConfig | undefined {
    return this.#configs.get(name);
  }

  /**
   * Like {@link get} but throws for an unknown or unavailable name.
   * @throws {@link SubagentError} `UNKNOWN_SUBAGENT` with DeerFlow's message listing the available names
   */
  require(name: string): SubagentConfig {
    const config = this.#configs.get(name);
    if (config === undefined || !this.isAvailable(name)) {
      const available = this.list().map((c) => c.name);
      throw new SubagentError(
        "UNKNOWN_SUBAGENT",
        `Unknown subagent type '${name}'. Available: ${available.join(", ")}`,
        {
          details: { name, available },
        },
      );
    }
    return config;
  }

  /** True when the name is known and not hidden by the sandbox policy. */
  isAvailable(name: string): boolean {
    if (!this.#configs.has(name)) return false;
    return name !== BASH_SUBAGENT.name || this.#hostShellAllowed;
  }

  /** True for `general-purpose` and `bash`. */
  isBuiltin(name: string): boolean {
    return this.#builtinNames.has(name);
  }

  /** Every available subagent: built-ins, then custom ones in configuration order (`bash` hidden without host shell). */
  list(): SubagentConfig[] {
    return [...this.#configs.values()].filter((c) => this.isAvailable(c.name));
  }

  /** Every known name including hidden ones. */
  names(): string[] {
    return [...this.#configs.keys()];
  }
}

function applyOverride(config: SubagentConfig, override: SubagentOverride | undefined): SubagentConfig {
  return Object.freeze({
    ...config,
    ...(override?.timeoutMs === undefined ? {} : { timeoutMs: override.timeoutMs }),
    ...(override?.maxTurns === undefined ? {} : { maxTurns: override.maxTurns }),
    ...(override?.model === undefined ? {} : { model: override.model }),
  });
}
