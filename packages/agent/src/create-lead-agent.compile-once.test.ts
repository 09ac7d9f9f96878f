import { SubagentRegistry } from "@deerflow/subagents";
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { tool } from "@langchain/core/tools";
import { Command, MemorySaver } from "@langchain/langgraph";
import { ChatOpenAI } from "@langchain/openai";
import * as langchain from "langchain";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createLeadAgent, staticModels, toolNotOfferedText } from "./index.js";
import { startScriptedOpenAI, type ScriptedOpenAI } from "./testing/index.js";
import { countingProvider, hangingTool } from "../test/support/fixtures.js";

vi.mock("langchain", async (importOriginal) => {
  const actual = await importOriginal<typeof import("langchain")>();
  return { ...actual, createAgent: vi.fn(actual.createAgent) };
});

const config = (threadId: string, configurable: Record<string, unknown> = {}) => ({
  configurable: { ...configurable, thread_id: threadId },
});
const lastText = (messages: readonly BaseMessage[]) => String(messages.at(-1)?.content);

const endpoints: ScriptedOpenAI[] = [];
afterEach(async () => {
  for (const e of endpoints.splice(0)) await e.close();
});

describe("createLeadAgent compiles once", () => {
  it("compiles the graph once and runs any number of runs on it", async () => {
    const compiles = vi.mocked(langchain.createAgent);
    compiles.mockClear();
    const model = fakeModel();
    for (let i = 0; i < 12; i++) model.respond(new AIMessage(`answer ${i}`));
    const agent = await createLeadAgent({ models: staticModels({ fake: model }), checkpointer: new MemorySaver() });
    for (let i = 0; i < 12; i++) {
      const out = await agent.invoke({ messages: [new HumanMessage(`q${i}`)] }, config(`t${i % 3}`));
      expect(lastText(out.messages as BaseMessage[])).toBe(`answer ${i}`);
    }
    expect(compiles).toHaveBeenCalledTimes(1);
    expect(model.callCount).toBe(12);
  });

  it("gives two concurrent runs on different threads each the model their config names", async () => {
    // Both runs wait in this tool until both are in it, so their model calls interleave.
    let arrived = 0;
    let release!: () => void;
    const together = new Promise<void>((resolve) => (release = resolve));
    const meet = tool(
      async () => {
        if (++arrived === 2) release();
        await together;
        return "met";
      },
      { name: "meet", description: "Waits for the other run", schema: { type: "object", properties: {} } },
    );
    const a = fakeModel()
      .respondWithTools([{ name: "meet", args: {}, id: "a1" }])
      .respond(new AIMessage("from a"));
    const b = fakeModel()
      .respondWithTools([{ name: "meet", args: {}, id: "b1" }])
      .respond(new AIMessage("from b"));
    const agent = await createLeadAgent({
      models: staticModels({ a, b }, "a"),
      tools: [meet],
      checkpointer: new MemorySaver(),
    });
    const [outA, outB] = await Promise.all([
      agent.invoke({ messages: [new HumanMessage("hi")] }, config("thread-a", { model_name: "a" })),
      agent.invoke({ messages: [new HumanMessage("hi")] }, { ...config("thread-b"), context: { model_name: "b" } }),
    ]);
    expect(lastText(outA.messages as BaseMessage[])).toBe("from a");
    expect(lastText(outB.messages as BaseMessage[])).toBe("from b");
    expect([a.callCount, b.callCount]).toEqual([2, 2]);
  });

  it("reads the model from context over configurable (DeerFlow's precedence)", async () => {
    const a = fakeModel().respond(new AIMessage("from a"));
    const b = fakeModel().respond(new AIMessage("from b"));
    const agent = await createLeadAgent({ models: staticModels({ a, b }, "a"), checkpointer: new MemorySaver() });
    const out = await agent.invoke(
      { messages: [new HumanMessage("hi")] },
      { ...config("t", { model_name: "a" }), context: { model_name: "b" } },
    );
    expect(lastText(out.messages as BaseMessage[])).toBe("from b");
    expect(a.callCount).toBe(0);
  });

  it("offers task only to runs with subagents on, and refuses a call to it otherwise", async () => {
    const openai = await startScriptedOpenAI({
      script: [
        { text: "on" },
        { toolCalls: [{ name: "task", args: { description: "x", prompt: "y", subagent_type: "general-purpose" } }] },
        { text: "off" },
      ],
    });
    endpoints.push(openai);
    const model = new ChatOpenAI({
      model: "scripted",
      apiKey: "test",
      configuration: { baseURL: openai.baseURL },
      maxRetries: 0,
    });
    const agent = await createLeadAgent({
      models: staticModels({ scripted: model }),
      subagents: { registry: new SubagentRegistry() },
      checkpointer: new MemorySaver(),
    });

    await agent.invoke({ messages: [new HumanMessage("hi")] }, config("t-on"));
    const off = await agent.invoke(
      { messages: [new HumanMessage("hi")] },
      config("t-off", { subagent_enabled: false }),
    );

    const [on, offFirst, offSecond] = openai.requests;
    expect(on?.toolNames).toContain("task");
    expect(offFirst?.toolNames).not.toContain("task");
    expect(offSecond?.toolNames).not.toContain("task");
    expect(offFirst?.toolNames).toEqual(on?.toolNames.filter((n) => n !== "task"));
    const refused = (off.messages as BaseMessage[]).find((m): m is ToolMessage => ToolMessage.isInstance(m));
    expect(refused).toMatchObject({ name: "task", status: "error", content: toolNotOfferedText("task") });
    expect(JSON.stringify(on?.messages[0])).toContain("<subagent_system>");
    expect(JSON.stringify(offFirst?.messages[0])).not.toContain("<subagent_system>");
  });
});

describe("the thread sandbox of a compiled agent", () => {
  it("is acquired per thread and released after every run: 100 runs on 5 threads leave none acquired", async () => {
    const provider = countingProvider();
    const model = fakeModel();
    // Explicit messages: respondWithTools would echo the whole conversation as the content.
    for (let i = 0; i < 100; i++)
      model
        .respond(
          new AIMessage({
            content: "",
            tool_calls: [{ name: "ls", args: { path: "/mnt/user-data/workspace" }, id: `ls${i}` }],
          }),
        )
        .respond(new AIMessage("ok"));
    const agent = await createLeadAgent({
      models: staticModels({ fake: model }),
      sandboxProvider: provider,
      checkpointer: new MemorySaver(),
    });
    let maxHeld = 0;
    let runsWithTools = 0;
    const watch = setInterval(() => (maxHeld = Math.max(maxHeld, provider.log.held.size)), 1);
    try {
      await Promise.all(
        Array.from({ length: 5 }, async (_, thread) => {
          for (let i = 0; i < 20; i++) {
            const out = await agent.invoke(
              { messages: [new HumanMessage("list")] },
              config(`thread-${thread}`, { run_id: `run-${thread}-${i}`, user_id: "u" }),
            );
            // The threads share the model's script, so a run gets either a tool call or the answer first.
            const messages = out.messages as BaseMessage[];
            const input = messages.findLastIndex((m) => HumanMessage.isInstance(m));
            if (!messages.slice(input).some((m) => ToolMessage.isInstance(m))) continue;
            runsWithTools++;
            // Acquired by the tool call (DeerFlow's lazy_init), recorded in the state by the next model call.
            expect((out as { sandbox?: unknown }).sandbox).toEqual({ sandbox_id: `fake:u:thread-${thread}` });
          }
        }),
      );
    } finally {
      clearInterval(watch);
    }
    expect(runsWithTools).toBeGreaterThan(0);
    expect(provider.log.events.filter((e) => e.startsWith("acquire"))).toHaveLength(runsWithTools);
    expect(provider.log.events.filter((e) => e.startsWith("release"))).toHaveLength(runsWithTools);
    expect(provider.log.held.size).toBe(0);
    expect(maxHeld).toBeLessThanOrEqual(5);
  });

  /** A run that asks for clarification (after listing the workspace when `listFirst`), then its resume. */
  async function clarifyThenResume(threadId: string, listFirst: boolean) {
    const provider = countingProvider();
    const model = fakeModel();
    if (listFirst)
      model.respond(
        new AIMessage({
          content: "",
          tool_calls: [{ name: "ls", args: { path: "/mnt/user-data/workspace" }, id: "l1" }],
        }),
      );
    model
      .respondWithTools([
        { name: "ask_clarification", args: { question: "Which?", clarification_type: "missing_info" }, id: "q1" },
      ])
      .respond(new AIMessage("Thanks."));
    const agent = await createLeadAgent({
      models: staticModels({ fake: model }),
      sandboxProvider: provider,
      checkpointer: new MemorySaver(),
    });
    await agent.invoke({ messages: [new HumanMessage("do it")] }, config(threadId, { run_id: "r1" }));
    expect((await agent.graph.getState(config(threadId))).tasks[0]?.interrupts).toHaveLength(1);
    expect(provider.log.held.size).toBe(0);
    const out = await agent.invoke(new Command({ resume: "this one" }), config(threadId, { run_id: "r2" }));
    expect(lastText(out.messages as BaseMessage[])).toBe("Thanks.");
    return { out, provider };
  }

  it("is released when a run stops on an interrupt, and a resume using no sandbox tool acquires none", async () => {
    const { provider } = await clarifyThenResume("t-ask", true);
    expect(provider.log.events).toEqual(["acquire fake:default:t-ask", "release fake:default:t-ask"]);
  });

  it("is never acquired by a run that calls no sandbox tool (DeerFlow's lazy_init)", async () => {
    const { out, provider } = await clarifyThenResume("t-lazy", false);
    expect((out as { sandbox?: unknown }).sandbox).toBeUndefined();
    expect(provider.log.events).toEqual([]);
  });

  it("is released when a streamed run is aborted mid-tool or fails", async () => {
    const provider = countingProvider();
    const { tool: hang, called: toolStarted } = hangingTool("hang");
    const model = fakeModel()
      .respond(
        new AIMessage({
          content: "",
          tool_calls: [{ name: "ls", args: { path: "/mnt/user-data/workspace" }, id: "l0" }],
        }),
      )
      .respondWithTools([{ name: "hang", args: {}, id: "h1" }])
      .respondWithTools([{ name: "ls", args: { path: "/mnt/user-data/workspace" }, id: "l1" }])
      .respondWithTools([{ name: "ls", args: { path: "/mnt/user-data/workspace" }, id: "l2" }]);
    const agent = await createLeadAgent({
      models: staticModels({ fake: model }),
      sandboxProvider: provider,
      tools: [hang],
      checkpointer: new MemorySaver(),
    });

    const controller = new AbortController();
    const consumed = (async () => {
      for await (const _ of await agent.stream(
        { messages: [new HumanMessage("hang")] },
        { ...config("t-abort", { run_id: "a1" }), signal: controller.signal },
      ))
        void _;
    })();
    await toolStarted;
    expect(provider.log.held.size).toBe(1);
    controller.abort();
    await expect(consumed).rejects.toThrow();
    expect(provider.log.held.size).toBe(0);

    // A provider error no longer fails a run (LlmErrorHandlingMiddleware answers with a message): fail it on the recursion limit.
    await expect(
      agent.invoke(
        { messages: [new HumanMessage("list")] },
        { ...config("t-fail", { run_id: "f1" }), recursionLimit: 2 },
      ),
    ).rejects.toThrow(/Recursion limit/);
    expect(provider.log.events.filter((e) => e.endsWith("t-fail"))).toEqual([
      "acquire fake:default:t-fail",
      "release fake:default:t-fail",
    ]);
    expect(provider.log.held.size).toBe(0);
  });
});
