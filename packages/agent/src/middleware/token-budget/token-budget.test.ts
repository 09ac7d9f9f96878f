import { RUN_REPORT_KEY, type RunReport } from "@deerflow/kernel";
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { tool } from "@langchain/core/tools";
import { MemorySaver } from "@langchain/langgraph";
import { createAgent } from "langchain";
import { describe, expect, it } from "vitest";
import { z } from "zod/v4";
import { AgentError } from "../../errors.js";
import { tokenBudgetExceededText, tokenBudgetWarningText } from "./texts.js";
import { createTokenBudgetMiddleware, TOKEN_CAPPED } from "./token-budget.js";

const usage = (input: number, output: number) => ({
  input_tokens: input,
  output_tokens: output,
  total_tokens: input + output,
});
const withUsage = (message: AIMessage, input: number, output: number): AIMessage =>
  Object.assign(message, { usage_metadata: usage(input, output) });
const callTool = (id: string, input: number, output: number) =>
  withUsage(
    new AIMessage({ content: "", tool_calls: [{ id, name: "work", args: {}, type: "tool_call" }] }),
    input,
    output,
  );
const work = tool(() => "done", { name: "work", description: "does work", schema: z.object({}) });

describe("texts", () => {
  it("are DeerFlow's, with grouped numbers and a whole percentage", () => {
    expect(tokenBudgetWarningText(8500, 10000, "total")).toBe(
      "[TOKEN BUDGET WARNING] You have used 8,500 of your 10,000 total token budget (85%). Wrap up your current work and produce a final answer. Avoid starting new tool calls unless absolutely necessary.",
    );
    expect(tokenBudgetExceededText(1234567, 1000000, "input")).toBe(
      "[TOKEN BUDGET EXCEEDED] The input token usage (1,234,567) has exceeded the safety limit (1,000,000). Producing final answer with results collected so far.",
    );
  });
});

describe("TokenBudgetMiddleware", () => {
  it("does nothing below the warning threshold", async () => {
    const model = fakeModel()
      .respond(callTool("a", 100, 10))
      .respond(withUsage(new AIMessage("ok"), 100, 10));
    const agent = createAgent({ model, tools: [work], middleware: [createTokenBudgetMiddleware({ maxTokens: 1000 })] });
    const report: RunReport = {};
    const out = await agent.invoke(
      { messages: [new HumanMessage("go")] },
      { configurable: { [RUN_REPORT_KEY]: report } },
    );
    expect(out.messages.map((m: BaseMessage) => m.getType())).toEqual(["human", "ai", "tool", "ai"]);
    expect(report.stopReason).toBeUndefined();
  });

  it("warns once per run at the next call, then stops at the limit with token_capped", async () => {
    const model = fakeModel()
      .respond(callTool("a", 700, 100)) // 800 of 1000: warn
      .respond(callTool("b", 50, 50)) // 900: already warned
      .respond(callTool("c", 100, 50)); // 1050: stop
    const agent = createAgent({ model, tools: [work], middleware: [createTokenBudgetMiddleware({ maxTokens: 1000 })] });
    const report: RunReport = {};
    const out = await agent.invoke(
      { messages: [new HumanMessage("go")] },
      { configurable: { [RUN_REPORT_KEY]: report } },
    );
    const warnings = out.messages.filter(
      (m: BaseMessage) => HumanMessage.isInstance(m) && m.additional_kwargs["hide_from_ui"] === true,
    );
    expect(warnings.map((m: BaseMessage) => m.content)).toEqual([tokenBudgetWarningText(800, 1000, "total")]);
    // The warning reached the second call (after the first tool result), not the first.
    expect(model.calls[1]?.messages.at(-1)?.content).toBe(tokenBudgetWarningText(800, 1000, "total"));
    const last = out.messages.at(-1) as AIMessage;
    expect(last.tool_calls).toEqual([]);
    expect(last.content).toBe(tokenBudgetExceededText(1050, 1000, "total"));
    expect(report.stopReason).toBe(TOKEN_CAPPED);
    expect(model.callCount).toBe(3);
  });

  it("counts each run on its own: a thread's next run starts from zero", async () => {
    const model = fakeModel()
      .respond(callTool("a", 850, 100)) // run 1: 950 of 1000, warned
      .respond(withUsage(new AIMessage("run 1 done"), 10, 10))
      .respond(callTool("b", 500, 100)) // run 2: 600, below the warning
      .respond(withUsage(new AIMessage("run 2 done"), 10, 10));
    const agent = createAgent({
      model,
      tools: [work],
      middleware: [createTokenBudgetMiddleware({ maxTokens: 1000 })],
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: "t" } };
    await agent.invoke({ messages: [new HumanMessage("first")] }, config);
    const out = await agent.invoke({ messages: [new HumanMessage("second")] }, config);
    const warnings = out.messages.filter(
      (m: BaseMessage) => HumanMessage.isInstance(m) && m.additional_kwargs["hide_from_ui"] === true,
    );
    expect(warnings).toHaveLength(1);
    expect((out.messages.at(-1) as AIMessage).content).toBe("run 2 done");
  });

  it("checks the input and output budgets and names the one crossed", async () => {
    const model = fakeModel().respond(callTool("a", 10, 600));
    const agent = createAgent({
      model,
      tools: [work],
      middleware: [createTokenBudgetMiddleware({ maxTokens: 100_000, maxOutputTokens: 500 })],
    });
    const out = await agent.invoke({ messages: [new HumanMessage("go")] });
    expect((out.messages.at(-1) as AIMessage).content).toBe(tokenBudgetExceededText(600, 500, "output"));
  });

  it("rejects bad settings naming the key", () => {
    const code = (f: () => unknown) => {
      try {
        f();
      } catch (err) {
        return AgentError.isInstance(err) ? err.message : String(err);
      }
      return "no error";
    };
    expect(code(() => createTokenBudgetMiddleware({ maxTokens: 999 }))).toMatch(/^token_budget\.max_tokens /);
    expect(code(() => createTokenBudgetMiddleware({ warnThreshold: 0.9, hardStopThreshold: 0.5 }))).toMatch(
      /^token_budget\.hard_stop_threshold /,
    );
    expect(code(() => createTokenBudgetMiddleware({ maxInputTokens: 0 }))).toMatch(/^token_budget\.max_input_tokens /);
  });
});
