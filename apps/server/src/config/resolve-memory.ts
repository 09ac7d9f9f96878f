/**
 * Resolves `memory:` of `config.yaml` (DeerFlow's keys and defaults, §4.1):
 * `enabled` (true), `injection_enabled` (true), `mode` (`middleware`; `tool`
 * is DeerFlow's experimental tool mode), `shutdown_flush_timeout_seconds`
 * (30), `manager_class` (`deermem`: memory on the server's LangGraph store;
 * `noop`: none; `"<module>:<export>"`: a `MemoryBackend` plugin, DeerFlow's
 * dotted class path, given the `backend_config` keys that are not DeerMem's
 * as options), and the DeerMem policy keys (top-level or in
 * `backend_config`). `model_name` names the configured model that extracts
 * memory; without it nothing is extracted (DeerFlow: no model, no updates),
 * injection and the routes still work.
 */
import type { FactCategory, MemorySettings } from "@deerflow/memory";
import { isSecretKey } from "../mcp/mask-secrets.js";
import { isUseSpec } from "../plugins/index.js";
import { POLICY_KEYS } from "./memory-schema.js";

type Doc = Record<string, unknown>;

/** The resolved `memory:` settings. */
export interface MemoryConfigSettings {
  readonly enabled: boolean;
  readonly injectionEnabled: boolean;
  readonly mode: "middleware" | "tool";
  readonly shutdownFlushTimeoutMs: number;
  /** `deermem`, `noop`, or a plugin's `"<module>:<export>"`. */
  readonly managerClass: "deermem" | "noop" | (string & {});
  /** A plugin backend's options: the `backend_config` keys that are not DeerMem's (snake_case, as written). */
  readonly backendOptions: Readonly<Record<string, unknown>>;
  /** The extraction model (a configured model's name); absent: no extraction. */
  readonly modelName?: string;
  readonly debounceMs: number;
  readonly queueMaxDepth: number;
  /** The policy settings of `@deerflow/memory`. */
  readonly settings: MemorySettings;
}

const DEFAULTS = {
  debounce_seconds: 30,
  queue_max_depth: 1000,
  max_facts: 100,
  fact_confidence_threshold: 0.7,
  max_injection_tokens: 2000,
  guaranteed_categories: ["correction"],
  guaranteed_token_budget: 500,
  staleness_review_enabled: true,
  staleness_age_days: 90,
  staleness_min_candidates: 3,
  staleness_max_removals_per_cycle: 10,
  staleness_protected_categories: ["correction"],
  staleness_max_lifetime_multiplier: 20,
  staleness_max_extension_days: 3650,
} as const;

/**
 * @param doc - the validated document
 * @param modelNames - the configured models
 * @param problem - records a problem at a key path
 * @returns the `memory:` settings with defaults
 */
export function resolveMemory(
  doc: Doc,
  modelNames: readonly string[],
  problem: (path: string, message: string) => void,
): MemoryConfigSettings {
  const m = (doc["memory"] as Doc | undefined) ?? {};
  const backend = (m["backend_config"] as Doc | undefined) ?? {};
  const key = <K extends keyof typeof DEFAULTS>(k: K): (typeof DEFAULTS)[K] =>
    (backend[k] ?? m[k] ?? DEFAULTS[k]) as (typeof DEFAULTS)[K];
  const modelName = (backend["model_name"] ?? m["model_name"]) as string | undefined;
  if (modelName !== undefined && !modelNames.includes(modelName))
    problem(
      m["backend_config"] !== undefined && backend["model_name"] !== undefined
        ? "memory.backend_config.model_name"
        : "memory.model_name",
      `unknown model "${modelName}" (configured: ${modelNames.join(", ")})`,
    );
  const managerClass = (m["manager_class"] as string | undefined) ?? "deermem";
  const builtIn = managerClass === "deermem" || managerClass === "noop";
  if (!builtIn && !isUseSpec(managerClass))
    problem("memory.manager_class", `"${managerClass}" is neither deermem, noop nor a plugin "<module>:<export>"`);
  const backendOptions = Object.fromEntries(Object.entries(backend).filter(([k]) => !(k in POLICY_KEYS)));
  if (builtIn)
    for (const k of Object.keys(backendOptions))
      problem(`memory.backend_config.${k}`, `unknown key for manager_class ${managerClass}`);
  return {
    enabled: (m["enabled"] as boolean | undefined) ?? true,
    injectionEnabled: (m["injection_enabled"] as boolean | undefined) ?? true,
    mode: (m["mode"] as "middleware" | "tool" | undefined) ?? "middleware",
    shutdownFlushTimeoutMs: Math.round(((m["shutdown_flush_timeout_seconds"] as number | undefined) ?? 30) * 1000),
    managerClass,
    backendOptions: builtIn ? {} : backendOptions,
    ...(modelName === undefined ? {} : { modelName }),
    debounceMs: Math.round(key("debounce_seconds") * 1000),
    queueMaxDepth: key("queue_max_depth"),
    settings: {
      maxFacts: key("max_facts"),
      factConfidenceThreshold: key("fact_confidence_threshold"),
      maxInjectionTokens: key("max_injection_tokens"),
      guaranteedCategories: key("guaranteed_categories") as readonly FactCategory[],
      guaranteedTokenBudget: key("guaranteed_token_budget"),
      stalenessReviewEnabled: key("staleness_review_enabled"),
      stalenessAgeDays: key("staleness_age_days"),
      stalenessMinCandidates: key("staleness_min_candidates"),
      stalenessMaxRemovalsPerCycle: key("staleness_max_removals_per_cycle"),
      stalenessProtectedCategories: key("staleness_protected_categories") as readonly FactCategory[],
      stalenessMaxLifetimeMultiplier: key("staleness_max_lifetime_multiplier"),
      stalenessMaxExtensionDays: key("staleness_max_extension_days"),
    },
  };
}

/**
 * `GET /api/memory/config`'s `backend_config`: the DeerMem keys in effect, snake_case, and a
 * plugin's options with the ones named like secrets masked (`***`, DeerFlow's rule for MCP).
 *
 * @param m - resolved settings
 */
export function memoryBackendConfigOf(m: MemoryConfigSettings): Record<string, unknown> {
  const s = m.settings;
  const pluginOptions = Object.fromEntries(
    Object.entries(m.backendOptions).map(([k, v]) => [k, isSecretKey(k) ? "***" : v]),
  );
  return {
    ...pluginOptions,
    storage_class: m.managerClass === "deermem" || m.managerClass === "noop" ? "langgraph_store" : m.managerClass,
    model_name: m.modelName ?? null,
    debounce_seconds: m.debounceMs / 1000,
    queue_max_depth: m.queueMaxDepth,
    max_facts: s.maxFacts,
    fact_confidence_threshold: s.factConfidenceThreshold,
    fact_eviction_policy: "confidence",
    max_injection_tokens: s.maxInjectionTokens,
    token_counting: "char",
    guaranteed_categories: s.guaranteedCategories,
    guaranteed_token_budget: s.guaranteedTokenBudget,
    staleness_review_enabled: s.stalenessReviewEnabled,
    staleness_age_days: s.stalenessAgeDays,
    staleness_min_candidates: s.stalenessMinCandidates,
    staleness_max_removals_per_cycle: s.stalenessMaxRemovalsPerCycle,
    staleness_protected_categories: s.stalenessProtectedCategories,
    staleness_max_lifetime_multiplier: s.stalenessMaxLifetimeMultiplier,
    staleness_max_extension_days: s.stalenessMaxExtensionDays,
  };
}
