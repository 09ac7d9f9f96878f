import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { MemorySaver } from "@langchain/langgraph";
import { createAgent } from "langchain";
import { describe, expect, it } from "vitest";
import { createTokenUsageMiddleware } from "./token-usage.js";

const reply = (text: string, input: number, output: number) =>
  Object.assign(new AIMessage(text), { usage_metadata: { input_tokens: input, output_tokens: output, total_tokens: input + output } });
type Usage = { input_tokens: number; output_tokens: number; total_tokens: number; llm_call_count: number };
type Out = { token_usage?: Usage; run_token_usage?: Usage };

describe("TokenUsageMiddleware", () => {
  it("sums each call's usage per run and per thread", async () => {
    const model = fakeModel().respond(reply("one", 10, 5)).respond(reply("two", 20, 7));
    const agent = createAgent({ model, tools: [], middleware: [createTokenUsageMiddleware()], checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "t" } };
    const first = (await agent.invoke({ messages: [new HumanMessage("a")] }, config)) as Out;
    expect(first.run_token_usage).toEqual({ input_tokens: 10, output_tokens: 5, total_tokens: 15, llm_call_count: 1 });
    const second = (await agent.invoke({ messages: [new HumanMessage("b")] }, config)) as Out;
    // The run's total starts again; the thread's goes on.
    expect(second.run_token_usage).toEqual({ input_tokens: 20, output_tokens: 7, total_tokens: 27, llm_call_count: 1 });
    expect(second.token_usage).toEqual({ input_tokens: 30, output_tokens: 12, total_tokens: 42, llm_call_count: 2 });
  });

  it("counts nothing for a model that reports no usage", async () => {
    const agent = createAgent({ model: fakeModel().respond(new AIMessage("plain")), tools: [], middleware: [createTokenUsageMiddleware()] });
    const out = (await agent.invoke({ messages: [new HumanMessage("a")] })) as Out;
    expect(out.token_usage).toBeUndefined();
    expect(out.run_token_usage).toEqual({ input_tokens: 0, output_tokens: 0, total_tokens: 0, llm_call_count: 0 });
  });
});
