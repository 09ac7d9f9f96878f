import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { MemorySaver, ReducedValue, StateSchema } from "@langchain/langgraph";
import { createAgent, createMiddleware } from "langchain";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { createLeadAgent, staticModels } from "../index.js";
import { callGraphDirectly, middlewareStatesAreEmpty } from "./call-graph-directly.js";

const config = (threadId: string) => ({ configurable: { thread_id: threadId } });
const texts = (messages: readonly BaseMessage[]) => messages.map((m) => String(m.content));

describe("middlewareStatesAreEmpty", () => {
  it("holds for middlewares without a state schema or with optional fields only", async () => {
    const plain = createMiddleware({ name: "Plain", wrapModelCall: (r, h) => h(r) });
    const optional = createMiddleware({ name: "Optional", stateSchema: z.object({ summary: z.string().optional() }) });
    const reduced = createMiddleware({
      name: "Reduced",
      stateSchema: new StateSchema({
        seen: new ReducedValue(z.array(z.string()).optional(), { reducer: (a, b) => [...(a ?? []), ...(b ?? [])] }),
      }),
    });
    const privateField = createMiddleware({ name: "Private", stateSchema: z.object({ _count: z.number() }) });
    expect(await middlewareStatesAreEmpty([plain, optional, reduced, privateField])).toBe(true);
  });

  it("fails for a middleware whose schema has a default or a required field", async () => {
    const withDefault = createMiddleware({ name: "Default", stateSchema: z.object({ n: z.number().default(0) }) });
    const required = createMiddleware({ name: "Required", stateSchema: z.object({ n: z.number() }) });
    expect(await middlewareStatesAreEmpty([withDefault])).toBe(false);
    expect(await middlewareStatesAreEmpty([required])).toBe(false);
  });
});

describe("callGraphDirectly", () => {
  it("runs the lead agent without reading the thread's state first, and the thread keeps its state", async () => {
    const model = fakeModel().respond(new AIMessage("one")).respond(new AIMessage("two"));
    const agent = await createLeadAgent({ models: staticModels({ fake: model }), checkpointer: new MemorySaver() });
    const getState = vi.spyOn(agent.graph, "getState");
    await agent.invoke({ messages: [new HumanMessage("first")] }, config("t1"));
    const out = await agent.invoke({ messages: [new HumanMessage("second")] }, config("t1"));
    expect(getState).not.toHaveBeenCalled();
    expect(texts(out.messages as BaseMessage[])).toEqual(["first", "one", "second", "two"]);
    // The channels the input no longer re-feeds still hold the thread's values (title after the first exchange).
    const state = await agent.graph.getState(config("t1"));
    expect(typeof state.values["title"]).toBe("string");
  });

  it("keeps the agent's default config (recursion limit) and lets the call's own config win", async () => {
    const loop = fakeModel();
    for (let i = 0; i < 10; i++) loop.respondWithTools([{ name: "write_todos", args: { todos: [] }, id: `c${i}` }]);
    const agent = await createLeadAgent({ models: staticModels({ fake: loop }), recursionLimit: 3 });
    await expect(agent.invoke({ messages: [new HumanMessage("go")] }, config("r1"))).rejects.toThrow(/Recursion limit/);
    expect(loop.callCount).toBeLessThanOrEqual(2);
  });

  it("streams (stream and streamEvents v3) through the graph with the same defaults", async () => {
    const model = fakeModel().respond(new AIMessage("streamed")).respond(new AIMessage("evented"));
    const agent = callGraphDirectly(
      createAgent({ model, tools: [], middleware: [createMiddleware({ name: "M", wrapModelCall: (r, h) => h(r) })] }),
    );
    const getState = vi.spyOn(agent.graph, "getState");
    const chunks: unknown[] = [];
    for await (const chunk of await agent.stream({ messages: [new HumanMessage("hi")] }, { streamMode: "values" }))
      chunks.push(chunk);
    expect(texts((chunks.at(-1) as { messages: BaseMessage[] }).messages)).toEqual(["hi", "streamed"]);
    // langchain's v3 path reads the state before it hands the call on; the direct one does not.
    await agent.streamEvents({ messages: [new HumanMessage("hi")] }, { version: "v3" });
    expect(getState).not.toHaveBeenCalled();
  });
});
