import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { tool } from "@langchain/core/tools";
import { createAgent } from "langchain";
import { describe, expect, it } from "vitest";
import {
  applySubagentLimit,
  countPriorTaskCalls,
  resolveSubagentLimits,
  SUBAGENT_LIMIT_REACHED_TEXT,
} from "./limit-filter.js";
import { createSubagentLimitMiddleware } from "./limit-middleware.js";

const taskCalls = (n: number, from = 1) =>
  Array.from({ length: n }, (_, i) => ({ name: "task", args: {}, id: `call_${from + i}`, type: "tool_call" as const }));

describe("applySubagentLimit", () => {
  it("drops the 4th and 5th parallel task calls with max 3 and keeps other tools", () => {
    const msg = new AIMessage({
      content: "",
      id: "m1",
      tool_calls: [...taskCalls(5), { name: "ls", args: {}, id: "ls_1", type: "tool_call" }],
    });
    const out = applySubagentLimit(msg, 0, { maxConcurrent: 3 });
    expect(out.message?.tool_calls?.map((c) => c.id)).toEqual(["call_1", "call_2", "call_3", "ls_1"]);
    expect(out.dropped).toEqual(["call_4", "call_5"]);
    expect(out.message?.id).toBe("m1");
    expect(out.message?.content).toBe("");
  });

  it("drops every task call and appends the limit text when the run total is used up", () => {
    const msg = new AIMessage({ content: "more", tool_calls: taskCalls(1, 7) });
    const out = applySubagentLimit(msg, 6, {});
    expect(out.exhausted).toBe(true);
    expect(out.message?.tool_calls).toEqual([]);
    expect(out.message?.content).toBe(`more\n\n${SUBAGENT_LIMIT_REACHED_TEXT}`);
    expect(out.message?.response_metadata["finish_reason"]).toBe("stop");
  });

  it("keeps only what remains of the run total", () => {
    const out = applySubagentLimit(new AIMessage({ content: "", tool_calls: taskCalls(3) }), 5, { maxTotal: 6 });
    expect(out.message?.tool_calls?.map((c) => c.id)).toEqual(["call_1"]);
    expect(out.exhausted).toBe(false);
  });

  it("leaves a response within limits untouched", () => {
    expect(applySubagentLimit(new AIMessage({ content: "", tool_calls: taskCalls(3) }), 0).message).toBeUndefined();
  });

  it("keeps the raw provider tool_calls in sync", () => {
    const raw = taskCalls(2).map((c) => ({
      id: c.id,
      type: "function" as const,
      function: { name: "task", arguments: "{}" },
    }));
    const out = applySubagentLimit(
      new AIMessage({ content: "", tool_calls: taskCalls(2), additional_kwargs: { tool_calls: raw } }),
      0,
      { maxConcurrent: 1 },
    );
    expect((out.message?.additional_kwargs["tool_calls"] as { id: string }[]).map((r) => r.id)).toEqual(["call_1"]);
  });
});

describe("resolveSubagentLimits", () => {
  it("clamps to [1, 4] and [1, 50]", () => {
    expect(resolveSubagentLimits({ maxConcurrent: 10, maxTotal: 0 })).toEqual({ maxConcurrent: 4, maxTotal: 1 });
    expect(resolveSubagentLimits({ maxConcurrent: -1, maxTotal: 999 })).toEqual({ maxConcurrent: 1, maxTotal: 50 });
    expect(resolveSubagentLimits()).toEqual({ maxConcurrent: 3, maxTotal: 6 });
  });
});

describe("countPriorTaskCalls", () => {
  it("counts task calls since the last human message only", () => {
    const msgs = [
      new AIMessage({ content: "", tool_calls: taskCalls(4) }),
      new HumanMessage("again"),
      new AIMessage({ content: "", tool_calls: taskCalls(2, 10) }),
      new ToolMessage({ content: "", tool_call_id: "call_10" }),
    ];
    expect(countPriorTaskCalls(msgs)).toBe(2);
  });
});

describe("createSubagentLimitMiddleware", () => {
  it("stops delegation in a real run once the total is reached", async () => {
    const ran: string[] = [];
    const task = tool(
      async (_: unknown, config?: { toolCall?: { id?: string } }) => {
        ran.push(config?.toolCall?.id ?? "");
        return "ok";
      },
      {
        name: "task",
        description: "t",
        schema: { type: "object", properties: {} },
      },
    );
    const model = fakeModel()
      .respondWithTools(taskCalls(2))
      .respondWithTools(taskCalls(2, 3))
      .respond(new AIMessage("done"));
    const lead = createAgent({
      model,
      tools: [task],
      middleware: [createSubagentLimitMiddleware({ maxConcurrent: 2, maxTotal: 2 })],
    });
    const state = await lead.invoke({ messages: [new HumanMessage("go")] });
    expect(ran.sort()).toEqual(["call_1", "call_2"]);
    const last = state.messages.at(-1);
    expect(String(last?.content)).toContain(SUBAGENT_LIMIT_REACHED_TEXT);
  });
});
