import { RUN_REPORT_KEY, type RunReport } from "@deerflow/kernel";
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { tool } from "@langchain/core/tools";
import { createAgent } from "langchain";
import { describe, expect, it } from "vitest";
import { createLoopDetectionMiddleware, type LoopDetectionOptions } from "./loop-detection.js";
import { LOOP_WARNING_TEXT } from "./texts.js";
import { stableJson, toolCallSetHash } from "./tool-call-hash.js";

let pings = 0;
const ping = tool(async () => (pings++, "pong"), {
  name: "ping",
  description: "ping",
  schema: { type: "object", properties: { host: { type: "string" } } },
});

async function run(model: ReturnType<typeof fakeModel>, options: LoopDetectionOptions) {
  pings = 0;
  const report: RunReport = {};
  const agent = createAgent({ model, tools: [ping], middleware: [createLoopDetectionMiddleware(options)] });
  const result = await agent.invoke(
    { messages: [new HumanMessage("ping forever")] },
    { configurable: { [RUN_REPORT_KEY]: report } },
  );
  return { report, messages: result.messages };
}

const texts = (messages: readonly BaseMessage[]) =>
  messages.filter((m) => HumanMessage.isInstance(m)).map((m) => String(m.content));

describe("tool-call hash", () => {
  it("is independent of call order and key order, and normalises read_file ranges", () => {
    const a = { name: "ls", args: { path: "/a", depth: 1 } };
    const b = { name: "grep", args: { pattern: "x" } };
    expect(toolCallSetHash([a, b])).toBe(toolCallSetHash([b, { name: "ls", args: { depth: 1, path: "/a" } }]));
    expect(toolCallSetHash([b])).not.toBe(toolCallSetHash([{ name: "grep", args: { pattern: "y" } }]));
    expect(toolCallSetHash([{ name: "read_file", args: { path: "/f", start_line: 1, end_line: 50 } }])).toBe(
      toolCallSetHash([{ name: "read_file", args: { path: "/f", start_line: 10, end_line: 120 } }]),
    );
    expect(toolCallSetHash([{ name: "read_file", args: { path: "/f", start_line: 1 } }])).not.toBe(
      toolCallSetHash([{ name: "read_file", args: { path: "/f", start_line: 900 } }]),
    );
    expect(stableJson({ b: [1, { d: 2, c: 3 }], a: null })).toBe('{"a":null,"b":[1,{"c":3,"d":2}]}');
  });
});

describe("LoopDetectionMiddleware", () => {
  it("warns at the next model call once the same calls repeat warn_threshold times, then hard-stops with loop_capped", async () => {
    const model = fakeModel();
    for (let i = 0; i < 6; i++) model.respondWithTools([{ name: "ping", args: { host: "example.org" }, id: `p${i}` }]);
    const { report, messages } = await run(model, { warnThreshold: 2, hardLimit: 4 });
    expect(pings).toBe(3);
    expect(model.calls).toHaveLength(4);
    // The warning reached the 3rd call only (once per hash), and never the state.
    expect(model.calls.map((c) => texts(c.messages).at(-1))).toEqual([
      "ping forever",
      "ping forever",
      LOOP_WARNING_TEXT,
      "ping forever",
    ]);
    expect(texts(messages)).toEqual(["ping forever"]);
    const last = messages.at(-1) as AIMessage;
    expect(last.tool_calls).toEqual([]);
    expect(String(last.content).split("\n\n").at(-1)).toBe(
      "[FORCED STOP] Repeated tool calls exceeded the safety limit. Producing final answer with results collected so far.",
    );
    expect(report.stopReason).toBe("loop_capped");
  });

  it("limits one tool's calls per turn, whatever their arguments, with merged warnings", async () => {
    const model = fakeModel();
    for (let i = 0; i < 5; i++) model.respondWithTools([{ name: "ping", args: { host: `h${i}` }, id: `p${i}` }]);
    const { report, messages } = await run(model, { toolFreqOverrides: { ping: { warn: 2, hardLimit: 3 } } });
    expect(pings).toBe(2);
    expect(texts(model.calls[2]?.messages ?? []).at(-1)).toBe(
      "[LOOP DETECTED] You have called ping 2 times without producing a final answer. Stop calling ping and produce your final answer now. If you cannot complete the task, summarize what you accomplished so far.",
    );
    expect(String(messages.at(-1)?.content).split("\n\n").at(-1)).toBe(
      "[FORCED STOP] Tool ping called 3 times — exceeded the per-tool safety limit. Producing final answer with results collected so far.",
    );
    expect(report.stopReason).toBe("loop_capped");
  });

  it("merges a repetition warning and a frequency warning due at the same call into one message", async () => {
    const model = fakeModel();
    for (let i = 0; i < 2; i++) model.respondWithTools([{ name: "ping", args: {}, id: `p${i}` }]);
    model.respond(new AIMessage("done"));
    await run(model, { warnThreshold: 2, toolFreqWarn: 2 });
    const warning = model.calls[2]?.messages.at(-1);
    expect(String(warning?.content)).toBe(
      `${LOOP_WARNING_TEXT}\n\n[LOOP DETECTED] You have called ping 2 times without producing a final answer. Stop calling ping and produce your final answer now. If you cannot complete the task, summarize what you accomplished so far.`,
    );
  });

  it("counts the current turn only: a new user message starts over", async () => {
    const model = fakeModel()
      .respondWithTools([{ name: "ping", args: {}, id: "a" }])
      .respond(new AIMessage("ok"));
    const agent = createAgent({
      model,
      tools: [ping],
      middleware: [createLoopDetectionMiddleware({ warnThreshold: 1, hardLimit: 2 })],
    });
    const first = await agent.invoke({ messages: [new HumanMessage("one")] });
    model.respondWithTools([{ name: "ping", args: {}, id: "b" }]).respond(new AIMessage("ok again"));
    const second = await agent.invoke({ messages: [...first.messages, new HumanMessage("two")] });
    expect(second.messages.at(-1)?.content).toBe("ok again");
  });
});
