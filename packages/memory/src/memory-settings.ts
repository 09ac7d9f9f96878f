/**
 * The memory policy settings (DeerMem's `backend_config` keys that are not
 * storage), with DeerFlow's defaults, validated once.
 */
import { MemoryError } from "./errors.js";
import type { FactCategory } from "./types.js";

/** Memory policy (every field optional in options; {@link resolveMemorySettings} fills DeerFlow's defaults). */
export interface MemorySettings {
  /** `max_facts`: facts kept per user and agent. Default 100. */
  readonly maxFacts: number;
  /** `fact_confidence_threshold`: extracted facts below it are not stored. Default 0.7. */
  readonly factConfidenceThreshold: number;
  /** `max_injection_tokens`. Default 2000. */
  readonly maxInjectionTokens: number;
  /** `guaranteed_categories`: injected first, from their own budget. Default `["correction"]`. */
  readonly guaranteedCategories: readonly FactCategory[];
  /** `guaranteed_token_budget`. Default 500. */
  readonly guaranteedTokenBudget: number;
  /** `staleness_review_enabled`. Default true. */
  readonly stalenessReviewEnabled: boolean;
  /** `staleness_age_days`: facts without `expectedValidDays` are reviewed after this. Default 90. */
  readonly stalenessAgeDays: number;
  /** `staleness_min_candidates`: a review needs this many stale facts. Default 3. */
  readonly stalenessMinCandidates: number;
  /** `staleness_max_removals_per_cycle`. Default 10. */
  readonly stalenessMaxRemovalsPerCycle: number;
  /** `staleness_protected_categories`: never reviewed. Default `["correction"]`. */
  readonly stalenessProtectedCategories: readonly FactCategory[];
  /** `staleness_max_lifetime_multiplier`: `expectedValidDays` ≤ age days × this. Default 20. */
  readonly stalenessMaxLifetimeMultiplier: number;
  /** `staleness_max_extension_days`. Default 3650. */
  readonly stalenessMaxExtensionDays: number;
}

/** DeerFlow's defaults. */
export const DEFAULT_MEMORY_SETTINGS: MemorySettings = {
  maxFacts: 100,
  factConfidenceThreshold: 0.7,
  maxInjectionTokens: 2000,
  guaranteedCategories: ["correction"],
  guaranteedTokenBudget: 500,
  stalenessReviewEnabled: true,
  stalenessAgeDays: 90,
  stalenessMinCandidates: 3,
  stalenessMaxRemovalsPerCycle: 10,
  stalenessProtectedCategories: ["correction"],
  stalenessMaxLifetimeMultiplier: 20,
  stalenessMaxExtensionDays: 3650,
};

function positiveInt(key: string, v: number, min = 1): number {
  if (!Number.isInteger(v) || v < min)
    throw new MemoryError("CONFIG_INVALID", `memory ${key} must be an integer ≥ ${min}, got ${String(v)}`);
  return v;
}

/**
 * @param options - settings to override
 * @returns every setting, defaults filled
 * @throws MemoryError `CONFIG_INVALID` naming the setting
 */
export function resolveMemorySettings(options: Partial<MemorySettings> = {}): MemorySettings {
  const s = { ...DEFAULT_MEMORY_SETTINGS, ...options };
  positiveInt("maxFacts", s.maxFacts);
  positiveInt("maxInjectionTokens", s.maxInjectionTokens);
  positiveInt("guaranteedTokenBudget", s.guaranteedTokenBudget, 0);
  positiveInt("stalenessAgeDays", s.stalenessAgeDays);
  positiveInt("stalenessMinCandidates", s.stalenessMinCandidates);
  positiveInt("stalenessMaxRemovalsPerCycle", s.stalenessMaxRemovalsPerCycle, 0);
  positiveInt("stalenessMaxExtensionDays", s.stalenessMaxExtensionDays);
  if (!(s.factConfidenceThreshold >= 0 && s.factConfidenceThreshold <= 1))
    throw new MemoryError(
      "CONFIG_INVALID",
      `memory factConfidenceThreshold must be between 0 and 1, got ${String(s.factConfidenceThreshold)}`,
    );
  if (!(s.stalenessMaxLifetimeMultiplier >= 1))
    throw new MemoryError("CONFIG_INVALID", "memory stalenessMaxLifetimeMultiplier must be ≥ 1");
  return s;
}
