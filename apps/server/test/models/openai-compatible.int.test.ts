/**
 * The `use: openai` models against a real OpenAI-compatible HTTP endpoint: a
 * small fake server on 127.0.0.1 implementing `POST /v1/chat/completions`
 * (JSON `chat.completion` for `stream: false`, SSE `chat.completion.chunk`
 * lines ending with `data: [DONE]` for `stream: true`), recording every request.
 *
 * 1. createChatModel (from a loaded config.yaml) sends the key and the model id.
 * 2. The full server runs the lead agent on it through the LangGraph SDK: the
 *    endpoint asks for `ls`, the sandbox tool runs, its result goes back in the
 *    second request, the final answer streams as messages-tuple chunks.
 * 3. An endpoint error (500, 401) is answered with a readable assistant message
 *    naming the problem (the lead chain's LLM error handling, retries off here);
 *    the thread still takes the next run.
 *
 * No network except loopback.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { AIMessage, AIMessageChunk, HumanMessage } from "@langchain/core/messages";
import { ChatOpenAI } from "@langchain/openai";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load-config.js";
import { createChatModel } from "../../src/models/index.js";
import { LEAD_AGENT_ASSISTANT_ID } from "../../src/server/create-server.js";
import { tempDirs, writeFiles } from "../support/temp-dir.js";
import { embeddedEnv, startServer, type TestServer } from "../support/server-harness.js";

// ---------------------------------------------------------------------------
// The fake OpenAI-compatible endpoint
// ---------------------------------------------------------------------------

interface ChatMessage {
  role: string;
  content?: unknown;
  tool_calls?: { id: string; type: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

interface ChatTool {
  type: string;
  function: {
    name: string;
    description?: string;
    parameters?: { type?: string; properties?: Record<string, unknown>; required?: string[] };
  };
}

/** One recorded request. */
interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: {
    model?: string;
    messages?: ChatMessage[];
    tools?: ChatTool[];
    stream?: boolean;
    [k: string]: unknown;
  };
}

/** What the endpoint answers to one request. */
type Turn =
  | { readonly kind: "tool_call"; readonly id: string; readonly name: string; readonly args: Record<string, unknown> }
  | { readonly kind: "text"; readonly chunks: readonly string[] }
  | { readonly kind: "error"; readonly status: number; readonly message: string; readonly type: string };

/** The scripted turns: first the `ls` call the lead agent can run, then a final answer in several chunks. */
const LS_CALL_ID = "call_ls_workspace_1";
const LS_TURN: Turn = {
  kind: "tool_call",
  id: LS_CALL_ID,
  name: "ls",
  args: { description: "List the workspace", path: "/mnt/user-data/workspace" },
};
const FINAL_CHUNKS = ["The workspace ", "holds one file: ", "notes.txt", "."];
const FINAL_TURN: Turn = { kind: "text", chunks: FINAL_CHUNKS };

interface FakeEndpoint {
  /** `http://127.0.0.1:<port>/v1` */
  readonly baseUrl: string;
  readonly requests: RecordedRequest[];
  /** Turns answered in order; when empty, a tool call unless the last message is a tool result, then a text answer. */
  readonly script: Turn[];
  close(): Promise<void>;
}

let completionSeq = 0;

function defaultTurn(body: RecordedRequest["body"]): Turn {
  return body.messages?.at(-1)?.role === "tool" ? FINAL_TURN : LS_TURN;
}

function completionJson(model: string, id: string, turn: Exclude<Turn, { kind: "error" }>): Record<string, unknown> {
  const message =
    turn.kind === "text"
      ? { role: "assistant", content: turn.chunks.join("") }
      : {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: turn.id, type: "function", function: { name: turn.name, arguments: JSON.stringify(turn.args) } },
          ],
        };
  return {
    id,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: turn.kind === "text" ? "stop" : "tool_calls" }],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  };
}

function completionChunks(
  model: string,
  id: string,
  turn: Exclude<Turn, { kind: "error" }>,
): Record<string, unknown>[] {
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: Record<string, unknown>, finish: string | null = null): Record<string, unknown> => ({
    id,
    object: "chat.completion.chunk",
    created,
    model,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  });
  const out: Record<string, unknown>[] = [];
  if (turn.kind === "text") {
    out.push(chunk({ role: "assistant", content: "" }));
    for (const piece of turn.chunks) out.push(chunk({ content: piece }));
    out.push(chunk({}, "stop"));
  } else {
    // The arguments arrive in two pieces, as real providers stream them.
    const args = JSON.stringify(turn.args);
    const half = Math.floor(args.length / 2);
    out.push(
      chunk({
        role: "assistant",
        content: null,
        tool_calls: [{ index: 0, id: turn.id, type: "function", function: { name: turn.name, arguments: "" } }],
      }),
    );
    out.push(chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(0, half) } }] }));
    out.push(chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(half) } }] }));
    out.push(chunk({}, "tool_calls"));
  }
  out.push({
    id,
    object: "chat.completion.chunk",
    created,
    model,
    choices: [],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  });
  return out;
}

async function startFakeEndpoint(): Promise<FakeEndpoint> {
  const requests: RecordedRequest[] = [];
  const script: Turn[] = [];
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (b: Buffer) => parts.push(b));
    req.on("end", () => {
      const raw = Buffer.concat(parts).toString("utf8");
      let body: RecordedRequest["body"] = {};
      try {
        body = raw === "" ? {} : (JSON.parse(raw) as RecordedRequest["body"]);
      } catch {
        res
          .writeHead(400, { "content-type": "application/json" })
          .end(JSON.stringify({ error: { message: "invalid JSON body", type: "invalid_request_error" } }));
        return;
      }
      requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      if (req.method !== "POST" || req.url !== "/v1/chat/completions") {
        res
          .writeHead(404, { "content-type": "application/json" })
          .end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}`, type: "not_found" } }));
        return;
      }
      const turn = script.shift() ?? defaultTurn(body);
      if (turn.kind === "error") {
        res
          .writeHead(turn.status, { "content-type": "application/json" })
          .end(JSON.stringify({ error: { message: turn.message, type: turn.type, param: null, code: null } }));
        return;
      }
      const model = body.model ?? "unknown";
      const id = `chatcmpl-fake-${++completionSeq}`;
      if (body.stream === true) {
        res.writeHead(200, {
          "content-type": "text/event-stream",
          "cache-control": "no-cache",
          connection: "keep-alive",
        });
        for (const c of completionChunks(model, id, turn)) res.write(`data: ${JSON.stringify(c)}\n\n`);
        res.end("data: [DONE]\n\n");
      } else {
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(completionJson(model, id, turn)));
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    script,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// ---------------------------------------------------------------------------

const MODEL_ID = "fake-gpt-int";
const temp = tempDirs();
let fake: FakeEndpoint;

beforeAll(async () => {
  fake = await startFakeEndpoint();
});

afterAll(async () => {
  await fake?.close();
  await temp.cleanup();
});

afterEach(() => {
  fake.requests.length = 0;
  fake.script.length = 0;
});

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content.map((p) => (typeof p === "string" ? p : ((p as { text?: string }).text ?? ""))).join("");
  return "";
}

describe("createChatModel against an OpenAI-compatible endpoint", () => {
  it("sends the key from the environment ($OPENAI_API_KEY in config.yaml) and the model id", async () => {
    const dir = await temp.make();
    await writeFiles(dir, {
      "config.yaml": `models:\n  - name: local\n    model: ${MODEL_ID}\n    base_url: ${fake.baseUrl}\n    api_key: $OPENAI_API_KEY\n    max_retries: 0\n`,
    });
    const loaded = await loadConfig({
      path: "config.yaml",
      cwd: dir,
      env: { OPENAI_API_KEY: "sk-int-from-config-env" },
    });
    const entry = loaded.config.models[0]!;
    expect(entry).toMatchObject({
      name: "local",
      use: { kind: "openai" },
      model: MODEL_ID,
      baseUrl: fake.baseUrl,
      maxRetries: 0,
    });
    const model = await createChatModel(entry, { env: {} });
    expect(model).toBeInstanceOf(ChatOpenAI);

    fake.script.push(FINAL_TURN);
    const out = await model.invoke([new HumanMessage("hello")]);
    expect(textOf(out.content)).toBe(FINAL_CHUNKS.join(""));

    expect(fake.requests).toHaveLength(1);
    const [req] = fake.requests;
    expect(req).toMatchObject({ method: "POST", url: "/v1/chat/completions" });
    expect(req!.headers.authorization).toBe("Bearer sk-int-from-config-env");
    expect(req!.body.model).toBe(MODEL_ID);
    expect(req!.body.stream ?? false).toBe(false);
    expect(req!.body.messages).toEqual([{ role: "user", content: "hello" }]);
  });

  it("falls back to OPENAI_API_KEY of the environment, streams, and parses tool calls", async () => {
    const dir = await temp.make();
    await writeFiles(dir, {
      "config.yaml": `models:\n  - name: local\n    model: ${MODEL_ID}\n    base_url: ${fake.baseUrl}\n    max_retries: 0\n`,
    });
    const env = { OPENAI_API_KEY: "sk-int-from-env" };
    const loaded = await loadConfig({ path: "config.yaml", cwd: dir, env });
    const model = await createChatModel(loaded.config.models[0]!, { env });

    // Streaming: several chunks with one id, stream: true on the wire.
    fake.script.push(FINAL_TURN);
    const pieces: AIMessageChunk[] = [];
    for await (const chunk of await model.stream([new HumanMessage("hi")])) pieces.push(chunk);
    const withText = pieces.filter((p) => textOf(p.content) !== "");
    expect(withText.map((p) => textOf(p.content))).toEqual(FINAL_CHUNKS);
    const streamIds = new Set(withText.map((p) => p.id));
    expect(streamIds.size).toBe(1);
    expect([...streamIds][0]).toMatch(/^chatcmpl-fake-/);

    // A tool call (non-streaming) with the tools bound.
    fake.script.push(LS_TURN);
    const bound = model.bindTools!([
      {
        type: "function",
        function: {
          name: "ls",
          description: "List a directory",
          parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
        },
      },
    ]);
    const call = (await bound.invoke([new HumanMessage("list")])) as AIMessage;
    expect(call.tool_calls).toEqual([
      expect.objectContaining({
        id: LS_CALL_ID,
        name: "ls",
        args: { description: "List the workspace", path: "/mnt/user-data/workspace" },
      }),
    ]);

    expect(fake.requests.map((r) => [r.headers.authorization, r.body.model, r.body.stream ?? false])).toEqual([
      ["Bearer sk-int-from-env", MODEL_ID, true],
      ["Bearer sk-int-from-env", MODEL_ID, false],
    ]);
    expect(fake.requests[1]!.body.tools?.map((t) => t.function.name)).toEqual(["ls"]);
  });
});

// ---------------------------------------------------------------------------
// The full server on the fake endpoint
// ---------------------------------------------------------------------------

type StateMessage = {
  type?: string;
  id?: string;
  content?: unknown;
  name?: string;
  tool_call_id?: string;
  status?: string;
  tool_calls?: { id?: string; name: string; args: unknown }[];
};
type Values = { messages?: StateMessage[] };
type StreamEvent = { event: string; data: unknown; id?: string | undefined };

describe("the server with an OpenAI-compatible default model", () => {
  let dir: string;
  let t: TestServer;

  beforeAll(async () => {
    dir = await temp.make();
    const yaml = `
models:
  - name: local
    model: ${MODEL_ID}
    base_url: ${fake.baseUrl}
    max_retries: 0
storage:
  data_dir: ./data
llm_call:
  retry_max_attempts: 1
`;
    t = await startServer(dir, yaml, { env: embeddedEnv({ OPENAI_API_KEY: "sk-int-server" }) });
  });

  afterAll(async () => {
    await t?.server.close();
  });

  async function streamRun(threadId: string, content: string): Promise<{ events: StreamEvent[]; runId: string }> {
    const events: StreamEvent[] = [];
    let runId = "";
    for await (const chunk of t.client.runs.stream(threadId, LEAD_AGENT_ASSISTANT_ID, {
      input: { messages: [{ role: "user", content }] },
      streamMode: ["values", "messages-tuple"],
      onRunCreated: (meta) => void (runId = meta.run_id),
    })) {
      events.push(chunk as StreamEvent);
    }
    return { events, runId };
  }

  async function newThreadWithNotes(): Promise<string> {
    const thread = await t.client.threads.create();
    await writeFiles(
      path.join(dir, "data", "users", "default", "threads", thread.thread_id, "user-data", "workspace"),
      { "notes.txt": "otters\n" },
    );
    return thread.thread_id;
  }

  it("runs a tool call on the sandbox and streams the final answer token by token", async () => {
    const threadId = await newThreadWithNotes();
    const { events, runId } = await streamRun(threadId, "What is in my workspace?");

    expect(events[0]?.event).toBe("metadata");
    expect(events.map((e) => e.event)).not.toContain("error");
    expect((await t.client.runs.get(threadId, runId)).status).toBe("success");

    // Two model calls, both with the key, the model id, streaming, and the lead agent's tools.
    expect(fake.requests).toHaveLength(2);
    for (const req of fake.requests) {
      expect(req.url).toBe("/v1/chat/completions");
      expect(req.headers.authorization).toBe("Bearer sk-int-server");
      expect(req.body.model).toBe(MODEL_ID);
      expect(req.body.stream).toBe(true);
    }
    const [first, second] = fake.requests as [RecordedRequest, RecordedRequest];
    const ls = first.body.tools?.find((tool) => tool.function.name === "ls");
    expect(ls?.type).toBe("function");
    expect(Object.keys(ls?.function.parameters?.properties ?? {})).toEqual(["description", "path"]);
    expect(ls?.function.parameters?.required).toEqual(["path"]);
    expect(first.body.tools?.map((tool) => tool.function.name)).toEqual(
      expect.arrayContaining(["bash", "ls", "read_file", "write_file"]),
    );
    expect(first.body.messages?.[0]?.role).toBe("system");
    expect(first.body.messages?.at(-1)).toEqual({ role: "user", content: "What is in my workspace?" });

    // The second request carries the assistant's tool call and the sandbox's result.
    const assistant = second.body.messages?.find((m) => m.role === "assistant");
    expect(assistant?.tool_calls?.map((c) => [c.id, c.function.name, JSON.parse(c.function.arguments)])).toEqual([
      [LS_CALL_ID, "ls", LS_TURN.kind === "tool_call" ? LS_TURN.args : {}],
    ]);
    const toolResult = second.body.messages?.at(-1);
    expect(toolResult?.role).toBe("tool");
    expect(toolResult?.tool_call_id).toBe(LS_CALL_ID);
    expect(textOf(toolResult?.content)).toContain("/mnt/user-data/workspace/notes.txt");

    // The final answer: several messages-tuple chunks with one stable id.
    const aiChunks = events
      .filter((e) => e.event === "messages")
      .map((e) => (e.data as [StateMessage, unknown])[0])
      .filter((m) => (m.type === "AIMessageChunk" || m.type === "ai") && textOf(m.content) !== "");
    expect(aiChunks.map((m) => textOf(m.content))).toEqual(FINAL_CHUNKS);
    const ids = new Set(aiChunks.map((m) => m.id));
    expect(ids.size).toBe(1);
    expect([...ids][0]).toEqual(expect.any(String));

    // The final state: the tool ran (its ToolMessage), then the answer under the same id.
    const state = await t.client.threads.getState<Values>(threadId);
    const messages = state.values.messages ?? [];
    expect(messages.map((m) => m.type)).toEqual(["human", "ai", "tool", "ai"]);
    const tool = messages[2]!;
    expect(tool).toMatchObject({ name: "ls", tool_call_id: LS_CALL_ID });
    expect(tool.status ?? "success").toBe("success");
    expect(textOf(tool.content)).toContain("/mnt/user-data/workspace/notes.txt");
    expect(messages[1]?.tool_calls).toEqual([
      expect.objectContaining({
        id: LS_CALL_ID,
        name: "ls",
        args: { description: "List the workspace", path: "/mnt/user-data/workspace" },
      }),
    ]);
    expect(textOf(messages[3]?.content)).toBe(FINAL_CHUNKS.join(""));
    expect(messages[3]?.id).toBe([...ids][0]);
    const lastValues = events.filter((e) => e.event === "values").at(-1)?.data as Values;
    expect(lastValues.messages?.map((m) => m.type)).toEqual(["human", "ai", "tool", "ai"]);
    expect((await t.client.threads.get(threadId)).status).toBe("idle");
  });

  for (const failure of [
    { status: 500, type: "server_error", message: "fake upstream exploded (int test)" },
    { status: 401, type: "invalid_request_error", message: "Incorrect API key provided (int test)" },
  ]) {
    it(`answers HTTP ${failure.status} with a readable assistant message, and the thread takes the next run`, async () => {
      const threadId = await newThreadWithNotes();
      fake.script.push({ kind: "error", ...failure });
      const failed = await streamRun(threadId, "What is in my workspace?");

      // No retries (llm_call.retry_max_attempts 1): one request, and LlmErrorHandlingMiddleware
      // turns the failure into an assistant message instead of failing the run.
      expect(fake.requests).toHaveLength(1);
      expect(failed.events.filter((e) => e.event === "error")).toEqual([]);
      expect((await t.client.runs.get(threadId, failed.runId)).status).toBe("success");
      const answered = (await t.client.threads.getState<Values>(threadId)).values.messages ?? [];
      // The OpenAI client's message: "<status> <the endpoint's error message>".
      expect(textOf(answered.at(-1)?.content)).toContain(`The model provider could not answer (`);
      expect(textOf(answered.at(-1)?.content)).toContain(`${failure.status} ${failure.message}`);

      // The thread is still usable: the next run goes through (tool call, then answer).
      const next = await streamRun(threadId, "Try again please");
      expect(next.events.map((e) => e.event)).not.toContain("error");
      expect((await t.client.runs.get(threadId, next.runId)).status).toBe("success");
      expect(fake.requests).toHaveLength(3);
      const state = await t.client.threads.getState<Values>(threadId);
      const messages = state.values.messages ?? [];
      expect(messages.at(-1)?.type).toBe("ai");
      expect(textOf(messages.at(-1)?.content)).toBe(FINAL_CHUNKS.join(""));
      expect(messages.filter((m) => m.type === "tool").map((m) => m.tool_call_id)).toEqual([LS_CALL_ID]);
      expect((await t.client.threads.get(threadId)).status).toBe("idle");
      expect((await t.client.runs.list(threadId)).map((r) => r.status).sort()).toEqual(["success", "success"]);
    });
  }
});
