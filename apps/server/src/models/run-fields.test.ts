import { describe, expect, it } from "vitest";
import type { ModelConfig } from "../config/types.js";
import { thinkingProfileOf, withRunFields } from "./run-fields.js";

const openai: ModelConfig = {
  name: "r1",
  use: { kind: "openai" },
  model: "m",
  supportsVision: false,
  supportsThinking: true,
  options: { modelKwargs: { top_k: 5 } },
};

describe("run fields of a model variant", () => {
  it("sends extra_body and reasoning_effort in an OpenAI-compatible request body (modelKwargs), other fields as options", () => {
    const out = withRunFields(openai, {
      extra_body: { thinking: { type: "disabled" } },
      reasoning_effort: "minimal",
      temperature: 0.3,
    });
    expect(out.options).toEqual({
      temperature: 0.3,
      modelKwargs: { top_k: 5, thinking: { type: "disabled" }, reasoning_effort: "minimal" },
    });
  });

  it("hands a plugin model the fields as they are", () => {
    const plugin: ModelConfig = { ...openai, use: { kind: "plugin", use: "x:y" }, options: { a: 1 } };
    expect(withRunFields(plugin, { thinking: { type: "enabled", budget_tokens: 1024 } }).options).toEqual({
      a: 1,
      thinking: { type: "enabled", budget_tokens: 1024 },
    });
  });

  it("describes the entry's thinking settings", () => {
    expect(thinkingProfileOf({ ...openai, supportsReasoningEffort: true, reasoningEffort: "low" })).toEqual({
      supportsThinking: true,
      provider: "openai",
      supportsReasoningEffort: true,
      reasoningEffort: "low",
    });
  });
});
