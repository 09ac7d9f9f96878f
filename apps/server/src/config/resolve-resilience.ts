/**
 * Resolves the resilience sections of `config.yaml` (DeerFlow's keys, chain
 * rows 8, 28, 34): `llm_call:` (retries, and our `fallback_models`),
 * `circuit_breaker:`, `loop_detection:` and `safety_finish_reason:`, into the
 * lead agent's middleware options. The schema checks shapes and ranges; the
 * rules that join keys (`hard_limit` ≥ `warn_threshold`, fallbacks are
 * configured models) are checked here, naming the key path.
 */
import type { LeadMiddlewareOptions } from "@deerflow/agent";

type Doc = Record<string, unknown>;
type Problem = (path: string, message: string) => void;

/** `llm_call:`, `circuit_breaker:`, `loop_detection:`, `safety_finish_reason:` as the lead agent's middleware options. */
export type ResilienceSettings = Pick<
  LeadMiddlewareOptions,
  "llmErrorHandling" | "loopDetection" | "safetyFinishReason"
>;

const num = (raw: Doc, key: string): number | undefined => raw[key] as number | undefined;
/** Only the keys that are set (the middlewares fill in DeerFlow's defaults). */
const defined = <T extends Record<string, unknown>>(o: T): { [K in keyof T]?: Exclude<T[K], undefined> } =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };

/**
 * @param doc - the validated document
 * @param models - the configured model names
 * @param problem - records a problem at a key path
 * @returns the middleware options (empty objects where nothing is configured)
 */
export function resolveResilience(doc: Doc, models: readonly string[], problem: Problem): ResilienceSettings {
  const llm = (doc["llm_call"] as Doc | undefined) ?? {};
  const cb = (doc["circuit_breaker"] as Doc | undefined) ?? {};
  const loop = (doc["loop_detection"] as Doc | undefined) ?? {};
  const safety = (doc["safety_finish_reason"] as Doc | undefined) ?? {};

  const fallbackModels = (llm["fallback_models"] as string[] | undefined) ?? [];
  fallbackModels.forEach((name, i) => {
    if (!models.includes(name))
      problem(
        `llm_call.fallback_models[${i}]`,
        `must be one of the configured models (${models.join(", ")}), got "${name}"`,
      );
  });
  const capDelay = num(llm, "retry_cap_delay_ms");
  const baseDelay = num(llm, "retry_base_delay_ms");
  if (capDelay !== undefined && capDelay < (baseDelay ?? 1000))
    problem("llm_call.retry_cap_delay_ms", `must be ≥ retry_base_delay_ms (${baseDelay ?? 1000}), got ${capDelay}`);

  const warn = num(loop, "warn_threshold");
  const hard = num(loop, "hard_limit");
  if (hard !== undefined && hard < (warn ?? 3))
    problem("loop_detection.hard_limit", `must be ≥ warn_threshold (${warn ?? 3}), got ${hard}`);
  const freqWarn = num(loop, "tool_freq_warn");
  const freqHard = num(loop, "tool_freq_hard_limit");
  if (freqHard !== undefined && freqHard < (freqWarn ?? 30))
    problem("loop_detection.tool_freq_hard_limit", `must be ≥ tool_freq_warn (${freqWarn ?? 30}), got ${freqHard}`);
  const overrides: Record<string, { warn: number; hardLimit: number }> = {};
  for (const [tool, o] of Object.entries((loop["tool_freq_overrides"] as Record<string, Doc> | undefined) ?? {})) {
    const w = o["warn"] as number;
    const h = o["hard_limit"] as number;
    if (h < w) problem(`loop_detection.tool_freq_overrides.${tool}.hard_limit`, `must be ≥ warn (${w}), got ${h}`);
    overrides[tool] = { warn: w, hardLimit: h };
  }

  return {
    llmErrorHandling: defined({
      retryMaxAttempts: num(llm, "retry_max_attempts"),
      retryBaseDelayMs: baseDelay,
      retryCapDelayMs: capDelay,
      burstRetryBaseDelayMs: num(llm, "burst_retry_base_delay_ms"),
      fallbackModels: fallbackModels.length === 0 ? undefined : fallbackModels,
      circuitBreaker: defined({
        failureThreshold: num(cb, "failure_threshold"),
        recoveryTimeoutSec: num(cb, "recovery_timeout_sec"),
      }),
    }),
    loopDetection: defined({
      enabled: loop["enabled"] as boolean | undefined,
      warnThreshold: warn,
      hardLimit: hard,
      windowSize: num(loop, "window_size"),
      toolFreqWarn: freqWarn,
      toolFreqHardLimit: freqHard,
      toolFreqOverrides: Object.keys(overrides).length === 0 ? undefined : overrides,
    }),
    safetyFinishReason: defined({ enabled: safety["enabled"] as boolean | undefined }),
  };
}
