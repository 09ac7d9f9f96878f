import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { tool } from "@langchain/core/tools";
import { MemorySaver } from "@langchain/langgraph";
import { createAgent } from "langchain";
import { describe, expect, it } from "vitest";
import { z } from "zod/v4";
import { createTokenUsageMiddleware } from "./token-usage.js";

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
    expect(second.token_usage).toEqual({ input_tokens: 30, output_tokens: 12, total_tokens: 42, llm_call_count: 2 });
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
    });
    expect(second.token_usage?.llm_call_count).toBe(3);
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
});
