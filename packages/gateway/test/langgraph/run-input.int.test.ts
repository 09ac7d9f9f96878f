/**
 * A run's `input` over a real socket, on every run-creating route: an object
 * or null is accepted; a bare string, number, boolean or array (which a
 * StateGraph would drop, running the model without the user's message) is a
 * 422 naming `input`, and creates no run and no thread. "", 0 and false are
 * among them: type coercion must not turn them into null.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../support/langgraph/server.js";

type Detail = Array<{ loc: Array<string | number>; msg: string; type: string }>;

const THREAD_ROUTES = ["/runs", "/runs/stream", "/runs/wait"] as const;
const STATELESS_ROUTES = ["/runs", "/runs/stream", "/runs/wait"] as const;
const REFUSED: ReadonlyArray<readonly [string, unknown]> = [
  ["a bare string", "hello"],
  ["an empty string", ""],
  ["a number", 42],
  ["zero", 0],
  ["a boolean", true],
  ["false", false],
  ["an array", [{ role: "user", content: "hello" }]],
];

describe("run input over HTTP", () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer({ heartbeatMs: 50 });
  });

  afterAll(async () => {
    await server.close();
  });

  async function post(path: string, body: unknown): Promise<{ status: number; text: string }> {
    const res = await fetch(`${server.apiUrl}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: res.status, text: await res.text() };
  }

  async function newThread(): Promise<string> {
    const res = await post("/threads", {});
    return (JSON.parse(res.text) as { thread_id: string }).thread_id;
  }

  describe.each(REFUSED)("%s", (_what, input) => {
    it.each(THREAD_ROUTES)(
      "is refused on POST /threads/:thread_id%s with 422 naming input, creating no run",
      async (route) => {
        const threadId = await newThread();
        const res = await post(`/threads/${threadId}${route}`, { assistant_id: "agent", input });
        expect(res.status).toBe(422);
        expect((JSON.parse(res.text) as { detail: Detail }).detail).toEqual([
          {
            loc: ["body", "input"],
            msg: "Input should be a valid dictionary or object to extract fields from",
            type: "model_attributes_type",
          },
        ]);
        expect(await server.manager.list(threadId)).toEqual([]);
        expect((await server.manager.store.getThread(threadId))?.metadata).toEqual({});
      },
    );

    it.each(STATELESS_ROUTES)(
      "is refused on stateless POST %s with 422 naming input, creating no thread",
      async (route) => {
        const before = await server.manager.store.countThreads({});
        const res = await post(route, { assistant_id: "agent", input });
        expect(res.status).toBe(422);
        expect((JSON.parse(res.text) as { detail: Detail }).detail[0]?.loc).toEqual(["body", "input"]);
        expect(await server.manager.store.countThreads({})).toBe(before);
      },
    );
  });

  it.each(THREAD_ROUTES)(
    "accepts an object input on POST /threads/:thread_id%s: the thread starts with the user's message",
    async (route) => {
      const threadId = await newThread();
      const res = await post(`/threads/${threadId}${route}`, {
        assistant_id: "agent",
        input: { messages: [{ role: "user", content: "hello" }] },
      });
      expect(res.status).toBe(200);
      const [run] = await server.manager.list(threadId);
      await server.manager.join(run!.runId);
      const state = JSON.parse((await post(`/threads/${threadId}/history`, { limit: 1 })).text) as Array<{
        values: { messages: Array<{ type: string; content: string }> };
      }>;
      expect(state[0]?.values.messages.map((m) => [m.type, m.content])).toEqual([
        ["human", "hello"],
        ["ai", "You said: hello"],
      ]);
    },
  );

  it.each(STATELESS_ROUTES)("accepts an object input on stateless POST %s", async (route) => {
    const res = await post(route, { assistant_id: "agent", input: { messages: [{ role: "user", content: "hello" }] } });
    expect(res.status).toBe(200);
  });

  it.each(THREAD_ROUTES)(
    "accepts a null (and an absent) input on POST /threads/:thread_id%s: the run continues from the checkpoint",
    async (route) => {
      const threadId = await newThread();
      expect((await post(`/threads/${threadId}${route}`, { assistant_id: "agent", input: null })).status).toBe(200);
      await Promise.all((await server.manager.list(threadId)).map((r) => server.manager.join(r.runId)));
      expect((await post(`/threads/${threadId}${route}`, { assistant_id: "agent" })).status).toBe(200);
      const runs = await server.manager.list(threadId);
      expect(runs).toHaveLength(2);
    },
  );
});
