import { AIMessage, ToolMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { describe, expect, it } from "vitest";
import type { SubagentConfig } from "../types.js";
import { briefText, buildTaskResultKwargs, formatTaskResultContent, sha256Hex } from "./result-format.js";
import { createTaskTool } from "./task-tool.js";
import { FakeSubagentExecutor, type FakeTaskScript } from "../../test/support/task-tool/fake-executor.js";

const cfg = (name: string): SubagentConfig => ({
  name,
  description: name,
  disallowedTools: ["task"],
  model: "inherit",
  maxTurns: 10,
  timeoutMs: 1000,
});
const configs = [cfg("general-purpose"), cfg("bash")];
const registry = { get: (n: string) => configs.find((c) => c.name === n), list: () => configs };
const usage = { inputTokens: 1, outputTokens: 2, totalTokens: 3 };

async function run(script: FakeTaskScript, subagentType = "general-purpose") {
  const events: Record<string, unknown>[] = [];
  const executor = new FakeSubagentExecutor(script);
  const t = createTaskTool({ executor, registry, getParent: () => ({ model: fakeModel(), tools: [] }) });
  const msg = (await t.invoke(
    {
      name: "task",
      args: { description: "d", prompt: "p", subagent_type: subagentType },
      id: "call_9",
      type: "tool_call",
    },
    { writer: (e: unknown) => events.push(e as Record<string, unknown>) } as never,
  )) as ToolMessage;
  return { events, msg, executor };
}

describe("createTaskTool", () => {
  it("emits started, one running per message, then completed", async () => {
    const { events, msg } = await run({
      messages: [new AIMessage("a"), new ToolMessage({ content: "b", tool_call_id: "x" })],
      result: "R",
      usage,
    });
    expect(events.map((e) => e["type"])).toEqual(["task_started", "task_running", "task_running", "task_completed"]);
    expect(events[2]).toMatchObject({
      task_id: "call_9",
      message_index: 2,
      total_messages: 2,
      message: { type: "tool", tool_call_id: "x" },
      usage: { input_tokens: 1, output_tokens: 2, total_tokens: 3 },
      model_name: "fake-model",
    });
    expect(msg.content).toBe("Task Succeeded. Result: R");
    expect(msg.tool_call_id).toBe("call_9");
    expect(msg.additional_kwargs).toEqual({
      subagent_status: "completed",
      subagent_result_brief: "R",
      subagent_result_sha256: sha256Hex("R"),
      subagent_model_name: "fake-model",
      subagent_token_usage: { input_tokens: 1, output_tokens: 2, total_tokens: 3 },
    });
  });

  it.each([
    ["failed", "boom", "task_failed", "Task failed. Error: boom"],
    [
      "timed_out",
      "Execution timed out after 1 seconds",
      "task_timed_out",
      "Task timed out. Error: Execution timed out after 1 seconds",
    ],
    ["cancelled", "Cancelled by user", "task_cancelled", "Task cancelled by user. Error: Cancelled by user"],
  ] as const)("reports %s with one terminal event and subagent_error", async (status, error, type, text) => {
    const { events, msg } = await run({ status, error, usage });
    expect(events.map((e) => e["type"])).toEqual(["task_started", type]);
    expect(events[1]).toEqual({
      type,
      task_id: "call_9",
      error,
      usage: { input_tokens: 1, output_tokens: 2, total_tokens: 3 },
      model_name: "fake-model",
    });
    expect(msg.content).toBe(text);
    expect(msg.additional_kwargs).toMatchObject({ subagent_status: status, subagent_error: error });
    expect(msg.additional_kwargs).not.toHaveProperty("subagent_result_brief");
  });

  it("turns an executor exception into a failed result", async () => {
    const { events, msg } = await run({ throws: new TypeError("bad") });
    expect(events.at(-1)).toMatchObject({ type: "task_failed", error: "TypeError: bad" });
    expect(msg.additional_kwargs["subagent_status"]).toBe("failed");
  });

  it("omits token usage when unknown", async () => {
    const { msg, events } = await run({ usage: null });
    expect(msg.additional_kwargs).not.toHaveProperty("subagent_token_usage");
    expect(events.at(-1)).toMatchObject({ usage: null });
  });

  it("rejects an unknown subagent type without running it", async () => {
    const t = createTaskTool({
      executor: new FakeSubagentExecutor(),
      registry: { ...registry, list: () => configs, get: () => undefined },
      getParent: () => ({ model: fakeModel(), tools: [] }),
    });
    const msg = (await t.invoke({
      name: "task",
      args: { description: "d", prompt: "p", subagent_type: "bash" },
      id: "c",
      type: "tool_call",
    })) as ToolMessage;
    expect(msg.content).toBe("Task failed. Error: Unknown subagent type 'bash'. Available: general-purpose, bash");
    expect(msg.additional_kwargs["subagent_status"]).toBe("failed");
  });

  it("passes max_turns and the tool call id to the executor", async () => {
    const executor = new FakeSubagentExecutor();
    const t = createTaskTool({ executor, registry, getParent: () => ({ model: fakeModel(), tools: [] }) });
    await t.invoke({
      name: "task",
      args: { description: "d", prompt: "p", subagent_type: "bash", max_turns: 4 },
      id: "c7",
      type: "tool_call",
    });
    expect(executor.calls[0]?.task).toMatchObject({ id: "c7", subagentType: "bash", maxTurns: 4, prompt: "p" });
  });
});

describe("result format", () => {
  it("caps the brief at 2000 chars as two-thirds head and a tail", () => {
    const big = `${"h".repeat(3000)}${"t".repeat(3000)}`;
    const brief = briefText(big);
    expect(brief.length).toBe(2000);
    expect(brief.startsWith("h".repeat(1330))).toBe(true);
    expect(brief.endsWith("t".repeat(665))).toBe(true);
    expect(brief).toContain("\n...\n");
  });

  it("hashes the full result, not the brief", () => {
    const big = "x".repeat(5000);
    const kw = buildTaskResultKwargs({ status: "completed", result: big, usage: null, modelName: null });
    expect(kw.subagent_result_sha256).toBe(sha256Hex(big));
    expect(kw.subagent_result_sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it("uses the bare texts when there is no error", () => {
    expect(formatTaskResultContent({ status: "failed" })).toBe("Task failed.");
    expect(formatTaskResultContent({ status: "timed_out" })).toBe("Task timed out.");
    expect(formatTaskResultContent({ status: "cancelled", error: "Task cancelled by user." })).toBe(
      "Task cancelled by user.",
    );
    expect(buildTaskResultKwargs({ status: "failed", usage: null, modelName: null }).subagent_error).toBe(
      "Task failed.",
    );
  });
});
