/**
 * The built-in `use: anthropic` and `use: google` models against local HTTP
 * servers speaking each provider's documented API (Anthropic's Messages API,
 * `POST /v1/messages`, JSON and SSE; Gemini's `POST /v1beta/models/<model>:generateContent`
 * and `:streamGenerateContent?alt=sse`): one round trip each, and a streamed one.
 * No outside network.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfigText } from "../../src/config/load-config.js";
import type { ModelConfig } from "../../src/config/types.js";
import { createChatModel } from "../../src/models/create-chat-model.js";

interface Seen {
  readonly url: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: Record<string, unknown>;
}

const sse = (events: readonly [string | undefined, unknown][]) =>
  events
    .map(([event, data]) => `${event === undefined ? "" : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`)
    .join("");

function anthropicAnswer(body: Record<string, unknown>, res: http.ServerResponse): void {
  const usage = { input_tokens: 12, output_tokens: 3 };
  if (body["stream"] !== true) {
    res.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({
        id: "msg_1",
        type: "message",
        role: "assistant",
        model: body["model"],
        content: [{ type: "text", text: "Hello from Claude." }],
        stop_reason: "end_turn",
        stop_sequence: null,
        usage,
      }),
    );
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream" }).end(
    sse([
      [
        "message_start",
        {
          type: "message_start",
          message: {
            id: "msg_2",
            type: "message",
            role: "assistant",
            model: body["model"],
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: 12, output_tokens: 0 },
          },
        },
      ],
      ["content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }],
      [
        "content_block_delta",
        { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Streamed " } },
      ],
      [
        "content_block_delta",
        { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Claude." } },
      ],
      ["content_block_stop", { type: "content_block_stop", index: 0 }],
      [
        "message_delta",
        { type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: 3 } },
      ],
      ["message_stop", { type: "message_stop" }],
    ]),
  );
}

function geminiAnswer(url: string, res: http.ServerResponse): void {
  const chunk = (text: string, finish?: string) => ({
    candidates: [
      {
        content: { role: "model", parts: [{ text }] },
        index: 0,
        ...(finish === undefined ? {} : { finishReason: finish }),
      },
    ],
    usageMetadata: { promptTokenCount: 7, candidatesTokenCount: 2, totalTokenCount: 9 },
  });
  if (url.includes(":streamGenerateContent")) {
    res.writeHead(200, { "content-type": "text/event-stream" }).end(
      sse([
        [undefined, chunk("Streamed ")],
        [undefined, chunk("Gemini.", "STOP")],
      ]),
    );
    return;
  }
  res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(chunk("Hello from Gemini.", "STOP")));
}

describe("built-in providers against local servers", () => {
  const seen: Seen[] = [];
  let server: http.Server;
  let base: string;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const parts: Buffer[] = [];
      req.on("data", (b: Buffer) => parts.push(b));
      req.on("end", () => {
        const body = JSON.parse(Buffer.concat(parts).toString("utf8") || "{}") as Record<string, unknown>;
        const url = req.url ?? "";
        seen.push({ url, headers: req.headers, body });
        if (url.startsWith("/v1/messages")) anthropicAnswer(body, res);
        else if (url.startsWith("/v1beta/models/")) geminiAnswer(url, res);
        else res.writeHead(404).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const entry = (use: "anthropic" | "google", model: string): ModelConfig => ({
    name: use,
    use: { kind: use },
    model,
    baseUrl: base,
    apiKey: "test-key",
    maxTokens: 256,
    maxRetries: 0,
    supportsVision: false,
    supportsThinking: false,
    options: {},
  });
  const text = (content: unknown) =>
    typeof content === "string" ? content : (content as { text?: string }[]).map((b) => b.text ?? "").join("");

  it("use: anthropic speaks the Messages API, plain and streamed", async () => {
    const model = await createChatModel(entry("anthropic", "claude-test"));
    const answer = await model.invoke("Say hello");
    expect(text(answer.content)).toBe("Hello from Claude.");
    const request = seen.at(-1) as Seen;
    expect(request.url).toBe("/v1/messages");
    expect(request.headers["x-api-key"]).toBe("test-key");
    expect(request.body).toMatchObject({
      model: "claude-test",
      max_tokens: 256,
      messages: [{ role: "user", content: "Say hello" }],
    });

    let streamed = "";
    for await (const chunk of await model.stream("Stream please")) streamed += text(chunk.content);
    expect(streamed).toBe("Streamed Claude.");
    expect(seen.at(-1)?.body["stream"]).toBe(true);
  });

  it("use: google speaks the Gemini API, plain and streamed", async () => {
    const model = await createChatModel(entry("google", "gemini-test"));
    const answer = await model.invoke("Say hello");
    expect(text(answer.content)).toBe("Hello from Gemini.");
    const request = seen.at(-1) as Seen;
    expect(request.url).toMatch(/^\/v1beta\/models\/gemini-test:generateContent/);
    expect(request.headers["x-goog-api-key"]).toBe("test-key");
    expect(request.body).toMatchObject({
      contents: [{ role: "user", parts: [{ text: "Say hello" }] }],
      generationConfig: { maxOutputTokens: 256 },
    });

    let streamed = "";
    for await (const chunk of await model.stream("Stream please")) streamed += text(chunk.content);
    expect(streamed).toBe("Streamed Gemini.");
    expect(seen.at(-1)?.url).toMatch(/:streamGenerateContent\?alt=sse/);
  });

  it("refuses an entry without a key when the environment has none", async () => {
    const { apiKey: _key, ...keyless } = entry("anthropic", "c");
    await expect(createChatModel(keyless, { env: {} })).rejects.toThrow(/ANTHROPIC_API_KEY is not set/);
  });

  it("config.yaml chooses them by use: and requires model", () => {
    const models = parseConfigText(
      "models:\n  - { name: c, use: anthropic, model: claude-x }\n  - { name: g, use: google, model: gemini-x }\n",
    ).config.models;
    expect(models.map((m) => m.use)).toEqual([{ kind: "anthropic" }, { kind: "google" }]);
    expect(() => parseConfigText("models:\n  - { name: c, use: anthropic }\n")).toThrow(
      /models\[0\]\.model.*use: anthropic/,
    );
  });
});
