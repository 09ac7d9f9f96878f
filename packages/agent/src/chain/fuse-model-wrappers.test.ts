import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { tool } from "@langchain/core/tools";
import { Command, MemorySaver, StateSchema } from "@langchain/langgraph";
import { createAgent, createMiddleware, type AgentMiddleware } from "langchain";
import { describe, expect, it } from "vitest";
import { z } from "zod/v4";
import { fuseModelCallWrappers, MODEL_CALL_LAYER_NAME } from "./fuse-model-wrappers.js";

/** A wrapper that logs its before- and after-work. */
const logging = (name: string, log: string[]): AgentMiddleware =>
  createMiddleware({
    name,
    wrapModelCall: async (request, handler) => {
      log.push(`${name}:before`);
      const answer = await handler(request);
      log.push(`${name}:after`);
      return answer;
    },
  });

/** A wrapper that answers with a `Command` setting `mark`. */
const marking = (): AgentMiddleware =>
  createMiddleware({
    name: "Marks",
    wrapModelCall: async (request, handler) => {
      await handler(request);
      return new Command({ update: { mark: "seen" } });
    },
  });

const State = new StateSchema({ mark: z.string().optional(), count: z.number().optional() });

describe("fuseModelCallWrappers", () => {
  it("keeps the wrappers' order (after-work inner-first) and everything else of each middleware in its place", async () => {
    const log: string[] = [];
    const echo = tool(async () => "echoed", { name: "echo", description: "echo", schema: z.object({}) });
    const withTool = createMiddleware({
      name: "WithTool",
      tools: [echo],
      wrapModelCall: async (request, handler) => {
        log.push("WithTool:before");
        return handler(request);
      },
      wrapToolCall: async (request, handler) => {
        log.push("WithTool:tool");
        return handler(request);
      },
    });
    const chain = [logging("A", log), withTool, logging("B", log)];
    const fused = fuseModelCallWrappers(chain);
    expect(fused.map((m) => m.name)).toEqual([MODEL_CALL_LAYER_NAME, "WithTool"]);
    expect(fused[1]?.wrapModelCall).toBeUndefined();
    const model = fakeModel()
      .respondWithTools([{ name: "echo", args: {}, id: "e1" }])
      .respond(new AIMessage("done"));
    const agent = createAgent({ model, tools: [], middleware: fused });
    const state = await agent.invoke({ messages: [new HumanMessage("go")] });
    expect(log).toEqual([
      "A:before",
      "WithTool:before",
      "B:before",
      "B:after",
      "A:after",
      "WithTool:tool",
      "A:before",
      "WithTool:before",
      "B:before",
      "B:after",
      "A:after",
    ]);
    expect((state.messages as BaseMessage[]).some((m) => ToolMessage.isInstance(m) && m.content === "echoed")).toBe(
      true,
    );
  });

  it("hands each wrapper a system prompt and message that agree, whichever one the previous changed", async () => {
    const seen: string[] = [];
    const setPrompt = createMiddleware({
      name: "SetPrompt",
      wrapModelCall: (request, handler) => handler({ ...request, systemPrompt: "Base prompt." }),
    });
    const appendMessage = createMiddleware({
      name: "AppendMessage",
      wrapModelCall: (request, handler) => {
        seen.push(request.systemMessage.text);
        return handler({ ...request, systemMessage: request.systemMessage.concat("\nMore.") });
      },
    });
    const read = createMiddleware({
      name: "Read",
      wrapModelCall: (request, handler) => {
        seen.push(request.systemPrompt);
        return handler(request);
      },
    });
    const model = fakeModel().respond(new AIMessage("ok"));
    const agent = createAgent({
      model,
      tools: [],
      systemPrompt: "Original.",
      middleware: fuseModelCallWrappers([setPrompt, appendMessage, read]),
    });
    await agent.invoke({ messages: [new HumanMessage("hi")] });
    expect(seen).toEqual(["Base prompt.", "Base prompt.\nMore."]);
    const sent = (model.calls[0]?.messages as BaseMessage[])[0];
    expect(SystemMessage.isInstance(sent) ? sent.text : "").toBe("Base prompt.\nMore.");
  });

  it("gives each call the system message of its own prompt when prompts alternate between calls", async () => {
    const prompts = ["First.", "Second.", "First."];
    let call = 0;
    const setPrompt = createMiddleware({
      name: "SetPrompt",
      wrapModelCall: (request, handler) => handler({ ...request, systemPrompt: prompts[call++] ?? "" }),
    });
    const seen: string[] = [];
    const read = createMiddleware({
      name: "Read",
      wrapModelCall: (request, handler) => {
        seen.push(`${request.systemPrompt}|${request.systemMessage.text}`);
        return handler(request);
      },
    });
    const model = fakeModel().respond(new AIMessage("1")).respond(new AIMessage("2")).respond(new AIMessage("3"));
    const agent = createAgent({ model, tools: [], middleware: fuseModelCallWrappers([setPrompt, read]) });
    for (let i = 0; i < 3; i++) await agent.invoke({ messages: [new HumanMessage(`hi ${i}`)] });
    expect(seen).toEqual(["First.|First.", "Second.|Second.", "First.|First."]);
    const sent = model.calls.map((c) => {
      const first = (c.messages as BaseMessage[])[0];
      return SystemMessage.isInstance(first) ? first.text : "";
    });
    expect(sent).toEqual(prompts);
  });

  it("gives wrappers outside a Command the answer, and writes every wrapper's updates with the final answer", async () => {
    const seenByOuter: unknown[] = [];
    const outer = createMiddleware({
      name: "Outer",
      wrapModelCall: async (request, handler) => {
        const answer = await handler(request);
        seenByOuter.push(answer.content);
        return new Command({ update: { count: 2 } });
      },
    });
    const marks = marking();
    const rewrites = createMiddleware({
      name: "Rewrites",
      wrapModelCall: async (request, handler) => {
        const answer = await handler(request);
        return new AIMessage({ content: `${String(answer.content)}!`, id: answer.id ?? "a1" });
      },
    });
    const agent = createAgent({
      model: fakeModel().respond(new AIMessage("hello")),
      tools: [],
      stateSchema: State,
      middleware: fuseModelCallWrappers([outer, marks, rewrites]),
      checkpointer: new MemorySaver(),
    });
    const state = (await agent.invoke(
      { messages: [new HumanMessage("hi")] },
      { configurable: { thread_id: "t" } },
    )) as unknown as { messages: BaseMessage[]; mark?: string; count?: number };
    expect(seenByOuter).toEqual(["hello!"]);
    expect(state.mark).toBe("seen");
    expect(state.count).toBe(2);
    expect(state.messages.map((m) => m.content)).toEqual(["hi", "hello!"]);
  });

  it("writes a replaced answer over the model's own (one message, its id, the agent's name), and the only answer when the model failed", async () => {
    const marks = marking();
    const rewrites = createMiddleware({
      name: "Rewrites",
      wrapModelCall: async (request, handler) => {
        try {
          const answer = await handler(request);
          return new AIMessage({ content: `${String(answer.content)}!` });
        } catch {
          return new AIMessage({ content: "The model failed." });
        }
      },
    });
    const failing = fakeModel().respond(new AIMessage("hello")).respond(new Error("provider down"));
    const agent = createAgent({
      model: failing,
      tools: [],
      stateSchema: State,
      name: "named_agent",
      middleware: fuseModelCallWrappers([marks, rewrites], { agentName: "named_agent" }),
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: "t-replace" } };
    const updates: Record<string, unknown>[] = [];
    for await (const chunk of await agent.stream(
      { messages: [new HumanMessage("hi")] },
      { ...config, streamMode: "updates" },
    ))
      updates.push(chunk as Record<string, unknown>);
    let state = (await agent.graph.getState(config)).values as { messages: BaseMessage[]; mark?: string };
    expect(state.mark).toBe("seen");
    expect(state.messages.map((m) => m.content)).toEqual(["hi", "hello!"]);
    const answer = state.messages[1] as AIMessage;
    expect(answer.id).toEqual(expect.any(String));
    expect(answer.name).toBe("named_agent");
    // The node's update lists LangChain's write of the model's answer, then the replacing one with the updates.
    expect(updates).toHaveLength(1);
    const writes = updates[0]?.["model_request"] as Record<string, unknown>[];
    expect(writes.map((w) => Object.keys(w))).toEqual([["messages"], ["messages"], ["mark"]]);

    await agent.invoke({ messages: [new HumanMessage("again")] }, config);
    state = (await agent.graph.getState(config)).values as { messages: BaseMessage[]; mark?: string };
    expect(state.messages.map((m) => m.content)).toEqual(["hi", "hello!", "again", "The model failed."]);
  });

  it("writes the answer and the updates as one object in the node's update when no wrapper replaced the answer", async () => {
    const marks = marking();
    const agent = createAgent({
      model: fakeModel().respond(new AIMessage({ content: "hello", id: "m1" })),
      tools: [],
      stateSchema: State,
      middleware: fuseModelCallWrappers([marks, logging("Log", [])]),
    });
    const updates: Record<string, unknown>[] = [];
    for await (const chunk of await agent.stream({ messages: [new HumanMessage("hi")] }, { streamMode: "updates" }))
      updates.push(chunk as Record<string, unknown>);
    expect(updates).toEqual([{ model_request: { messages: [expect.objectContaining({ id: "m1" })], mark: "seen" } }]);
  });

  it("runs synchronous wrappers: a pass-through, a Command under one, and a synchronous throw seen by the wrapper outside as a rejection", async () => {
    const passing = (name: string): AgentMiddleware =>
      createMiddleware({ name, wrapModelCall: (request, handler) => handler(request) });
    const agent = createAgent({
      model: fakeModel().respond(new AIMessage({ content: "hello", id: "m1" })),
      tools: [],
      stateSchema: State,
      middleware: fuseModelCallWrappers([passing("Outer"), marking(), passing("Inner")]),
    });
    const state = await agent.invoke({ messages: [new HumanMessage("hi")] });
    expect(state.mark).toBe("seen");
    expect((state.messages as BaseMessage[]).map((m) => m.content)).toEqual(["hi", "hello"]);

    const caught: string[] = [];
    const catching = createMiddleware({
      name: "Catching",
      wrapModelCall: (request, handler) =>
        Promise.resolve(handler(request)).catch((err: Error) => {
          caught.push(err.message);
          return new AIMessage("recovered");
        }),
    });
    const throwing = createMiddleware({
      name: "Throwing",
      wrapModelCall: () => {
        throw new Error("thrown synchronously");
      },
    });
    const recovered = await createAgent({
      model: fakeModel().respond(new AIMessage("unused")),
      tools: [],
      middleware: fuseModelCallWrappers([catching, passing("Between"), throwing]),
    }).invoke({ messages: [new HumanMessage("hi")] });
    expect(caught).toEqual(["thrown synchronously"]);
    expect((recovered.messages as BaseMessage[]).at(-1)?.content).toBe("recovered");
  });

  it("leaves wrappers with a state schema in their own layer, and a chain without two fusable wrappers as is", () => {
    const a = logging("A", []);
    const b = logging("B", []);
    const withState = createMiddleware({
      name: "WithState",
      stateSchema: z.object({ x: z.string().optional() }),
      wrapModelCall: (request, handler) => handler(request),
    });
    expect(fuseModelCallWrappers([a, withState, b]).map((m) => m.name)).toEqual(["A", "WithState", "B"]);
    expect(fuseModelCallWrappers([a, b, withState, logging("C", []), logging("D", [])]).map((m) => m.name)).toEqual([
      MODEL_CALL_LAYER_NAME,
      "WithState",
      `${MODEL_CALL_LAYER_NAME}2`,
    ]);
  });
});
