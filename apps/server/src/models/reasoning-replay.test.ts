import { startScriptedOpenAI, type ScriptedOpenAI } from "@deerflow/agent/testing";
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { afterEach, describe, expect, it } from "vitest";
import type { ModelConfig } from "../config/types.js";
import { createChatModel } from "./create-chat-model.js";

let endpoint: ScriptedOpenAI | undefined;
afterEach(async () => {
  await endpoint?.close();
  endpoint = undefined;
});

const entry = (baseUrl: string, replayReasoning?: boolean): ModelConfig => ({
  name: "deep",
  use: { kind: "openai" },
  model: "scripted",
  baseUrl,
  apiKey: "test",
  maxRetries: 0,
  supportsVision: false,
  supportsThinking: true,
  options: {},
  ...(replayReasoning === undefined ? {} : { replayReasoning }),
});

const history: BaseMessage[] = [
  new HumanMessage("Which river is longest?"),
  new AIMessage({
    content: "",
    tool_calls: [{ id: "call_1", name: "search", args: { q: "longest river" } }],
    additional_kwargs: { reasoning_content: "I should search first." },
  }),
  new ToolMessage({ content: "The Nile.", tool_call_id: "call_1", name: "search" }),
  new AIMessage({ content: "The Nile.", additional_kwargs: { reasoning_content: "The search says the Nile." } }),
  new AIMessage("No reasoning on this one."),
  new HumanMessage("And the second?"),
];

const assistants = (messages: readonly Readonly<Record<string, unknown>>[]) =>
  messages.filter((m) => m["role"] === "assistant").map((m) => m["reasoning_content"]);

describe("replay_reasoning (OpenAI-compatible models)", () => {
  it("sends each assistant message's reasoning_content back, streamed and not", async () => {
    endpoint = await startScriptedOpenAI({ script: () => ({ text: "The Amazon." }) });
    const model = await createChatModel(entry(endpoint.baseURL, true));
    await model.invoke(history);
    const stream = await model.stream(history);
    for await (const _chunk of stream) {
      // drained
    }
    expect(endpoint.requests).toHaveLength(2);
    for (const request of endpoint.requests) {
      expect(assistants(request.messages)).toEqual(["I should search first.", "The search says the Nile.", undefined]);
      // Tool calls and other messages are unchanged.
      expect(request.messages.find((m) => m["role"] === "assistant")?.["tool_calls"]).toHaveLength(1);
      expect(request.messages.filter((m) => "reasoning_content" in m && m["role"] !== "assistant")).toEqual([]);
    }
  });

  it("keeps the reasoning per call when calls on one model run at once, and through bindTools", async () => {
    endpoint = await startScriptedOpenAI({ script: () => ({ text: "ok", delayMs: 20 }) });
    const model = await createChatModel(entry(endpoint.baseURL, true));
    const bound = model.bindTools!([
      { type: "function", function: { name: "search", description: "s", parameters: { type: "object" } } },
    ]);
    const withThought = (thought: string) => [
      new HumanMessage(thought),
      new AIMessage({ content: "a", additional_kwargs: { reasoning_content: thought } }),
      new HumanMessage("next"),
    ];
    await Promise.all(["alpha", "beta", "gamma"].map((t) => bound.invoke(withThought(t))));
    const pairs = endpoint.requests.map((r) => [
      r.messages.find((m) => m["role"] === "user")?.["content"],
      assistants(r.messages)[0],
    ]);
    expect(pairs.sort()).toEqual([
      ["alpha", "alpha"],
      ["beta", "beta"],
      ["gamma", "gamma"],
    ]);
  });

  it("stays aligned when one message converts to two request messages (an audio reply)", async () => {
    endpoint = await startScriptedOpenAI({ script: () => ({ text: "ok" }) });
    const model = await createChatModel(entry(endpoint.baseURL, true));
    await model.invoke([
      new HumanMessage("say it"),
      new AIMessage({ content: "spoken", additional_kwargs: { audio: { id: "audio_1" }, reasoning_content: "first" } }),
      new HumanMessage("again"),
      new AIMessage({ content: "ok", additional_kwargs: { reasoning_content: "second" } }),
      new HumanMessage("thanks"),
    ]);
    const sent = endpoint.requests[0]!.messages.filter((m) => m["role"] === "assistant");
    expect(sent.map((m) => [m["audio"] === undefined ? "text" : "audio", m["reasoning_content"]])).toEqual([
      ["text", "first"],
      ["audio", undefined],
      ["text", "second"],
    ]);
  });

  it("is off unless configured: the request carries no reasoning_content (LangChain's default)", async () => {
    endpoint = await startScriptedOpenAI({ script: () => ({ text: "x" }) });
    await (await createChatModel(entry(endpoint.baseURL))).invoke(history);
    expect(assistants(endpoint.requests[0]!.messages)).toEqual([undefined, undefined, undefined]);
  });
});
