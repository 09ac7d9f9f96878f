/**
 * Precise 4xx answers of the LangGraph routes (through `app.inject`), and
 * that a refused request leaves nothing behind.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { langgraphRoutes } from "../index.js";
import { eventually, startServer, type TestServer } from "../../test/support/langgraph/server.js";

type Detail = Array<{ loc: Array<string | number>; msg: string; type: string }>;

describe("LangGraph routes: request validation", () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer({ listen: false, heartbeatMs: 50 });
  });

  afterAll(async () => {
    await server.close();
  });

  async function call(
    method: "GET" | "POST" | "PATCH" | "DELETE",
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) {
    const res = await server.app.inject({
      method,
      url: `/api${url}`,
      headers,
      ...(body === undefined ? {} : { payload: body as object }),
    });
    return { status: res.statusCode, body: res.body === "" ? undefined : (res.json() as { detail: unknown }) };
  }

  async function newThread(): Promise<string> {
    const res = await call("POST", "/threads", {});
    return (res.body as unknown as { thread_id: string }).thread_id;
  }

  async function runsOf(threadId: string): Promise<unknown[]> {
    return server.manager.list(threadId);
  }

  const loc = (res: { body?: { detail: unknown } | undefined }) => (res.body?.detail as Detail)[0]?.loc;

  describe("POST /threads/:thread_id/runs*", () => {
    it.each(["/runs", "/runs/stream", "/runs/wait"])(
      "answers 422 for an unsupported stream mode on %s and creates no run",
      async (suffix) => {
        const threadId = await newThread();
        const res = await call("POST", `/threads/${threadId}${suffix}`, {
          assistant_id: "agent",
          stream_mode: ["values", "events"],
        });
        expect(res.status).toBe(422);
        expect(res.body?.detail).toEqual([
          { loc: ["body", "stream_mode", 1], msg: expect.stringContaining('"messages-tuple"'), type: "enum" },
        ]);
        expect(await runsOf(threadId)).toEqual([]);
      },
    );

    it("accepts a single stream mode as a string", async () => {
      const threadId = await newThread();
      const res = await call("POST", `/threads/${threadId}/runs`, {
        assistant_id: "agent",
        input: { messages: [] },
        stream_mode: "updates",
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ kwargs: { stream_mode: ["updates"] } });
    });

    it.each([
      [{ multitask_strategy: "queue" }, ["body", "multitask_strategy"], "enum"],
      [{ on_disconnect: "stop" }, ["body", "on_disconnect"], "enum"],
      [{ if_not_exists: "maybe" }, ["body", "if_not_exists"], "enum"],
      [{ metadata: "x" }, ["body", "metadata"], "model_attributes_type"],
      [{ config: { recursion_limit: "many" } }, ["body", "config", "recursion_limit"], "int_type"],
      [{ config: { recursion_limit: 0 } }, ["body", "config", "recursion_limit"], "greater_than_equal"],
      [{ stream_subgraphs: "maybe" }, ["body", "stream_subgraphs"], "bool_type"],
      [{ interrupt_before: [""] }, ["body", "interrupt_before", 0], "string_too_short"],
      [{ interrupt_after: [{}] }, ["body", "interrupt_after", 0], "string_type"],
      [{ command: { resume: 1, jump: "x" } }, ["body", "command", "jump"], "extra_forbidden"],
      [{ stream_mod: "values" }, ["body", "stream_mod"], "extra_forbidden"],
      [{ webhook: "https://example.com/hook" }, ["body", "webhook"], "string_too_long"],
      [{ after_seconds: 5 }, ["body", "after_seconds"], "less_than_equal"],
      [{ feedback_keys: ["score"] }, ["body", "feedback_keys"], "maxItems"],
      [{ checkpoint: { checkpoint_id: "c", extra: 1 } }, ["body", "checkpoint", "extra"], "extra_forbidden"],
    ])("answers 422 naming the field for %j", async (patch, expectedLoc, type) => {
      const threadId = await newThread();
      const res = await call("POST", `/threads/${threadId}/runs`, { assistant_id: "agent", ...patch });
      expect(res.status).toBe(422);
      expect((res.body?.detail as Detail)[0]).toMatchObject({ loc: expectedLoc, type });
      expect(await runsOf(threadId)).toEqual([]);
    });

    it("answers 422 when assistant_id is missing", async () => {
      const threadId = await newThread();
      const res = await call("POST", `/threads/${threadId}/runs`, { input: null });
      expect(res.body?.detail).toEqual([{ loc: ["body", "assistant_id"], msg: "Field required", type: "missing" }]);
    });

    it("answers 422 for a malformed thread id", async () => {
      const res = await call("POST", "/threads/bad.id/runs", { assistant_id: "agent" });
      expect(res.status).toBe(422);
      expect(loc(res)).toEqual(["path", "thread_id"]);
    });

    it("answers 404 for an unknown assistant and creates nothing", async () => {
      const threadId = await newThread();
      const res = await call("POST", `/threads/${threadId}/runs/stream`, { assistant_id: "nope" });
      expect(res).toEqual({ status: 404, body: { detail: 'No assistant found for "nope"' } });
      expect(await runsOf(threadId)).toEqual([]);
      expect((await server.manager.store.getThread(threadId))?.metadata).toEqual({});
    });

    it("answers 404 for a missing thread and does not create it", async () => {
      const threadId = randomUUID();
      const res = await call("POST", `/threads/${threadId}/runs/wait`, { assistant_id: "agent" });
      expect(res).toEqual({ status: 404, body: { detail: `Thread ${threadId} not found` } });
      expect(await server.manager.store.getThread(threadId)).toBeNull();
    });

    it("answers 404 for an unknown checkpoint and creates no run", async () => {
      const threadId = await newThread();
      const res = await call("POST", `/threads/${threadId}/runs`, { assistant_id: "agent", checkpoint_id: "1ef-nope" });
      expect(res).toEqual({ status: 404, body: { detail: "Checkpoint 1ef-nope not found" } });
      expect(await runsOf(threadId)).toEqual([]);
    });

    it("answers 409 on a busy thread under reject, keeping only the active run", async () => {
      const threadId = await newThread();
      const first = await call("POST", `/threads/${threadId}/runs`, {
        assistant_id: "slow",
        input: { messages: [{ role: "user", content: "hold" }] },
      });
      await eventually(async () => (server.gates.waiting(threadId) === 1 ? true : undefined), "the run to hold");
      const second = await call("POST", `/threads/${threadId}/runs/stream`, { assistant_id: "slow", input: null });
      expect(second.status).toBe(409);
      expect(second.body?.detail).toEqual(expect.stringContaining("already has an active run"));
      expect((await runsOf(threadId)).length).toBe(1);

      const update = await call("POST", `/threads/${threadId}/state`, { values: { messages: [] } });
      expect(update.status).toBe(409);
      server.gates.release(threadId);
      await server.manager.join((first.body as unknown as { run_id: string }).run_id);
    });

    it("answers 400 for malformed JSON", async () => {
      const threadId = await newThread();
      const res = await server.app.inject({
        method: "POST",
        url: `/api/threads/${threadId}/runs`,
        headers: { "content-type": "application/json" },
        payload: "{nope",
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ detail: "Malformed JSON in request body." });
    });

    it("answers 404 for an unknown assistant on a stateless run and leaves no thread", async () => {
      const before = await server.manager.store.countThreads();
      const res = await call("POST", "/runs/wait", { assistant_id: "nope" });
      expect(res.status).toBe(404);
      expect(await server.manager.store.countThreads()).toBe(before);
    });
  });

  describe("run routes", () => {
    it("answers 404 for an unknown run and 422 for a bad cancel action", async () => {
      const threadId = await newThread();
      const runId = randomUUID();
      expect((await call("GET", `/threads/${threadId}/runs/${runId}`)).body).toEqual({
        detail: `Run ${runId} not found`,
      });
      expect((await call("POST", `/threads/${threadId}/runs/${runId}/cancel`)).status).toBe(404);
      const bad = await call("POST", `/threads/${threadId}/runs/${runId}/cancel?action=explode`);
      expect(bad.status).toBe(422);
      expect(loc(bad)).toEqual(["query", "action"]);
      expect((await call("GET", `/threads/${threadId}/runs?limit=0`)).status).toBe(422);
      expect((await call("GET", `/threads/${randomUUID()}/runs`)).status).toBe(404);
    });

    it("answers 422 for a malformed Last-Event-ID and an unknown join stream mode", async () => {
      const threadId = await newThread();
      const run = await call("POST", `/threads/${threadId}/runs`, { assistant_id: "agent", input: { messages: [] } });
      const runId = (run.body as unknown as { run_id: string }).run_id;
      const badId = await call("GET", `/threads/${threadId}/runs/${runId}/stream`, undefined, {
        "last-event-id": "five",
      });
      expect(badId.status).toBe(422);
      expect(loc(badId)).toEqual(["header", "last-event-id"]);
      const badMode = await call(
        "GET",
        `/threads/${threadId}/runs/${runId}/stream?stream_mode=${encodeURIComponent('["values","bogus"]')}`,
      );
      expect(badMode.status).toBe(422);
      expect(loc(badMode)).toEqual(["query", "stream_mode"]);
    });
  });

  describe("thread routes", () => {
    it("validates thread creation and refuses a duplicate", async () => {
      expect(loc(await call("POST", "/threads", { thread_id: "no/slash" }))).toEqual(["body", "thread_id"]);
      expect(loc(await call("POST", "/threads", { supersteps: [{ updates: [] }] }))).toEqual(["body", "supersteps"]);
      const threadId = await newThread();
      expect(await call("POST", "/threads", { thread_id: threadId })).toEqual({
        status: 409,
        body: { detail: `Thread ${threadId} already exists` },
      });
      expect(
        (await call("POST", "/threads", { thread_id: threadId, if_exists: "do_nothing", ttl: { ttl: 5 } })).status,
      ).toBe(200);
    });

    it("validates search bodies", async () => {
      expect(loc(await call("POST", "/threads/search", { limit: 0 }))).toEqual(["body", "limit"]);
      expect(loc(await call("POST", "/threads/search", { values: { a: 1 } }))).toEqual(["body", "values"]);
      expect(loc(await call("POST", "/threads/search", { sort_by: "name" }))).toEqual(["body", "sort_by"]);
      expect(loc(await call("POST", "/assistants/search", { limit: 2000 }))).toEqual(["body", "limit"]);
    });

    it("answers 404 for a missing thread on every thread route", async () => {
      const threadId = randomUUID();
      for (const [method, url, body] of [
        ["GET", "", undefined],
        ["PATCH", "", { metadata: {} }],
        ["DELETE", "", undefined],
        ["GET", "/state", undefined],
        ["POST", "/state", { values: {} }],
        ["POST", "/history", {}],
        ["GET", "/history", undefined],
      ] as const) {
        expect((await call(method, `/threads/${threadId}${url}`, body)).status, `${method} ${url}`).toBe(404);
      }
    });

    it("answers 400 when updating the state of a thread that never ran, 404 for an unknown checkpoint", async () => {
      const threadId = await newThread();
      const res = await call("POST", `/threads/${threadId}/state`, { values: { messages: [] } });
      expect(res.status).toBe(400);
      expect(res.body?.detail).toEqual(expect.stringContaining("has no graph yet"));
      expect((await call("GET", `/threads/${threadId}/state/nope`)).body).toEqual({
        detail: "Checkpoint nope not found",
      });
      expect(loc(await call("POST", `/threads/${threadId}/history`, { before: 5 }))).toEqual(["body", "before"]);
    });
  });

  describe("headers", () => {
    it("paginates searches and names created runs", async () => {
      const owner = randomUUID();
      for (let i = 0; i < 3; i += 1) await call("POST", "/threads", { metadata: { owner } });
      const page = await server.app.inject({
        method: "POST",
        url: "/api/threads/search",
        payload: { metadata: { owner }, limit: 2 },
      });
      expect(page.json()).toHaveLength(2);
      expect(page.headers["x-pagination-total"]).toBe("3");
      expect(page.headers["x-pagination-next"]).toBe("2");
      expect(
        (
          await server.app.inject({ method: "POST", url: "/api/threads/count", payload: { metadata: { owner } } })
        ).json(),
      ).toBe(3);

      const threadId = await newThread();
      const created = await server.app.inject({
        method: "POST",
        url: `/api/threads/${threadId}/runs`,
        payload: { assistant_id: "agent", input: { messages: [] } },
      });
      const runId = (created.json() as { run_id: string }).run_id;
      expect(created.headers["content-location"]).toBe(`/api/threads/${threadId}/runs/${runId}`);
      const stateless = await server.app.inject({
        method: "POST",
        url: "/api/runs",
        payload: { assistant_id: "agent", input: { messages: [] } },
      });
      expect(stateless.headers["content-location"]).toBe(
        `/api/runs/${(stateless.json() as { run_id: string }).run_id}`,
      );
    });
  });

  describe("OpenAPI", () => {
    it("documents the routes and the RunCreate body", async () => {
      const doc = (await server.app.inject({ url: "/openapi.json" })).json() as {
        paths: Record<
          string,
          Record<
            string,
            { requestBody?: { content: Record<string, { schema: { properties: Record<string, unknown> } }> } }
          >
        >;
      };
      for (const path of [
        "/api/threads/{thread_id}/runs/stream",
        "/api/runs/wait",
        "/api/threads/{thread_id}/history",
        "/api/assistants/search",
      ]) {
        expect(doc.paths[path]?.["post"], path).toBeDefined();
      }
      expect(doc.paths["/api/threads/{thread_id}/runs/{run_id}/stream"]?.["get"]).toBeDefined();
      const body =
        doc.paths["/api/threads/{thread_id}/runs/stream"]?.["post"]?.requestBody?.content["application/json"]?.schema
          .properties ?? {};
      expect(Object.keys(body)).toEqual(
        expect.arrayContaining([
          "assistant_id",
          "input",
          "command",
          "stream_mode",
          "multitask_strategy",
          "on_disconnect",
          "checkpoint",
        ]),
      );
    });
  });

  describe("options", () => {
    it.each([0, -1, 1.5])("refuses heartbeatMs %s", (heartbeatMs) => {
      expect(() =>
        langgraphRoutes({
          manager: server.manager,
          checkpointer: server.checkpointer,
          assistants: server.assistants,
          heartbeatMs,
        }),
      ).toThrow(/heartbeatMs/);
    });
  });
});
