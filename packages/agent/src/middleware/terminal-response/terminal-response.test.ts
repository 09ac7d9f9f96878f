import { RUN_REPORT_KEY, type RunReport } from "@deerflow/kernel";
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { tool } from "@langchain/core/tools";
import { createAgent } from "langchain";
import { describe, expect, it } from "vitest";
import { createTerminalResponseMiddleware, TERMINAL_RESPONSE_FALLBACK_TEXT } from "./terminal-response.js";

const ping = tool(async () => "pong", {
  name: "ping",
  description: "ping",
  schema: { type: "object", properties: {} },
});

async function run(model: ReturnType<typeof fakeModel>) {
  const report: RunReport = {};
  const agent = createAgent({ model, tools: [ping], middleware: [createTerminalResponseMiddleware()] });
  const result = await agent.invoke(
    { messages: [new HumanMessage("hi")] },
    { configurable: { [RUN_REPORT_KEY]: report } },
  );
  return { report, messages: result.messages };
}

describe("TerminalResponseMiddleware", () => {
  it("retries an empty answer after a tool run once, out of sight", async () => {
    const model = fakeModel()
      .respondWithTools([{ name: "ping", args: {} }])
      .respond(new AIMessage(""))
      .respond(new AIMessage("Here it is."));
    const { report, messages } = await run(model);
    expect(model.calls).toHaveLength(3);
    expect(messages.map((m) => m.getType())).toEqual(["human", "ai", "tool", "ai"]);
    expect(messages.at(-1)?.content).toBe("Here it is.");
    expect(report).toEqual({});
  });

  it("answers with DeerFlow's message and fails the run when the retry is empty too", async () => {
    const model = fakeModel()
      .respondWithTools([{ name: "ping", args: {} }])
      .respond(new AIMessage(""))
      .respond(new AIMessage(""));
    const { report, messages } = await run(model);
    expect(messages.at(-1)?.content).toBe(
      "The model completed the tool run but returned no final response, including after one automatic retry. Please try again or use a different model.",
    );
    expect(report.error).toBe(TERMINAL_RESPONSE_FALLBACK_TEXT);
  });

  it("leaves an empty answer to a user message alone (no tool ran)", async () => {
    const model = fakeModel().respond(new AIMessage(""));
    const { report, messages } = await run(model);
    expect(model.calls).toHaveLength(1);
    expect(messages.at(-1)?.content).toBe("");
    expect(report).toEqual({});
  });
});
