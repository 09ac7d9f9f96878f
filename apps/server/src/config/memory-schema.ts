/**
 * JSON Schema of `memory:` in `config.yaml` (DeerFlow §4.1). The DeerMem
 * policy keys may be written at the top of `memory:` (DeerFlow's older
 * layout) or under `backend_config:` (its current one); `backend_config`
 * wins for a key given twice.
 */

type Schema = Record<string, unknown>;

const int = (minimum: number): Schema => ({ type: "integer", minimum });
const bool = (): Schema => ({ type: "boolean" });
const categories = (): Schema => ({
  type: "array",
  items: { enum: ["preference", "knowledge", "context", "behavior", "goal", "correction"] },
});

/** The DeerMem keys (top-level or in `backend_config`). */
export const POLICY_KEYS: Record<string, Schema> = {
  model_name: { type: "string", minLength: 1 },
  debounce_seconds: { type: "number", minimum: 0 },
  queue_max_depth: int(0),
  max_facts: int(1),
  fact_confidence_threshold: { type: "number", minimum: 0, maximum: 1 },
  max_injection_tokens: int(1),
  guaranteed_categories: categories(),
  guaranteed_token_budget: int(0),
  staleness_review_enabled: bool(),
  staleness_age_days: int(1),
  staleness_min_candidates: int(1),
  staleness_max_removals_per_cycle: int(0),
  staleness_protected_categories: categories(),
  staleness_max_lifetime_multiplier: { type: "number", minimum: 1 },
  staleness_max_extension_days: int(1),
};

/** `memory:`. */
export const MEMORY_SCHEMA: Schema = {
  type: "object",
  additionalProperties: false,
  properties: {
    enabled: bool(),
    injection_enabled: bool(),
    mode: { enum: ["middleware", "tool"] },
    shutdown_flush_timeout_seconds: { type: "number", minimum: 0 },
    // `deermem`, `noop`, or a `use:` plugin `"<module>:<export>"` (resolve-memory checks which).
    manager_class: { type: "string", minLength: 1 },
    // A plugin backend gets the keys that are not DeerMem's as its options; with the built-in
    // backend, resolve-memory names each such key as unknown.
    backend_config: { type: "object", properties: POLICY_KEYS },
    ...POLICY_KEYS,
  },
};
