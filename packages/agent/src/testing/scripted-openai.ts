/**
 * `startScriptedOpenAI`: a scripted OpenAI-compatible HTTP endpoint on a real
 * loopback socket (Node `http`), for tests that drive `ChatOpenAI` (and so
 * the lead agent, the server, the SDK) without a network: each
 * `POST /v1/chat/completions` answers the next step of the script — text,
 * tool calls, reasoning, a `finish_reason`, streamed as SSE chunks when the
 * request asks for `stream: true` — or an HTTP error with its headers, and is
 * recorded for assertions.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { completionChunks, completionJson } from "./completion-format.js";
import { isScriptedError, type RecordedRequest, type Script, type ScriptedError, type ScriptStep } from "./script.js";

/** Options of {@link startScriptedOpenAI}. */
export interface ScriptedOpenAIOptions {
  readonly script: Script;
  /** Answer once a list script is used up. Default: HTTP 500 "script exhausted". */
  readonly whenExhausted?: ScriptStep;
  /** Default `127.0.0.1`. */
  readonly host?: string;
  /** Default 0 (a free port). */
  readonly port?: number;
}

/** A running endpoint. */
export interface ScriptedOpenAI {
  /** `http://127.0.0.1:<port>/v1`: the `baseURL` (`configuration.baseURL` of `ChatOpenAI`, `base_url` of a config). */
  readonly baseURL: string;
  /** Every chat-completion request, in arrival order. */
  readonly requests: readonly RecordedRequest[];
  /** Steps of a list script not answered yet. */
  readonly remaining: number;
  /** Stops listening and ends open connections. */
  close(): Promise<void>;
}

const CHAT_PATHS = new Set(["/v1/chat/completions", "/chat/completions"]);

function errorBody(step: ScriptedError): string {
  const type =
    step.type ??
    (step.status >= 500 ? "server_error" : step.status === 429 ? "rate_limit_exceeded" : "invalid_request_error");
  return JSON.stringify({
    error: { message: step.message ?? `scripted HTTP ${step.status}`, type, param: null, code: step.code ?? null },
  });
}

function recordOf(req: http.IncomingMessage, body: Record<string, unknown>): RecordedRequest {
  const list = (value: unknown): Record<string, unknown>[] =>
    Array.isArray(value) ? (value as Record<string, unknown>[]) : [];
  const tools = list(body["tools"]);
  return {
    method: req.method ?? "",
    url: req.url ?? "",
    headers: req.headers,
    body,
    model: typeof body["model"] === "string" ? body["model"] : undefined,
    messages: list(body["messages"]),
    tools,
    toolNames: tools.map((t) => String((t["function"] as { name?: unknown } | undefined)?.name ?? "")),
    stream: body["stream"] === true,
    receivedAt: Date.now(),
  };
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on("data", (b: Buffer) => parts.push(b));
    req.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
    req.on("error", reject);
  });
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts the endpoint.
 *
 * @param options - the script (steps in order, or a function of the request), what to answer when it is used up, host and port
 * @returns the running endpoint: `baseURL`, the recorded `requests`, `close()`
 * @example
 * ```ts
 * const openai = await startScriptedOpenAI({ script: [{ status: 429, headers: { "retry-after": "0" } }, { text: "Hello!" }] });
 * const model = new ChatOpenAI({ model: "scripted", apiKey: "test", configuration: { baseURL: openai.baseURL }, maxRetries: 1 });
 * await model.invoke("hi"); // "Hello!" after one retry
 * await openai.close();
 * ```
 */
export async function startScriptedOpenAI(options: ScriptedOpenAIOptions): Promise<ScriptedOpenAI> {
  const requests: RecordedRequest[] = [];
  const steps = typeof options.script === "function" ? undefined : [...options.script];
  const exhausted: ScriptStep = options.whenExhausted ?? {
    status: 500,
    message: "scripted OpenAI endpoint: script exhausted",
  };
  let completions = 0;

  const next = async (request: RecordedRequest, index: number): Promise<ScriptStep> => {
    if (typeof options.script === "function") return options.script(request, index);
    const step = steps?.shift() ?? exhausted;
    return typeof step === "function" ? step(request, index) : step;
  };

  const answer = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const raw = await readBody(req);
    if (req.method !== "POST" || !CHAT_PATHS.has((req.url ?? "").split("?")[0] ?? "")) {
      res
        .writeHead(404, { "content-type": "application/json" })
        .end(errorBody({ status: 404, message: `no route ${req.method} ${req.url}`, type: "not_found" }));
      return;
    }
    let body: Record<string, unknown>;
    try {
      body = raw === "" ? {} : (JSON.parse(raw) as Record<string, unknown>);
    } catch {
      res
        .writeHead(400, { "content-type": "application/json" })
        .end(errorBody({ status: 400, message: "invalid JSON body" }));
      return;
    }
    const request = recordOf(req, body);
    requests.push(request);
    const index = completions++;
    const step = await next(request, index);
    if (isScriptedError(step)) {
      res.writeHead(step.status, { "content-type": "application/json", ...step.headers }).end(errorBody(step));
      return;
    }
    if (step.delayMs !== undefined && step.delayMs > 0) await sleep(step.delayMs);
    const ids = {
      id: `chatcmpl-scripted-${index + 1}`,
      model: request.model ?? "scripted",
      toolCallId: (i: number) => `call_${index + 1}_${i + 1}`,
    };
    if (!request.stream) {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(completionJson(step, ids)));
      return;
    }
    const includeUsage = (body["stream_options"] as { include_usage?: unknown } | undefined)?.include_usage === true;
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    for (const chunk of completionChunks(step, ids, includeUsage)) res.write(`data: ${JSON.stringify(chunk)}\n\n`);
    res.end("data: [DONE]\n\n");
  };

  const server = http.createServer((req, res) => {
    answer(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(
        errorBody({
          status: 500,
          message: `scripted OpenAI endpoint failed: ${err instanceof Error ? err.message : String(err)}`,
        }),
      );
    });
  });
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://${host.includes(":") ? `[${host}]` : host}:${port}/v1`,
    requests,
    get remaining() {
      return steps?.length ?? 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
