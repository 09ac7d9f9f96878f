import { AIMessageChunk, type BaseMessageChunk } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { ChatOpenAI } from "@langchain/openai";
import { afterEach, describe, expect, it } from "vitest";
import { startScriptedOpenAI, type ScriptedOpenAI, type ScriptedOpenAIOptions } from "./index.js";

const open: ScriptedOpenAI[] = [];
afterEach(async () => {
  for (const endpoint of open.splice(0)) await endpoint.close();
});

async function endpoint(options: ScriptedOpenAIOptions): Promise<ScriptedOpenAI> {
  const started = await startScriptedOpenAI(options);
  open.push(started);
  return started;
}

const chat = (openai: ScriptedOpenAI, maxRetries = 0) =>
  new ChatOpenAI({ model: "scripted-gpt", apiKey: "test-key", configuration: { baseURL: openai.baseURL }, maxRetries });

async function streamed(
  model: ChatOpenAI,
  input: string,
): Promise<{ chunks: BaseMessageChunk[]; merged: AIMessageChunk }> {
  const chunks: BaseMessageChunk[] = [];
  let merged = new AIMessageChunk("");
  for await (const chunk of await model.stream(input)) {
    chunks.push(chunk);
    merged = merged.concat(chunk as AIMessageChunk);
  }
  return { chunks, merged };
}

describe("startScriptedOpenAI with ChatOpenAI", () => {
  it("answers a completion and records the request", async () => {
    const openai = await endpoint({
      script: [{ text: "Hello there!", usage: { promptTokens: 7, completionTokens: 3 } }],
    });
    const reply = await chat(openai).invoke("hi");
    expect(reply.content).toBe("Hello there!");
    expect(reply.usage_metadata).toMatchObject({ input_tokens: 7, output_tokens: 3 });
    expect(openai.requests).toHaveLength(1);
    expect(openai.requests[0]).toMatchObject({
      method: "POST",
      url: "/v1/chat/completions",
      model: "scripted-gpt",
      stream: false,
    });
    expect(openai.requests[0]?.messages).toEqual([{ role: "user", content: "hi" }]);
    expect(openai.requests[0]?.headers["authorization"]).toBe("Bearer test-key");
  });

  it("streams the text as chunks ending with the finish reason", async () => {
    const openai = await endpoint({ script: [{ text: ["The answer ", "is ", "42."] }] });
    const { chunks, merged } = await streamed(chat(openai), "question");
    expect(openai.requests[0]?.stream).toBe(true);
    expect(chunks.map((c) => c.content).filter((c) => c !== "")).toEqual(["The answer ", "is ", "42."]);
    expect(merged.content).toBe("The answer is 42.");
    expect(merged.response_metadata["finish_reason"]).toBe("stop");
  });

  it("calls tools, streamed or not, and records the tools offered", async () => {
    const search = tool(async () => "found", {
      name: "search",
      description: "Searches",
      schema: { type: "object", properties: { q: { type: "string" } } },
    });
    const calls = [{ name: "search", args: { q: "deer flow" }, id: "call_search" }];
    const openai = await endpoint({ script: [{ toolCalls: calls }, { toolCalls: calls }] });
    const model = chat(openai).bindTools([search]);
    const reply = await model.invoke("find it");
    expect(reply.tool_calls).toEqual([
      { name: "search", args: { q: "deer flow" }, id: "call_search", type: "tool_call" },
    ]);
    expect(reply.response_metadata["finish_reason"]).toBe("tool_calls");
    let merged = new AIMessageChunk("");
    for await (const chunk of await model.stream("find it")) merged = merged.concat(chunk);
    expect(merged.tool_calls).toEqual([
      { name: "search", args: { q: "deer flow" }, id: "call_search", type: "tool_call" },
    ]);
    expect(openai.requests.map((r) => r.toolNames)).toEqual([["search"], ["search"]]);
  });

  it("streams reasoning content before the answer", async () => {
    const openai = await endpoint({
      script: [
        { reasoning: ["Let me ", "think."], text: "Done." },
        { reasoning: "Thought.", text: "Plain." },
      ],
    });
    const { chunks, merged } = await streamed(chat(openai), "why");
    const reasoningAt = chunks.findIndex((c) => c.additional_kwargs["reasoning_content"] === "Let me ");
    const textAt = chunks.findIndex((c) => c.content === "Done.");
    expect(reasoningAt).toBeGreaterThanOrEqual(0);
    expect(reasoningAt).toBeLessThan(textAt);
    expect(merged.additional_kwargs["reasoning_content"]).toBe("Let me think.");
    expect(merged.content).toBe("Done.");
    const whole = await chat(openai).invoke("why");
    expect(whole.additional_kwargs["reasoning_content"]).toBe("Thought.");
  });

  it("reports the length and content_filter finish reasons", async () => {
    const openai = await endpoint({
      script: [
        { text: "Cut sh", finishReason: "length" },
        { text: "", finishReason: "content_filter" },
      ],
    });
    expect((await chat(openai).invoke("long")).response_metadata["finish_reason"]).toBe("length");
    const { merged } = await streamed(chat(openai), "unsafe");
    expect(merged.response_metadata["finish_reason"]).toBe("content_filter");
  });

  it("fails with a 500, which the client retries", async () => {
    const openai = await endpoint({
      script: [{ status: 500, message: "upstream down" }, { status: 500 }, { text: "Recovered." }],
    });
    await expect(chat(openai).invoke("hi")).rejects.toMatchObject({
      status: 500,
      message: expect.stringContaining("upstream down"),
    });
    expect((await chat(openai, 1).invoke("again")).content).toBe("Recovered.");
    expect(openai.requests).toHaveLength(3);
  });

  it("sends a 429 with Retry-After, which the client honours", async () => {
    const openai = await endpoint({
      script: [
        { status: 429, headers: { "retry-after": "1" }, message: "slow down" },
        { status: 429, headers: { "retry-after": "1" } },
        { text: "Now." },
      ],
    });
    const err = (await chat(openai)
      .invoke("hi")
      .catch((e: unknown) => e)) as { status?: number; headers?: Headers };
    expect(err.status).toBe(429);
    expect(err.headers?.get("retry-after")).toBe("1");
    const started = Date.now();
    expect((await chat(openai, 1).invoke("hi")).content).toBe("Now.");
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it("answers from a function of the request, and once used up, with a 500", async () => {
    const openai = await endpoint({
      script: (request, index) => ({ text: `#${index} saw ${request.messages.length} message(s)` }),
    });
    expect((await chat(openai).invoke("one")).content).toBe("#0 saw 1 message(s)");
    expect((await chat(openai).invoke("two")).content).toBe("#1 saw 1 message(s)");
    const list = await endpoint({ script: [{ text: "only" }] });
    expect(list.remaining).toBe(1);
    expect((await chat(list).invoke("a")).content).toBe("only");
    expect(list.remaining).toBe(0);
    await expect(chat(list).invoke("b")).rejects.toMatchObject({
      status: 500,
      message: expect.stringContaining("script exhausted"),
    });
  });

  it("answers 404 outside the chat completions route", async () => {
    const openai = await endpoint({ script: [] });
    const res = await fetch(`${openai.baseURL}/embeddings`, { method: "POST", body: "{}" });
    expect(res.status).toBe(404);
    expect(openai.requests).toHaveLength(0);
  });
});
