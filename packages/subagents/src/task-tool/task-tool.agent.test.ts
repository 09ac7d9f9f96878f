import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { createAgent } from "langchain";
import { describe, expect, it } from "vitest";
import { createSubagentLimitMiddleware } from "../limits/index.js";
import type { SubagentConfig } from "../types.js";
import { createTaskTool } from "./task-tool.js";
import { FakeSubagentExecutor } from "../../test/support/task-tool/fake-executor.js";
import { SubagentExecutor } from "../executor/index.js";
import { SubagentRegistry } from "../registry/index.js";

const cfg = (name: string): SubagentConfig => ({
  name,
  description: `${name} agent`,
  disallowedTools: ["task"],
  model: "inherit",
  maxTurns: 10,
  timeoutMs: 1000,
});
const configs = [cfg("general-purpose"), cfg("bash")];
const registry = { get: (n: string) => configs.find((c) => c.name === n), list: () => configs };
const args = (description: string) => ({ description, prompt: `do ${description}`, subagent_type: "general-purpose" });

async function collect(stream: AsyncIterable<unknown>) {
  const custom: Record<string, unknown>[] = [];
  const updates: unknown[] = [];
  for await (const chunk of stream) {
    const [mode, payload] = chunk as [string, unknown];
    if (mode === "custom") custom.push(payload as Record<string, unknown>);
    else updates.push(payload);
  }
  return { custom, updates };
}

describe("createTaskTool in a createAgent lead", () => {
  it("streams task events as custom chunks and feeds the result back to the model", async () => {
    const executor = new FakeSubagentExecutor({
      messages: [new AIMessage({ content: "looking", id: "s1" })],
      result: "the answer",
      usage: { inputTokens: 3, outputTokens: 4, totalTokens: 7 },
    });
    const model = fakeModel()
      .respondWithTools([{ name: "task", args: args("find answer"), id: "call_1" }])
      .respond(new AIMessage("final"));
    const lead = createAgent({
      model,
      tools: [createTaskTool({ executor, registry, getParent: () => ({ model, tools: [] }) })],
    });
    const { custom } = await collect(
      await lead.stream({ messages: [new HumanMessage("go")] }, { streamMode: ["custom", "updates"] }),
    );
    expect(custom.map((e) => e["type"])).toEqual(["task_started", "task_running", "task_completed"]);
    expect(custom[0]).toEqual({
      type: "task_started",
      task_id: "call_1",
      description: "find answer",
      model_name: "fake-model",
    });
    expect(custom[1]).toMatchObject({
      task_id: "call_1",
      message_index: 1,
      total_messages: 1,
      message: { type: "ai", content: "looking", id: "s1" },
    });
    expect(custom[2]).toEqual({
      type: "task_completed",
      task_id: "call_1",
      result: "the answer",
      usage: { input_tokens: 3, output_tokens: 4, total_tokens: 7 },
      model_name: "fake-model",
    });
    const secondCall = model.calls[1]?.messages as BaseMessage[];
    const toolMsg = secondCall.find((m) => ToolMessage.isInstance(m));
    expect(toolMsg?.content).toBe("Task Succeeded. Result: the answer");
    expect(toolMsg?.additional_kwargs["subagent_status"]).toBe("completed");
  });

  it("runs only the first 3 of 5 parallel task calls under the limit middleware", async () => {
    const executor = new FakeSubagentExecutor();
    const calls = [1, 2, 3, 4, 5].map((i) => ({ name: "task", args: args(`t${i}`), id: `call_${i}` }));
    const model = fakeModel().respondWithTools(calls).respond(new AIMessage("final"));
    const lead = createAgent({
      model,
      tools: [createTaskTool({ executor, registry, getParent: () => ({ model, tools: [] }) })],
      middleware: [createSubagentLimitMiddleware({ maxConcurrent: 3 })],
    });
    const { custom } = await collect(
      await lead.stream({ messages: [new HumanMessage("go")] }, { streamMode: ["custom", "updates"] }),
    );
    expect(executor.calls.map((c) => c.task.id).sort()).toEqual(["call_1", "call_2", "call_3"]);
    expect(
      custom
        .filter((e) => e["type"] === "task_completed")
        .map((e) => e["task_id"])
        .sort(),
    ).toEqual(["call_1", "call_2", "call_3"]);
  });

  it("returns the unknown-type error as the tool result the model reads", async () => {
    const executor = new FakeSubagentExecutor();
    const model = fakeModel()
      .respondWithTools([{ name: "task", args: { ...args("x"), subagent_type: "nope" }, id: "call_1" }])
      .respond(new AIMessage("final"));
    const lead = createAgent({
      model,
      tools: [createTaskTool({ executor, registry, getParent: () => ({ model, tools: [] }) })],
    });
    const state = await lead.invoke({ messages: [new HumanMessage("go")] });
    const toolMsg = state.messages.find((m) => ToolMessage.isInstance(m));
    expect(String(toolMsg?.content)).toContain("nope");
    expect(executor.calls).toHaveLength(0);
  });

  it("drives the real SubagentExecutor and reports its result", async () => {
    const realRegistry = new SubagentRegistry();
    const executor = new SubagentExecutor({ registry: realRegistry });
    const subModel = fakeModel().respond(new AIMessage({ content: "sub answer", id: "sub_ai_1" }));
    const leadModel = fakeModel()
      .respondWithTools([{ name: "task", args: args("real run"), id: "call_1" }])
      .respond(new AIMessage("final"));
    const lead = createAgent({
      model: leadModel,
      tools: [createTaskTool({ executor, registry: realRegistry, getParent: () => ({ model: subModel, tools: [] }) })],
    });
    const { custom } = await collect(
      await lead.stream({ messages: [new HumanMessage("go")] }, { streamMode: ["custom", "updates"] }),
    );
    const types = custom.map((e) => e["type"]);
    expect(types[0]).toBe("task_started");
    expect(types.at(-1)).toBe("task_completed");
    expect(
      types.filter((t) => String(t).startsWith("task_") && t !== "task_started" && t !== "task_running"),
    ).toHaveLength(1);
    expect(custom.at(-1)).toMatchObject({ task_id: "call_1", result: "sub answer" });
    const toolMsg = (leadModel.calls[1]?.messages as BaseMessage[]).find((m) => ToolMessage.isInstance(m));
    expect(toolMsg?.content).toBe("Task Succeeded. Result: sub answer");
  });
});
