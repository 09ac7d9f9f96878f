import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { RUN_REPORT_KEY, type RunReport } from "@deerflow/kernel";
import { tool } from "@langchain/core/tools";
import { createAgent, type AgentMiddleware } from "langchain";
import { describe, expect, it } from "vitest";
import { createModelLengthFinishReasonMiddleware } from "./model-length-finish-reason.js";
import { createSafetyFinishReasonMiddleware } from "./safety-finish-reason.js";

let executed = 0;
const ping = tool(async () => (executed++, "pong"), {
  name: "ping",
  description: "ping",
  schema: { type: "object", properties: {} },
});

async function run(middleware: AgentMiddleware, response: AIMessage) {
  const report: RunReport = {};
  const agent = createAgent({
    model: fakeModel().respond(response).respond(new AIMessage("after")),
    tools: [ping],
    middleware: [middleware],
  });
  const result = await agent.invoke(
    { messages: [new HumanMessage("hi")] },
    { configurable: { [RUN_REPORT_KEY]: report } },
  );
  return { report, messages: result.messages };
}

describe("ModelLengthFinishReasonMiddleware", () => {
  it("stamps model_length_capped on a cut answer without tool calls and keeps its content", async () => {
    const { report, messages } = await run(
      createModelLengthFinishReasonMiddleware(),
      new AIMessage({ content: "Cut sh", response_metadata: { finish_reason: "length" } }),
    );
    expect(report.stopReason).toBe("model_length_capped");
    expect(messages.at(-1)?.content).toBe("Cut sh");
  });

  it("also reads Anthropic's stop_reason, and ignores complete answers", async () => {
    expect(
      (
        await run(
          createModelLengthFinishReasonMiddleware(),
          new AIMessage({ content: "x", response_metadata: { stop_reason: "max_tokens" } }),
        )
      ).report.stopReason,
    ).toBe("model_length_capped");
    expect(
      (
        await run(
          createModelLengthFinishReasonMiddleware(),
          new AIMessage({ content: "x", response_metadata: { finish_reason: "stop" } }),
        )
      ).report.stopReason,
    ).toBeUndefined();
  });
});

describe("SafetyFinishReasonMiddleware", () => {
  it("clears the tool calls of a content_filter stop so they never run, and stamps safety_capped", async () => {
    executed = 0;
    const filtered = new AIMessage({
      content: "partial",
      tool_calls: [{ id: "c1", name: "ping", args: {}, type: "tool_call" }],
      additional_kwargs: { tool_calls: [{ id: "c1", type: "function", function: { name: "ping", arguments: "{}" } }] },
      response_metadata: { finish_reason: "content_filter" },
    });
    const { report, messages } = await run(createSafetyFinishReasonMiddleware(), filtered);
    const last = messages.at(-1) as AIMessage;
    expect(executed).toBe(0);
    expect(last.tool_calls).toEqual([]);
    expect(last.additional_kwargs["tool_calls"]).toEqual([]);
    expect(last.content).toBe("partial");
    expect(report.stopReason).toBe("safety_capped");
  });

  it("lets normal tool calls run, and custom detectors replace the defaults", async () => {
    executed = 0;
    const call = (finish: string) =>
      new AIMessage({
        content: "",
        tool_calls: [{ id: "c1", name: "ping", args: {}, type: "tool_call" }],
        response_metadata: { finish_reason: finish },
      });
    await run(createSafetyFinishReasonMiddleware(), call("tool_calls"));
    expect(executed).toBe(1);
    const { report } = await run(
      createSafetyFinishReasonMiddleware({
        detectors: [(m) => (m.response_metadata["finish_reason"] === "tool_calls" ? "custom" : undefined)],
      }),
      call("tool_calls"),
    );
    expect(executed).toBe(1);
    expect(report.stopReason).toBe("safety_capped");
  });
});
