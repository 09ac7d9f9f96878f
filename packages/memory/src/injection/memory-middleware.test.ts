import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { InMemoryStore, MemorySaver } from "@langchain/langgraph";
import { createAgent } from "langchain";
import { describe, expect, it } from "vitest";
import { StoreMemoryBackend } from "../backend/store-memory-backend.js";
import { MemoryManager } from "../memory-manager.js";
import { MemoryUpdateQueue, type MemoryQueueItem } from "../queue/memory-update-queue.js";
import { createMemoryMiddleware } from "./memory-middleware.js";

const config = (thread: string, user = "alice") => ({ configurable: { thread_id: thread, user_id: user } });

async function setup(options: { injection?: boolean } = {}) {
  const manager = new MemoryManager({ backend: new StoreMemoryBackend({ store: new InMemoryStore() }) });
  await manager.addFact(
    { userId: "alice" },
    { content: "Prefers metric units", category: "preference", confidence: 0.9 },
  );
  const queued: MemoryQueueItem[] = [];
  const queue = new MemoryUpdateQueue({ debounceMs: 3_600_000, process: async (item) => void queued.push(item) });
  const model = fakeModel().respond(new AIMessage("first answer")).respond(new AIMessage("second answer"));
  const agent = createAgent({
    model,
    tools: [],
    checkpointer: new MemorySaver(),
    middleware: [createMemoryMiddleware({ manager, queue, ...options })],
  });
  return { agent, model, queue, queued, manager };
}

const humanTexts = (messages: readonly BaseMessage[]) =>
  messages.filter((m) => HumanMessage.isInstance(m)).map((m) => String(m.content));

describe("createMemoryMiddleware", () => {
  it("injects memory before the first user message as a hidden human message, one snapshot per conversation", async () => {
    const { agent, model, manager } = await setup();
    await agent.invoke({ messages: [new HumanMessage({ id: "m1", content: "How far is it?" })] }, config("t1"));
    const first = model.calls[0]?.messages ?? [];
    expect(humanTexts(first)).toEqual([
      "<memory>\nFacts:\n- [preference | 0.90] Prefers metric units\n</memory>",
      "How far is it?",
    ]);
    const memory = first.find((m) => m.id === "m1__memory");
    expect(memory?.type).toBe("human");
    expect(memory?.additional_kwargs["hide_from_ui"]).toBe(true);
    expect(first.some((m) => m.type === "system" && String(m.content).includes("metric"))).toBe(false);

    // A fact added meanwhile does not change this conversation's snapshot; the request keeps its place.
    await manager.addFact({ userId: "alice" }, { content: "Lives in Oslo", confidence: 0.95 });
    await agent.invoke({ messages: [new HumanMessage("And in miles?")] }, config("t1"));
    const second = model.calls[1]?.messages ?? [];
    expect(humanTexts(second)).toEqual([
      "<memory>\nFacts:\n- [preference | 0.90] Prefers metric units\n</memory>",
      "How far is it?",
      "And in miles?",
    ]);
    // The thread's state never holds the memory (the request does).
    const state = await agent.graph.getState(config("t1"));
    expect(
      (state.values as { messages: BaseMessage[] }).messages.some((m) => String(m.content).includes("<memory>")),
    ).toBe(false);
  });

  it("adds no graph node: everything happens inside the model call", async () => {
    const { agent } = await setup();
    expect(Object.keys(agent.graph.nodes).filter((n) => n.includes("Memory"))).toEqual([]);
  });

  it("injects nothing for a user without memory, with injection off, or without a user", async () => {
    for (const [options, user] of [
      [{}, "bob"],
      [{ injection: false }, "alice"],
    ] as const) {
      const { agent, model } = await setup(options);
      await agent.invoke({ messages: [new HumanMessage("Hi")] }, config("t", user));
      expect(humanTexts(model.calls[0]?.messages ?? [])).toEqual(["Hi"]);
    }
    const { agent, model } = await setup();
    await agent.invoke({ messages: [new HumanMessage("Hi")] }, { configurable: { thread_id: "t" } });
    expect(humanTexts(model.calls[0]?.messages ?? [])).toEqual(["Hi"]);
  });

  it("queues the conversation after the run under the run's thread, user and agent", async () => {
    const { agent, queue, queued } = await setup();
    await agent.invoke(
      { messages: [new HumanMessage("Hi")] },
      { configurable: { thread_id: "t9", user_id: "alice", agent_name: "coder" } },
    );
    expect(queue.size).toBe(1);
    await queue.flush();
    expect(queued[0]?.threadId).toBe("t9");
    expect(queued[0]?.scope).toEqual({ userId: "alice", agentName: "coder" });
    expect(queued[0]?.messages.at(-1)?.content).toBe("first answer");
  });

  it("goes on without memory when reading it fails or takes too long", async () => {
    const manager = new MemoryManager({ backend: new StoreMemoryBackend({ store: new InMemoryStore() }) });
    manager.get = () => new Promise(() => {});
    const model = fakeModel().respond(new AIMessage("ok"));
    const agent = createAgent({
      model,
      tools: [],
      middleware: [createMemoryMiddleware({ manager, injectionTimeoutMs: 50 })],
    });
    await agent.invoke({ messages: [new HumanMessage("Hi")] }, config("t"));
    expect(humanTexts(model.calls[0]?.messages ?? [])).toEqual(["Hi"]);
  });
});
