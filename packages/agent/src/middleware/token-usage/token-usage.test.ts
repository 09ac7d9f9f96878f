import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { tool } from "@langchain/core/tools";
import { MemorySaver } from "@langchain/langgraph";
import { createAgent } from "langchain";
import { describe, expect, it } from "vitest";
import { z } from "zod/v4";
import { RUN_REPORT_KEY, type RunReport } from "@deerflow/kernel";
import { createTokenUsageMiddleware, TokenUsageState } from "./token-usage.js";

const reply = (text: string, input: number, output: number) =>
  Object.assign(new AIMessage(text), {
    usage_metadata: { input_tokens: input, output_tokens: output, total_tokens: input + output },
  });
type Usage = { input_tokens: number; output_tokens: number; total_tokens: number; llm_call_count: number };
type Out = { token_usage?: Usage; run_token_usage?: Usage & { run_id: string } };

describe("TokenUsageMiddleware", () => {
  it("sums each call's usage per run and per thread", async () => {
    const model = fakeModel()
      .respond(reply("one", 10, 5))
      .respond(reply("two", 20, 7));
    const agent = createAgent({
      model,
      tools: [],
      middleware: [createTokenUsageMiddleware()],
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: "t" } };
    const first = (await agent.invoke({ messages: [new HumanMessage("a")] }, config)) as Out;
    expect(first.run_token_usage).toMatchObject({
      input_tokens: 10,
      output_tokens: 5,
      total_tokens: 15,
      llm_call_count: 1,
    });
    const second = (await agent.invoke({ messages: [new HumanMessage("b")] }, config)) as Out;
    // The run's total starts again; the thread's goes on.
    expect(second.run_token_usage).toMatchObject({
      input_tokens: 20,
      output_tokens: 7,
      total_tokens: 27,
      llm_call_count: 1,
    });
    expect(second.token_usage).toEqual({
      input_tokens: 30,
      output_tokens: 12,
      total_tokens: 42,
      llm_call_count: 2,
      last_call_id: expect.any(String),
    });
  });

  it("adds every call of a run, told apart by its run_id", async () => {
    const work = tool(() => "done", { name: "work", description: "does work", schema: z.object({}) });
    const callWork = Object.assign(
      new AIMessage({ content: "", tool_calls: [{ id: "w1", name: "work", args: {}, type: "tool_call" }] }),
      { usage_metadata: { input_tokens: 4, output_tokens: 1, total_tokens: 5 } },
    );
    const model = fakeModel()
      .respond(callWork)
      .respond(reply("after the tool", 6, 2))
      .respond(reply("next run", 1, 1));
    const agent = createAgent({
      model,
      tools: [work],
      middleware: [createTokenUsageMiddleware()],
      checkpointer: new MemorySaver(),
    });
    const first = (await agent.invoke(
      { messages: [new HumanMessage("go")] },
      { configurable: { thread_id: "t", run_id: "r1" } },
    )) as Out;
    expect(first.run_token_usage).toEqual({
      input_tokens: 10,
      output_tokens: 3,
      total_tokens: 13,
      llm_call_count: 2,
      run_id: "r1",
      last_call_id: expect.any(String),
    });
    const second = (await agent.invoke(
      { messages: [new HumanMessage("again")] },
      { configurable: { thread_id: "t", run_id: "r2" } },
    )) as Out;
    expect(second.run_token_usage).toEqual({
      input_tokens: 1,
      output_tokens: 1,
      total_tokens: 2,
      llm_call_count: 1,
      run_id: "r2",
      last_call_id: expect.any(String),
    });
    expect(second.token_usage?.llm_call_count).toBe(3);
  });

  it("lets a client set the totals (updateState), and adds the next call to them", async () => {
    const agent = createAgent({
      model: fakeModel().respond(reply("one", 10, 5)),
      tools: [],
      middleware: [createTokenUsageMiddleware()],
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: "t" } };
    const set = { input_tokens: 100, output_tokens: 50, total_tokens: 150, llm_call_count: 4 };
    await agent.graph.updateState(config, { token_usage: set });
    const out = (await agent.invoke({ messages: [new HumanMessage("a")] }, config)) as Out;
    expect(out.token_usage).toMatchObject({
      input_tokens: 110,
      output_tokens: 55,
      total_tokens: 165,
      llm_call_count: 5,
    });
  });

  it("counts nothing for a model that reports no usage", async () => {
    const agent = createAgent({
      model: fakeModel().respond(new AIMessage("plain")),
      tools: [],
      middleware: [createTokenUsageMiddleware()],
    });
    const out = (await agent.invoke({ messages: [new HumanMessage("a")] })) as Out;
    expect(out.token_usage).toBeUndefined();
    expect(out.run_token_usage).toBeUndefined();
  });

  it("reports each call's usage to the run's report, per model", async () => {
    const model = fakeModel()
      .respond(Object.assign(reply("one", 10, 5), { response_metadata: { model_name: "gpt-x" } }))
      .respond(reply("two", 3, 2));
    const agent = createAgent({
      model,
      tools: [],
      middleware: [createTokenUsageMiddleware()],
      checkpointer: new MemorySaver(),
    });
    const report: RunReport = {};
    const config = { configurable: { thread_id: "t", [RUN_REPORT_KEY]: report } };
    await agent.invoke({ messages: [new HumanMessage("a")] }, config);
    await agent.invoke({ messages: [new HumanMessage("b")] }, config);
    expect(report.tokenUsage).toEqual({
      input_tokens: 13,
      output_tokens: 7,
      total_tokens: 20,
      llm_call_count: 2,
      by_model: { "gpt-x": { input_tokens: 10, output_tokens: 5, total_tokens: 15, llm_call_count: 1 } },
    });
  });

  it("names the model with the modelName option, and leaves channels an agent declares to the agent", async () => {
    const agent = createAgent({
      model: fakeModel().respond(reply("one", 4, 1)),
      tools: [],
      middleware: [createTokenUsageMiddleware({ declareState: false, modelName: () => "configured" })],
      stateSchema: TokenUsageState,
    });
    const report: RunReport = {};
    const out = (await agent.invoke(
      { messages: [new HumanMessage("a")] },
      { configurable: { [RUN_REPORT_KEY]: report } },
    )) as Out;
    expect(out.token_usage).toMatchObject({ input_tokens: 4, output_tokens: 1, total_tokens: 5, llm_call_count: 1 });
    expect(Object.keys(report.tokenUsage?.by_model ?? {})).toEqual(["configured"]);
  });
});
