import { AIMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { MemorySaver } from "@langchain/langgraph";
import { createAgent, tool } from "langchain";
import { describe, expect, it } from "vitest";
import type { StreamMode } from "../runs/types.js";
import { executeRun } from "./execute-run.js";
import { GatedChatModel } from "../../test/support/worker/gated-chat-model.js";
import { asStreamable, chatFactory, chatGraph, nestedGraph } from "../../test/support/worker/graphs.js";
import { RecordingBridge } from "../../test/support/worker/recording-bridge.js";
import { makeRun } from "../../test/support/worker/run-record.js";

const userInput = { messages: [{ role: "user", content: "hi" }] };

async function runChat(streamMode: StreamMode[], extra: { streamSubgraphs?: boolean; nested?: boolean } = {}) {
  const model = new GatedChatModel({ tokens: ["Hel", "lo", "!"] });
  const checkpointer = new MemorySaver();
  const bridge = new RecordingBridge();
  const run = makeRun({ streamMode, input: userInput, ...(extra.streamSubgraphs ? { streamSubgraphs: true } : {}) });
  const outcome = await executeRun({
    run,
    graph: (ctx) => (extra.nested ? nestedGraph(model, ctx.checkpointer) : chatGraph(model, ctx.checkpointer)),
    bridge,
    checkpointer,
    signal: new AbortController().signal,
  });
  return { run, bridge, outcome, checkpointer };
}

type Msg = { type: string; id: string | null; content: unknown };

describe("executeRun stream modes", () => {
  it("publishes metadata first, then values (the default mode) with serialised messages", async () => {
    const { run, bridge, outcome } = await runChat(["values"]);
    expect(outcome).toEqual({ status: "success", error: null, threadStatus: "idle", rolledBack: false });
    expect(bridge.events[0]).toEqual({
      runId: run.runId,
      event: "metadata",
      data: { run_id: run.runId, thread_id: run.threadId, attempt: 1 },
    });
    expect(new Set(bridge.names())).toEqual(new Set(["metadata", "values"]));
    const last = bridge.dataOf("values").at(-1) as { messages: Msg[] };
    expect(last.messages.map((m) => [m.type, m.content])).toEqual([
      ["human", "hi"],
      ["ai", "Hello!"],
    ]);
    expect(last.messages.every((m) => typeof m.id === "string")).toBe(true);
    expect(bridge.ended.size).toBe(0); // the caller publishes the end marker
  });

  it("publishes every requested mode under its documented name and nothing it did not ask for", async () => {
    const modes: StreamMode[] = ["values", "updates", "messages-tuple", "custom", "debug", "tasks", "checkpoints"];
    const { bridge, outcome } = await runChat(modes);
    expect(outcome.status).toBe("success");
    expect(new Set(bridge.names())).toEqual(
      new Set(["metadata", "values", "updates", "messages", "custom", "debug", "tasks", "checkpoints"]),
    );

    const updates = bridge.dataOf("updates") as Record<string, { messages: Msg[] }>[];
    expect(updates.at(-1)?.["model"]?.messages[0]).toMatchObject({ type: "ai", content: "Hello!" });

    expect(bridge.dataOf("custom")).toEqual([{ progress: "model-start", count: 1 }]);

    const checkpoints = bridge.dataOf("checkpoints") as Record<string, unknown>[];
    const lastCheckpoint = checkpoints.at(-1)!;
    expect(lastCheckpoint).toMatchObject({ next: [], metadata: { source: "loop" } });
    expect(lastCheckpoint["checkpoint"]).toMatchObject({ checkpoint_ns: "", checkpoint_id: expect.any(String) });
    expect(lastCheckpoint["parent_checkpoint"]).toMatchObject({ checkpoint_id: expect.any(String) });
    expect(lastCheckpoint).toHaveProperty("parent_config");
    expect(lastCheckpoint).not.toHaveProperty("parentConfig");
    expect(lastCheckpoint["config"]).not.toHaveProperty("callbacks");
    expect((lastCheckpoint["values"] as { messages: Msg[] }).messages).toHaveLength(2);

    const tasks = bridge.dataOf("tasks") as Record<string, unknown>[];
    expect(tasks[0]).toMatchObject({ name: "model", triggers: expect.any(Array), interrupts: [] });
    expect(tasks.at(-1)).toMatchObject({
      name: "model",
      result: { messages: [expect.objectContaining({ type: "ai" })] },
    });

    const debug = bridge.dataOf("debug") as { type: string; step: number; payload: Record<string, unknown> }[];
    expect(new Set(debug.map((d) => d.type))).toEqual(new Set(["checkpoint", "task", "task_result"]));
    const debugCheckpoint = debug.find((d) => d.type === "checkpoint")!;
    expect(debugCheckpoint.payload).toHaveProperty("checkpoint");
    expect(debugCheckpoint.payload["config"]).not.toHaveProperty("callbacks");
  });

  it("keeps the internal updates stream private when only values is requested", async () => {
    const { bridge } = await runChat(["values"]);
    expect(bridge.names()).not.toContain("updates");
  });

  it("streams messages-tuple chunks as messages [chunk, metadata] with a stable id and the node name", async () => {
    const { bridge } = await runChat(["messages-tuple"]);
    const tuples = bridge.dataOf("messages") as [Msg, Record<string, unknown>][];
    expect(tuples).toHaveLength(3);
    const ids = new Set(tuples.map(([chunk]) => chunk.id));
    expect(ids.size).toBe(1);
    expect([...ids][0]).toEqual(expect.any(String));
    expect(tuples.map(([chunk]) => chunk.content).join("")).toBe("Hello!");
    for (const [chunk, metadata] of tuples) {
      expect(chunk.type).toBe("ai");
      expect(metadata["langgraph_node"]).toBe("model");
      expect(metadata["thread_id"]).toEqual(expect.any(String));
    }
    expect(bridge.names()).not.toContain("messages/partial");
  });

  it("derives legacy messages: metadata once, accumulated partials, complete messages once each", async () => {
    const { bridge } = await runChat(["messages"]);
    const names = bridge.names();
    expect(names).not.toContain("values");
    expect(names).not.toContain("messages");

    const metadata = bridge.dataOf("messages/metadata") as Record<string, { metadata: Record<string, unknown> }>[];
    expect(metadata).toHaveLength(1);
    const [aiId, entry] = Object.entries(metadata[0]!)[0]!;
    expect(entry.metadata["langgraph_node"]).toBe("model");

    const partials = bridge.dataOf("messages/partial") as Msg[][];
    expect(partials.map(([m]) => m?.content)).toEqual(["Hel", "Hello", "Hello!"]);
    expect(partials.every(([m]) => m?.id === aiId)).toBe(true);

    const complete = (bridge.dataOf("messages/complete") as Msg[][]).flat();
    expect(complete.map((m) => [m.type, m.content])).toEqual([
      ["human", "hi"],
      ["ai", "Hello!"],
    ]);
    expect(new Set(complete.map((m) => m.id)).size).toBe(complete.length);
    // the first partial comes right after its metadata event
    expect(names.indexOf("messages/metadata")).toBeLessThan(names.indexOf("messages/partial"));
  });

  it("sends both values and legacy messages when both are requested", async () => {
    const { bridge } = await runChat(["messages", "values"]);
    expect(bridge.names()).toContain("values");
    expect(bridge.names()).toContain("messages/complete");
  });

  it("names subgraph events mode|node:taskId and keeps root events bare", async () => {
    const { bridge } = await runChat(["values", "messages-tuple", "custom"], { streamSubgraphs: true, nested: true });
    const names = bridge.names();
    const nested = names.filter((n) => n.includes("|"));
    expect(nested.length).toBeGreaterThan(0);
    for (const name of nested) expect(name).toMatch(/^(values|messages|custom)\|outer:[0-9a-f-]{36}$/);
    expect(names).toContain("values");
    expect(names.some((n) => n.startsWith("messages|outer:"))).toBe(true);
    expect(names.some((n) => n.startsWith("custom|outer:"))).toBe(true);
    expect(names).not.toContain("custom"); // the writer runs inside the subgraph
  });

  it("publishes no namespaced events without streamSubgraphs", async () => {
    const { bridge } = await runChat(["values", "custom"], { nested: true });
    expect(bridge.names().some((n) => n.includes("|"))).toBe(false);
    expect(bridge.dataOf("values").length).toBeGreaterThan(0);
  });

  it("records run_id, thread's assistant and run metadata in the checkpoints it writes", async () => {
    const model = new GatedChatModel({ tokens: ["ok"] });
    const checkpointer = new MemorySaver();
    const run = makeRun({
      input: userInput,
      metadata: { source_app: "tests" },
      config: { metadata: { team: "core" }, tags: ["t1"] },
    });
    await executeRun({
      run,
      graph: chatFactory(model),
      bridge: new RecordingBridge(),
      checkpointer,
      signal: new AbortController().signal,
    });
    const head = await checkpointer.getTuple({ configurable: { thread_id: run.threadId } });
    expect(head?.metadata).toMatchObject({
      run_id: run.runId,
      assistant_id: "agent",
      source_app: "tests",
      team: "core",
      source: "loop",
    });
  });

  it("streams a createAgent run with a tool: tool calls, tool results and the final answer", async () => {
    const lookup = tool(async ({ city }: { city: string }) => `sunny in ${city}`, {
      name: "weather",
      description: "Weather of a city",
      schema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    });
    const model = fakeModel()
      .respondWithTools([{ name: "weather", args: { city: "Paris" }, id: "call_1" }])
      .respond(new AIMessage({ content: "It is sunny.", id: "answer" }));
    const checkpointer = new MemorySaver();
    const bridge = new RecordingBridge();
    const run = makeRun({
      streamMode: ["values", "updates", "messages-tuple"],
      input: { messages: [{ role: "user", content: "weather?" }] },
    });
    const outcome = await executeRun({
      run,
      graph: (ctx) =>
        asStreamable(
          createAgent({ model, tools: [lookup], ...(ctx.checkpointer ? { checkpointer: ctx.checkpointer } : {}) }),
        ),
      bridge,
      checkpointer,
      signal: new AbortController().signal,
    });
    expect(outcome).toMatchObject({ status: "success", threadStatus: "idle" });
    const final = bridge.dataOf("values").at(-1) as { messages: (Msg & Record<string, unknown>)[] };
    expect(final.messages.map((m) => m.type)).toEqual(["human", "ai", "tool", "ai"]);
    expect(final.messages[1]?.["tool_calls"]).toEqual([
      expect.objectContaining({ name: "weather", args: { city: "Paris" }, id: "call_1" }),
    ]);
    expect(final.messages[2]).toMatchObject({ type: "tool", tool_call_id: "call_1", content: "sunny in Paris" });
    expect(final.messages[3]).toMatchObject({ type: "ai", content: "It is sunny.", id: "answer" });
    const updatedNodes = (bridge.dataOf("updates") as Record<string, unknown>[]).flatMap((u) => Object.keys(u));
    expect(updatedNodes).toContain("tools");
    const tupleNodes = (bridge.dataOf("messages") as [Msg, Record<string, unknown>][]).map(
      ([, meta]) => meta["langgraph_node"],
    );
    expect(tupleNodes.length).toBeGreaterThan(0);
    expect(bridge.events.every((e) => JSON.stringify(e.data) !== undefined)).toBe(true);
  });

  it("streams LangGraph's tools mode (tool lifecycle) as `tools` events", async () => {
    const lookup = tool(async ({ city }: { city: string }) => `sunny in ${city}`, {
      name: "weather",
      description: "Weather of a city",
      schema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    });
    const model = fakeModel()
      .respondWithTools([{ name: "weather", args: { city: "Oslo" }, id: "call_t" }])
      .respond(new AIMessage({ content: "Sunny.", id: "answer" }));
    const bridge = new RecordingBridge();
    const run = makeRun({ streamMode: ["tools"], input: { messages: [{ role: "user", content: "weather?" }] } });
    const outcome = await executeRun({
      run,
      graph: (ctx) =>
        asStreamable(
          createAgent({ model, tools: [lookup], ...(ctx.checkpointer ? { checkpointer: ctx.checkpointer } : {}) }),
        ),
      bridge,
      checkpointer: new MemorySaver(),
      signal: new AbortController().signal,
    });
    expect(outcome.status).toBe("success");
    const tools = bridge.dataOf("tools");
    expect(tools.length).toBeGreaterThan(0);
    expect(JSON.stringify(tools)).toContain("weather");
    expect(bridge.events.filter((e) => e.event !== "metadata").every((e) => e.event === "tools")).toBe(true);
  });
});
