import { describe, expect, it } from "vitest";
import { parseConfigText } from "./load-config.js";

const modelOf = (entry: string) => parseConfigText(`models:\n  - ${entry}\n`).config.models[0];

describe("models: thinking and reasoning keys", () => {
  it("leaves them out when not written", () => {
    const m = modelOf("{ name: a, model: m }");
    expect(m).toMatchObject({ supportsThinking: false, supportsVision: false });
    expect(m).not.toHaveProperty("whenThinkingEnabled");
    expect(m).not.toHaveProperty("supportsReasoningEffort");
  });

  it("reads every key and merges thinking into when_thinking_enabled.thinking", () => {
    const m = modelOf(
      "{ name: a, model: m, supports_thinking: true, supports_reasoning_effort: true, reasoning_effort: high, context_window: 128000, " +
        "when_thinking_enabled: { extra_body: { x: 1 }, thinking: { type: enabled, budget_tokens: 10 } }, thinking: { budget_tokens: 2048 }, " +
        "when_thinking_disabled: { extra_body: { thinking: { type: disabled } } } }",
    );
    expect(m).toMatchObject({
      supportsThinking: true,
      supportsReasoningEffort: true,
      reasoningEffort: "high",
      contextWindow: 128000,
      whenThinkingEnabled: { extra_body: { x: 1 }, thinking: { type: "enabled", budget_tokens: 2048 } },
      whenThinkingDisabled: { extra_body: { thinking: { type: "disabled" } } },
    });
  });

  it("names the key of a bad value", () => {
    expect(() => modelOf("{ name: a, model: m, reasoning_effort: extreme }")).toThrow(
      /models\[0\]\.reasoning_effort|models\/0\/reasoning_effort/,
    );
    expect(() => modelOf("{ name: a, model: m, context_window: 0 }")).toThrow(
      /models\[0\]\.context_window|models\/0\/context_window/,
    );
    expect(() => modelOf("{ name: a, model: m, when_thinking_enabled: 3 }")).toThrow(/when_thinking_enabled/);
  });
});
