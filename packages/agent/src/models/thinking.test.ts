import { AIMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { describe, expect, it } from "vitest";
import { staticModels, type ModelResolver } from "./model-resolver.js";
import { RunModels } from "./run-models.js";
import { resolveRunThinking, type ModelThinkingProfile } from "./thinking.js";

const deepseek: ModelThinkingProfile = {
  supportsThinking: true,
  whenThinkingEnabled: { extra_body: { thinking: { type: "enabled" } } },
};

describe("resolveRunThinking (DeerFlow §5.2)", () => {
  it("defaults to thinking on and applies when_thinking_enabled", () => {
    expect(resolveRunThinking(deepseek, {})).toEqual({
      thinkingEnabled: true,
      thinkingRefused: false,
      fields: { extra_body: { thinking: { type: "enabled" } } },
    });
  });

  it("derives the OpenAI-compatible disable when thinking is off without when_thinking_disabled", () => {
    expect(resolveRunThinking(deepseek, { thinkingEnabled: false }).fields).toEqual({
      extra_body: { thinking: { type: "disabled" } },
      reasoning_effort: "minimal",
    });
  });

  it("uses when_thinking_disabled when set", () => {
    const fields = resolveRunThinking(
      { ...deepseek, whenThinkingDisabled: { temperature: 0.1 } },
      { thinkingEnabled: false },
    ).fields;
    expect(fields).toEqual({ temperature: 0.1 });
  });

  it("turns vLLM chat_template_kwargs off and sets Anthropic's native disable", () => {
    const vllm = {
      supportsThinking: true,
      whenThinkingEnabled: { extra_body: { chat_template_kwargs: { enable_thinking: true, thinking: true } } },
    };
    expect(resolveRunThinking(vllm, { thinkingEnabled: false }).fields).toEqual({
      extra_body: { chat_template_kwargs: { enable_thinking: false, thinking: false } },
    });
    expect(
      resolveRunThinking({ supportsThinking: true, provider: "anthropic" }, { thinkingEnabled: false }).fields,
    ).toEqual({ thinking: { type: "disabled" } });
  });

  it("refuses thinking on a model without supports_thinking (no fields) and flags an explicit request", () => {
    expect(resolveRunThinking({ supportsThinking: false }, { thinkingEnabled: true })).toEqual({
      thinkingEnabled: false,
      thinkingRefused: true,
      fields: {},
    });
    expect(resolveRunThinking({ supportsThinking: false }, {}).thinkingRefused).toBe(false);
  });

  it("drops reasoning_effort unless supports_reasoning_effort; the run's effort wins over the model's", () => {
    expect(
      resolveRunThinking({ supportsThinking: false, reasoningEffort: "high" }, { reasoningEffort: "low" }).fields,
    ).toEqual({});
    expect(
      resolveRunThinking({ supportsThinking: false, supportsReasoningEffort: true, reasoningEffort: "high" }, {})
        .fields,
    ).toEqual({ reasoning_effort: "high" });
    expect(
      resolveRunThinking(
        { supportsThinking: false, supportsReasoningEffort: true, reasoningEffort: "high" },
        { reasoningEffort: "low" },
      ).fields,
    ).toEqual({ reasoning_effort: "low" });
  });
});

describe("RunModels with thinking variants", () => {
  function resolver(): { resolver: ModelResolver; built: Readonly<Record<string, unknown>>[] } {
    const base = staticModels({ main: fakeModel().respond(new AIMessage("base")) });
    const built: Readonly<Record<string, unknown>>[] = [];
    return {
      built,
      resolver: {
        ...base,
        profile: () => deepseek,
        variant: async (_name, fields) => {
          built.push(fields);
          return fakeModel().respond(new AIMessage(JSON.stringify(fields)));
        },
      },
    };
  }

  it("builds one variant per setting and reuses it across runs", async () => {
    const { resolver: r, built } = resolver();
    const models = await RunModels.create(r);
    const on1 = await models.resolve({ runId: "a" });
    const on2 = await models.resolve({ runId: "b", thinkingEnabled: true });
    const off = await models.resolve({ runId: "c", thinkingEnabled: false });
    expect(on1.model).toBe(on2.model);
    expect(off.model).not.toBe(on1.model);
    expect(built).toEqual([
      { extra_body: { thinking: { type: "enabled" } } },
      { extra_body: { thinking: { type: "disabled" } }, reasoning_effort: "minimal" },
    ]);
  });

  it("warns once per run when thinking is asked of a model without it", async () => {
    const warnings: unknown[] = [];
    const logger = { debug() {}, info() {}, error() {}, warn: (o: unknown) => void warnings.push(o) };
    const base = staticModels({ main: fakeModel().respond(new AIMessage("x")) });
    const models = await RunModels.create(
      { ...base, profile: () => ({ supportsThinking: false }), variant: async () => fakeModel() },
      logger,
    );
    const first = await models.resolve({ runId: "r1", thinkingEnabled: true });
    await models.resolve({ runId: "r1", thinkingEnabled: true });
    expect(first.model).toBe(models.defaultModel);
    expect(warnings).toEqual([{ threadId: undefined, runId: "r1", model: "main" }]);
  });
});
