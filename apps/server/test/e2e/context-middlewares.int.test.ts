/**
 * The "Context" middlewares (issue 14 §2) through the real server, a model on
 * the scripted OpenAI-compatible endpoint and the LangGraph SDK over a socket:
 *
 * 1. summarization: a run given 200 long messages sends the model less than the
 *    configured window, with the latest user message and the summary as data;
 * 2. tool-output budget: a 2 MB bash output never reaches the model whole; it is
 *    saved under outputs/.tool-results/ and the model gets a synopsis and the path;
 * 3. token usage: the thread's and the run's totals in the state and from
 *    `GET /api/threads/:id/token-usage`, and each run's on its record
 *    (`metadata.token_usage` of `GET /api/threads/:tid/runs/:rid`, the SDK's `runs.get`);
 * 4. token budget: over the budget, the tool calls are removed and the run's
 *    stop_reason is token_capped.
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { RecordedRequest, ScriptedOpenAI, ScriptStep } from "@deerflow/agent/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LEAD_AGENT_ASSISTANT_ID } from "../../src/server/create-server.js";
import { lastUserText, messageText } from "../support/request-text.js";
import { startScriptedServer, type ScriptedServer } from "../support/scripted-server.js";
import type { TestServer } from "../support/server-harness.js";

const WINDOW_TOKENS = 16_000;
const SUMMARY = "The user sent 199 numbered notes about rivers.";
const BIG = "head -c 2000000 /dev/zero | tr '\\0' x";

const isSummaryRequest = (r: RecordedRequest): boolean =>
  messageText(r.messages.at(-1) ?? {}).includes("Messages to summarize:");

function script(request: RecordedRequest): ScriptStep {
  if (isSummaryRequest(request)) return { text: SUMMARY };
  const answered = request.messages.some((m) => m["role"] === "tool");
  const user = lastUserText(request);
  if (user === "make a big output" && !answered)
    return { toolCalls: [{ name: "bash", args: { description: "print", command: BIG }, id: "call_big" }] };
  if (user === "use a tool, then answer" && !answered)
    return {
      toolCalls: [{ name: "bash", args: { description: "greet", command: "echo hi" }, id: "call_echo" }],
      usage: { promptTokens: 50, completionTokens: 5 },
    };
  if (user === "spend a lot" && !answered)
    return {
      toolCalls: [{ name: "bash", args: { command: "echo hi" }, id: "call_spend" }],
      usage: { promptTokens: 900, completionTokens: 200 },
    };
  return { text: "Noted.", usage: { promptTokens: 120, completionTokens: 7 } };
}

async function findFiles(dir: string, name: RegExp): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile() && name.test(e.name)).map((e) => path.join(e.parentPath, e.name));
}

describe("context middlewares through the server", () => {
  let server: ScriptedServer;
  let openai: ScriptedOpenAI;
  let t: TestServer;
  let dir: string;

  beforeAll(async () => {
    server = await startScriptedServer(
      script,
      `summarization:
  enabled: true
  trigger: [{ type: tokens, value: ${WINDOW_TOKENS} }, { type: messages, value: 150 }]
  keep: { type: messages, value: 10 }
token_budget:
  enabled: true
  max_tokens: 1000
`,
    );
    ({ openai, t, dir } = server);
  }, 60_000);

  afterAll(() => server?.close());

  it("summarization: 200 long messages reach the model under the window, the last user message kept", async () => {
    const thread = await t.client.threads.create();
    const note = (i: number) =>
      `Note ${i}: ${"the river flows to the sea and carries silt along its bed. ".repeat(20)}`;
    const messages = Array.from({ length: 199 }, (_, i) => ({ type: i % 2 === 0 ? "human" : "ai", content: note(i) }));
    const before = openai.requests.length;
    await t.client.runs.wait(thread.thread_id, LEAD_AGENT_ASSISTANT_ID, {
      input: { messages: [...messages, { type: "human", content: "What was my last note about?" }] },
    });
    const calls = openai.requests.slice(before);
    expect(calls.filter(isSummaryRequest)).toHaveLength(1);
    const agentCall = calls.find((r) => !isSummaryRequest(r));
    if (agentCall === undefined) throw new Error("no model call");
    const sentChars = agentCall.messages.reduce((n, m) => n + messageText(m).length, 0);
    // langchain's approximation: 4 characters a token.
    expect(sentChars / 4).toBeLessThan(WINDOW_TOKENS);
    expect(lastUserText(agentCall)).toBe("What was my last note about?");
    expect(
      agentCall.messages.some((m) =>
        messageText(m).includes(`<durable_context_data>\n## Conversation summary so far\n${SUMMARY}`),
      ),
    ).toBe(true);
    const state = await t.client.threads.getState<{ summary_text?: string; messages: unknown[] }>(thread.thread_id);
    expect(state.values.summary_text).toBe(SUMMARY);
    expect(state.values.messages.length).toBeLessThanOrEqual(12);
  });

  it("tool-output budget: a 2 MB output is saved and the model gets a synopsis and the path", async () => {
    const thread = await t.client.threads.create();
    const before = openai.requests.length;
    await t.client.runs.wait(thread.thread_id, LEAD_AGENT_ASSISTANT_ID, {
      input: { messages: [{ type: "human", content: "make a big output" }] },
    });
    const second = openai.requests.slice(before).find((r) => r.messages.some((m) => m["role"] === "tool"));
    const result = messageText(second?.messages.find((m) => m["role"] === "tool") ?? {});
    expect(result.length).toBeLessThan(5000);
    expect(result).toContain("[Tool output saved to a file]");
    expect(result).toContain("/mnt/user-data/outputs/.tool-results/bash-call_big.txt");
    const [saved] = await findFiles(path.join(dir, "data"), /^bash-call_big\.txt$/);
    expect(saved).toContain(`${path.sep}outputs${path.sep}.tool-results${path.sep}`);
    expect((await readFile(saved ?? "", "utf8")).length).toBeGreaterThan(result.length * 3);
  });

  it("token usage: the run's and the thread's totals are in the state and GET /api/threads/:id/token-usage", async () => {
    const thread = await t.client.threads.create();
    for (const text of ["first", "second"])
      await t.client.runs.wait(thread.thread_id, LEAD_AGENT_ASSISTANT_ID, {
        input: { messages: [{ type: "human", content: text }] },
      });
    const state = await t.client.threads.getState<{ token_usage?: unknown; run_token_usage?: unknown }>(
      thread.thread_id,
    );
    expect(state.values.run_token_usage).toMatchObject({
      input_tokens: 120,
      output_tokens: 7,
      total_tokens: 127,
      llm_call_count: 1,
    });
    expect(state.values.token_usage).toEqual({
      input_tokens: 240,
      output_tokens: 14,
      total_tokens: 254,
      llm_call_count: 2,
      last_call_id: expect.any(String),
    });

    const res = await fetch(`${t.url}/api/threads/${thread.thread_id}/token-usage`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      thread_id: thread.thread_id,
      total_input_tokens: 240,
      total_output_tokens: 14,
      total_tokens: 254,
      llm_call_count: 2,
      last_run: { input_tokens: 120, output_tokens: 7, total_tokens: 127, llm_call_count: 1 },
    });
    const fresh = await t.client.threads.create();
    expect(await (await fetch(`${t.url}/api/threads/${fresh.thread_id}/token-usage`)).json()).toMatchObject({
      total_tokens: 0,
      llm_call_count: 0,
      last_run: null,
    });
    expect((await fetch(`${t.url}/api/threads/00000000-0000-4000-8000-000000000000/token-usage`)).status).toBe(404);
  });

  it("token usage: each run's record carries its own usage in metadata.token_usage, per model", async () => {
    const thread = await t.client.threads.create();
    const runIds: string[] = [];
    for (const text of ["one", "make it two"]) {
      const run = await t.client.runs.create(thread.thread_id, LEAD_AGENT_ASSISTANT_ID, {
        input: { messages: [{ type: "human", content: text }] },
        metadata: { from: "test" },
      });
      await t.client.runs.join(thread.thread_id, run.run_id);
      runIds.push(run.run_id);
    }
    const usage = { input_tokens: 120, output_tokens: 7, total_tokens: 127, llm_call_count: 1 };
    for (const runId of runIds) {
      // The SDK's runs.get and the raw route show the same record: the client's metadata kept, the usage added.
      const record = (await t.client.runs.get(thread.thread_id, runId)) as { metadata: Record<string, unknown> };
      expect(record.metadata).toMatchObject({ from: "test", token_usage: { ...usage, by_model: { main: usage } } });
      const res = await fetch(`${t.url}/api/threads/${thread.thread_id}/runs/${runId}`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { metadata: unknown }).metadata).toEqual(record.metadata);
    }
  });

  it("token usage: a run that calls a tool adds both model calls to its record", async () => {
    const thread = await t.client.threads.create();
    const run = await t.client.runs.create(thread.thread_id, LEAD_AGENT_ASSISTANT_ID, {
      input: { messages: [{ type: "human", content: "use a tool, then answer" }] },
    });
    await t.client.runs.join(thread.thread_id, run.run_id);
    const record = (await t.client.runs.get(thread.thread_id, run.run_id)) as { metadata: Record<string, unknown> };
    const total = { input_tokens: 170, output_tokens: 12, total_tokens: 182, llm_call_count: 2 };
    expect(record.metadata["token_usage"]).toEqual({ ...total, by_model: { main: total } });
  });

  it("token budget: over the budget the tool calls are removed and the run stops as token_capped", async () => {
    const thread = await t.client.threads.create();
    const run = await t.client.runs.create(thread.thread_id, LEAD_AGENT_ASSISTANT_ID, {
      input: { messages: [{ type: "human", content: "spend a lot" }] },
    });
    await t.client.runs.join(thread.thread_id, run.run_id);
    const record = (await t.client.runs.get(thread.thread_id, run.run_id)) as {
      status: string;
      stop_reason?: string | null;
    };
    expect(record.status).toBe("success");
    expect(record.stop_reason).toBe("token_capped");
    const state = await t.client.threads.getState<{
      messages: { type: string; content: unknown; tool_calls?: unknown[] }[];
    }>(thread.thread_id);
    const last = state.values.messages.at(-1);
    expect(last?.type).toBe("ai");
    expect(last?.tool_calls ?? []).toEqual([]);
    expect(JSON.stringify(last?.content)).toContain(
      "[TOKEN BUDGET EXCEEDED] The total token usage (1,100) has exceeded the safety limit (1,000).",
    );
  });
});
