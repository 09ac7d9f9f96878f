/**
 * The "Resilience" middlewares (issue 14 §2) through the real server, a model
 * on the scripted OpenAI-compatible endpoint and the LangGraph SDK over a socket:
 *
 * 1. a 500 then a 200: the run succeeds, with one retry (the model's own
 *    `max_retries: 2` is off under the middleware: retries never multiply);
 * 2. a 429 with `Retry-After: 1`: the retry comes ~1 s later (recorded request times);
 * 3. a provider that keeps failing: the run succeeds with a readable message;
 * 4. `finish_reason: length`: the run's `stop_reason` is `model_length_capped`;
 * 5. a repeated tool call: DeerFlow's warning reaches the model, then the hard
 *    stop strips the calls and the run's `stop_reason` is `loop_capped`;
 * 6. an empty answer after a tool run twice: DeerFlow's message, the run ends as an error;
 * 7. a `content_filter` stop with a tool call: the call never runs, `safety_capped`.
 */
import type { RecordedRequest, ScriptStep } from "@deerflow/agent/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LEAD_AGENT_ASSISTANT_ID } from "../../src/server/create-server.js";
import { firstUserText, messageText } from "../support/request-text.js";
import { startScriptedServer, type ScriptedServer } from "../support/scripted-server.js";

const toolResults = (r: RecordedRequest): number => r.messages.filter((m) => m["role"] === "tool").length;

/** Per scenario (the first user message), the answers in order. */
const scenarios = new Map<string, ScriptStep[]>();
const seen = new Map<string, RecordedRequest[]>();

function script(request: RecordedRequest): ScriptStep {
  const key = firstUserText(request);
  const requests = seen.get(key) ?? [];
  requests.push(request);
  seen.set(key, requests);
  return scenarios.get(key)?.shift() ?? { text: "Done." };
}

describe("resilience middlewares through the server", () => {
  let server: ScriptedServer;

  beforeAll(async () => {
    server = await startScriptedServer(
      script,
      `
llm_call:
  retry_max_attempts: 2
  retry_base_delay_ms: 20
  retry_cap_delay_ms: 50
circuit_breaker:
  failure_threshold: 50
loop_detection:
  warn_threshold: 2
  hard_limit: 3
`,
      { maxRetries: 2 },
    );
  });

  afterAll(async () => {
    await server?.close();
  });

  async function runScenario(name: string, steps: ScriptStep[]) {
    scenarios.set(name, steps);
    const thread = await server.t.client.threads.create();
    const run = await server.t.client.runs.create(thread.thread_id, LEAD_AGENT_ASSISTANT_ID, {
      input: { messages: [{ type: "human", content: name }] },
    });
    await server.t.client.runs.join(thread.thread_id, run.run_id);
    const record = (await server.t.client.runs.get(thread.thread_id, run.run_id)) as {
      status: string;
      stop_reason?: string;
      error?: string;
    };
    const state = await server.t.client.threads.getState<{
      messages: { type: string; content: unknown; tool_calls?: unknown[] }[];
    }>(thread.thread_id);
    return { threadId: thread.thread_id, record, messages: state.values.messages, requests: seen.get(name) ?? [] };
  }

  it("a 500 then a 200: the run succeeds after one retry, the model's own retries switched off", async () => {
    const { record, messages, requests } = await runScenario("flaky provider", [
      { status: 500 },
      { text: "Recovered." },
    ]);
    expect(record.status).toBe("success");
    expect(requests).toHaveLength(2);
    expect(messages.at(-1)?.content).toBe("Recovered.");
  });

  it("a 429 with Retry-After: 1 is retried once, about a second later", async () => {
    const { record, messages, requests } = await runScenario("rate limited", [
      { status: 429, headers: { "retry-after": "1" } },
      { text: "After the wait." },
    ]);
    expect(record.status).toBe("success");
    expect(messages.at(-1)?.content).toBe("After the wait.");
    expect(requests).toHaveLength(2);
    expect(requests[1]!.receivedAt - requests[0]!.receivedAt).toBeGreaterThanOrEqual(950);
  });

  it("a provider that keeps failing: a readable assistant message, the run and the thread still usable", async () => {
    const { threadId, record, messages, requests } = await runScenario("provider down", [
      { status: 503 },
      { status: 503 },
      { text: "Back again." },
    ]);
    expect(record.status).toBe("success");
    // retry_max_attempts 2 and nothing more: ChatOpenAI's max_retries 2 would make 6.
    expect(requests).toHaveLength(2);
    expect(String(messages.at(-1)?.content)).toMatch(
      /^The model provider could not answer \(.*503.*\) after 2 attempts\./,
    );
    // The thread goes on: the next run on it is answered.
    const next = (await server.t.client.runs.wait(threadId, LEAD_AGENT_ASSISTANT_ID, {
      input: { messages: [{ type: "human", content: "try again" }] },
    })) as { messages: { content: unknown }[] };
    expect(next.messages.at(-1)?.content).toBe("Back again.");
  });

  it("finish_reason length: the run's stop_reason is model_length_capped and the text is kept", async () => {
    const { record, messages } = await runScenario("write a long essay", [
      { text: "Once upon a ti", finishReason: "length" },
    ]);
    expect(record).toMatchObject({ status: "success", stop_reason: "model_length_capped" });
    expect(messages.at(-1)?.content).toBe("Once upon a ti");
  });

  it("a repeated tool call: the warning reaches the model, then the hard stop with loop_capped", async () => {
    const call = { toolCalls: [{ name: "bash", args: { description: "check", command: "echo same" } }] };
    const { record, messages, requests } = await runScenario("loop forever", [
      call,
      call,
      call,
      { text: "unreachable" },
    ]);
    expect(record).toMatchObject({ status: "success", stop_reason: "loop_capped" });
    expect(requests).toHaveLength(3);
    expect(messageText(requests[2]!.messages.at(-1) ?? {})).toBe(
      "[LOOP DETECTED] You are repeating the same tool calls. Stop calling tools and produce your final answer now. If you cannot complete the task, summarize what you accomplished so far.",
    );
    const last = messages.at(-1)!;
    expect(last.tool_calls ?? []).toEqual([]);
    expect(String(last.content)).toContain(
      "[FORCED STOP] Repeated tool calls exceeded the safety limit. Producing final answer with results collected so far.",
    );
  });

  it("an empty answer after a tool run, twice: DeerFlow's message and an error run", async () => {
    const { record, messages, requests } = await runScenario("run a tool then go quiet", [
      { toolCalls: [{ name: "bash", args: { description: "x", command: "echo hi" } }] },
      { text: "" },
      { text: "" },
    ]);
    expect(requests.map(toolResults)).toEqual([0, 1, 1]);
    const text =
      "The model completed the tool run but returned no final response, including after one automatic retry. Please try again or use a different model.";
    expect(record).toMatchObject({ status: "error", error: text });
    expect(messages.at(-1)?.content).toBe(text);
  });

  it("a content_filter stop with a tool call: the call never runs, safety_capped", async () => {
    const { record, messages, requests } = await runScenario("filtered", [
      {
        text: "Partial",
        toolCalls: [{ name: "bash", args: { description: "x", command: "echo no" } }],
        finishReason: "content_filter",
      },
    ]);
    expect(record).toMatchObject({ status: "success", stop_reason: "safety_capped" });
    expect(requests).toHaveLength(1);
    expect(messages.filter((m) => m.type === "tool")).toEqual([]);
  });
});
