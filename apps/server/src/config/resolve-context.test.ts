import { describe, expect, it } from "vitest";
import { configTexts } from "../../test/support/config-text.js";

const { load, problems } = configTexts();

describe("summarization, tool_output, token_usage, token_budget", () => {
  it("default to DeerFlow's: summarization and the budget off, output budget and usage on", async () => {
    const { config } = await load("agent: { name: A }\n");
    expect(config.contextMiddleware).toEqual({
      summarization: { enabled: false, trigger: [] },
      toolOutput: { enabled: true },
      tokenUsage: { enabled: true },
      tokenBudget: { enabled: false, maxTokens: 200000, warnThreshold: 0.8, hardStopThreshold: 1 },
    });
  });

  it("read DeerFlow's keys into the middleware options", async () => {
    const { config } = await load(`
summarization:
  enabled: true
  trigger: [{ type: tokens, value: 32000 }, { type: fraction, value: 0.8 }]
  keep: { type: messages, value: 10 }
  trim_tokens_to_summarize: 0
  model_name: demo
tool_output: { externalize_min_chars: 5000, exempt_tools: [read_file], tool_overrides: { bash: 20000 } }
token_usage: { enabled: false }
token_budget: { enabled: true, max_tokens: 50000, max_output_tokens: 8000, warn_threshold: 0.5 }
`);
    expect(config.contextMiddleware).toEqual({
      summarization: {
        enabled: true,
        trigger: [
          { type: "tokens", value: 32000 },
          { type: "fraction", value: 0.8 },
        ],
        keep: { type: "messages", value: 10 },
        trimTokensToSummarize: null,
        modelName: "demo",
      },
      toolOutput: {
        enabled: true,
        externalizeMinChars: 5000,
        exemptTools: ["read_file"],
        toolOverrides: { bash: 20000 },
      },
      tokenUsage: { enabled: false },
      tokenBudget: { enabled: true, maxTokens: 50000, maxOutputTokens: 8000, warnThreshold: 0.5, hardStopThreshold: 1 },
    });
  });

  it("name the key path of a bad value", async () => {
    expect(await problems("summarization: { trigger: [{ type: fraction, value: 1.5 }] }\n")).toContain(
      "summarization.trigger[0].value: must be > 0 and ≤ 1 for type fraction, got 1.5",
    );
    expect(await problems("summarization: { keep: { type: messages, value: 2.5 } }\n")).toContain(
      "summarization.keep.value: must be an integer ≥ 0 for type messages",
    );
    expect(await problems("summarization: { model_name: nope }\n")).toContain(
      'summarization.model_name: must be one of the configured models (demo), got "nope"',
    );
    expect(await problems("token_budget: { warn_threshold: 0.9, hard_stop_threshold: 0.5 }\n")).toContain(
      "token_budget.hard_stop_threshold: must be ≥ token_budget.warn_threshold (0.9), got 0.5",
    );
    expect(await problems("token_budget: { max_tokens: 10 }\n")).toContain("token_budget.max_tokens");
    expect(await problems("tool_output: { externalize_min_chars: 0 }\n")).toContain(
      "tool_output.externalize_min_chars",
    );
  });
});
