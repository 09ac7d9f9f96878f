/**
 * Reasoning replay (DeerFlow §5.3) through the real server, the LangGraph SDK
 * over a socket and a model on the scripted OpenAI-compatible endpoint with
 * `replay_reasoning: true`: the reasoning the endpoint streams with a tool
 * call goes back on that assistant message in the same run's next request,
 * and the reasoning of turn 1 goes back on its assistant messages in turn 2.
 */
import {
  startScriptedOpenAI,
  type RecordedRequest,
  type ScriptedOpenAI,
  type ScriptStep,
} from "@deerflow/agent/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LEAD_AGENT_ASSISTANT_ID } from "../../src/server/create-server.js";
import { startServer, type TestServer } from "../support/server-harness.js";
import { tempDirs } from "../support/temp-dir.js";

const lastUser = (r: RecordedRequest): string =>
  String(r.messages.filter((m) => m["role"] === "user").at(-1)?.["content"] ?? "");
const toolAnswered = (r: RecordedRequest): boolean => r.messages.at(-1)?.["role"] === "tool";
const assistants = (r: RecordedRequest) =>
  r.messages.filter((m) => m["role"] === "assistant").map((m) => m["reasoning_content"]);

function script(request: RecordedRequest): ScriptStep {
  if (lastUser(request).includes("count the files")) {
    if (!toolAnswered(request))
      return {
        reasoning: ["I will ", "list them."],
        toolCalls: [{ name: "bash", id: "call_ls", args: { description: "list", command: "echo a b c" } }],
      };
    return { reasoning: "Three names came back.", text: "There are 3." };
  }
  return { text: "Noted." };
}

describe("reasoning replay through the server", () => {
  const temp = tempDirs();
  let openai: ScriptedOpenAI;
  let t: TestServer;

  beforeAll(async () => {
    openai = await startScriptedOpenAI({ script });
    const dir = await temp.make();
    t = await startServer(
      dir,
      `
models:
  - name: deep
    model: scripted
    base_url: ${openai.baseURL}
    api_key: test
    max_retries: 0
    supports_thinking: true
    replay_reasoning: true
sandbox:
  allow_host_bash: true
storage:
  data_dir: ./data
`,
    );
  });

  afterAll(async () => {
    await t?.server.close({ drain: false });
    await openai?.close();
    await temp.cleanup();
  });

  it("turn 1's streamed reasoning is sent back on its assistant messages, within the run and in turn 2", async () => {
    const thread = await t.client.threads.create();
    // Turn 1 streamed (messages mode), so the endpoint streams its reasoning deltas.
    let streamedReasoning = "";
    for await (const event of t.client.runs.stream(thread.thread_id, LEAD_AGENT_ASSISTANT_ID, {
      input: { messages: [{ type: "human", content: "count the files" }] },
      streamMode: ["messages-tuple"],
    })) {
      expect(event.event).not.toBe("error");
      if (event.event !== "messages") continue;
      const [chunk] = event.data as [{ additional_kwargs?: { reasoning_content?: string } }, unknown];
      streamedReasoning += chunk.additional_kwargs?.reasoning_content ?? "";
    }
    expect(streamedReasoning).toContain("I will list them.");
    // Within the run: the tool-call turn's reasoning goes back with the tool call.
    expect(openai.requests).toHaveLength(2);
    expect(openai.requests[0]!.stream).toBe(true);
    expect(assistants(openai.requests[1]!)).toEqual(["I will list them."]);

    await t.client.runs.wait(thread.thread_id, LEAD_AGENT_ASSISTANT_ID, {
      input: { messages: [{ type: "human", content: "thanks" }] },
    });
    expect(openai.requests).toHaveLength(3);
    const second = openai.requests[2]!;
    expect(assistants(second)).toEqual(["I will list them.", "Three names came back."]);
    // The tool call and the answer are unchanged beside it.
    const [call, answer] = second.messages.filter((m) => m["role"] === "assistant");
    expect((call?.["tool_calls"] as { id: string }[])[0]?.id).toBe("call_ls");
    expect(answer?.["content"]).toBe("There are 3.");
  });
});
