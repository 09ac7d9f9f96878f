import { describe, expect, it } from "vitest";
import { resolveResilience } from "./resolve-resilience.js";

function resolve(doc: Record<string, unknown>) {
  const problems: string[] = [];
  const settings = resolveResilience(doc, ["main", "backup"], (path, message) => problems.push(`${path}: ${message}`));
  return { settings, problems };
}

describe("resolveResilience", () => {
  it("maps DeerFlow's keys to the middleware options, leaving unset keys to the middlewares' defaults", () => {
    const { settings, problems } = resolve({
      llm_call: { retry_max_attempts: 4, retry_base_delay_ms: 500, fallback_models: ["backup"] },
      circuit_breaker: { failure_threshold: 2 },
      loop_detection: { warn_threshold: 2, hard_limit: 4, tool_freq_overrides: { bash: { warn: 5, hard_limit: 8 } } },
      safety_finish_reason: { enabled: false },
    });
    expect(problems).toEqual([]);
    expect(settings).toEqual({
      llmErrorHandling: {
        retryMaxAttempts: 4,
        retryBaseDelayMs: 500,
        fallbackModels: ["backup"],
        circuitBreaker: { failureThreshold: 2 },
      },
      loopDetection: { warnThreshold: 2, hardLimit: 4, toolFreqOverrides: { bash: { warn: 5, hardLimit: 8 } } },
      safetyFinishReason: { enabled: false },
    });
    expect(resolve({}).settings).toEqual({
      llmErrorHandling: { circuitBreaker: {} },
      loopDetection: {},
      safetyFinishReason: {},
    });
  });

  it("names the key path of values that contradict each other or name unknown models", () => {
    const { problems } = resolve({
      llm_call: { fallback_models: ["nope"], retry_cap_delay_ms: 10 },
      loop_detection: { hard_limit: 2, tool_freq_overrides: { bash: { warn: 5, hard_limit: 1 } } },
    });
    expect(problems).toEqual([
      'llm_call.fallback_models[0]: must be one of the configured models (main, backup), got "nope"',
      "llm_call.retry_cap_delay_ms: must be ≥ retry_base_delay_ms (1000), got 10",
      "loop_detection.hard_limit: must be ≥ warn_threshold (3), got 2",
      "loop_detection.tool_freq_overrides.bash.hard_limit: must be ≥ warn (5), got 1",
    ]);
  });
});
