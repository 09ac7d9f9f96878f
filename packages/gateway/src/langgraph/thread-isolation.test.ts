/**
 * Threads and runs by owner (through `app.inject`, keys for alice, bob and an
 * admin): a thread carries `metadata.owner` = its creator, which no body sets
 * or changes; every route naming a thread or a run answers another user's
 * exactly as a missing one (404, same text) and changes nothing; searches and
 * counts find the caller's threads only, and an `owner` filter cannot widen
 * them; an admin sees all. The route table is read from Fastify, so a new
 * route taking a thread or run id fails here until it has a probe.
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { RuntimeError } from "@deerflow/runtime";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { LocalThreadFiles, ownerThreadAuthorizer } from "../index.js";
import { multipartBody } from "../../test/support/multipart.js";
import { AGENT_ID, startServer, type TestServer } from "../../test/support/langgraph/server.js";

const KEYS = { alice: "alice-key-0123456789", bob: "bob-key-0123456789", admin: "admin-key-0123456789" } as const;
type Who = keyof typeof KEYS;

/** One request a probe sends, for a thread id and a run id. */
interface Probe {
  readonly method: "GET" | "POST" | "PATCH" | "DELETE";
  readonly url: (threadId: string, runId: string) => string;
  readonly payload?: unknown;
  readonly headers?: Record<string, string>;
}

const json = (method: Probe["method"], url: Probe["url"], payload?: unknown): Probe => ({
  method,
  url,
  ...(payload === undefined ? {} : { payload }),
});
const upload = multipartBody([{ filename: "x.txt", data: "x" }]);

/**
 * Every route whose path names a thread or a run, keyed `METHOD path` as the
 * OpenAPI document lists it. A route missing here fails "covers every route".
 */
const PROBES: Readonly<Record<string, Probe>> = {
  "GET /api/threads/{thread_id}": json("GET", (t) => `/api/threads/${t}`),
  "PATCH /api/threads/{thread_id}": json("PATCH", (t) => `/api/threads/${t}`, { metadata: { title: "hijacked" } }),
  "DELETE /api/threads/{thread_id}": json("DELETE", (t) => `/api/threads/${t}`),
  "GET /api/threads/{thread_id}/state": json("GET", (t) => `/api/threads/${t}/state`),
  "POST /api/threads/{thread_id}/state": json("POST", (t) => `/api/threads/${t}/state`, { values: { messages: [] } }),
  "POST /api/threads/{thread_id}/state/checkpoint": json("POST", (t) => `/api/threads/${t}/state/checkpoint`, {
    checkpoint: {},
  }),
  "GET /api/threads/{thread_id}/state/{checkpoint_id}": json("GET", (t) => `/api/threads/${t}/state/${randomUUID()}`),
  "GET /api/threads/{thread_id}/history": json("GET", (t) => `/api/threads/${t}/history`),
  "POST /api/threads/{thread_id}/history": json("POST", (t) => `/api/threads/${t}/history`, {}),
  "GET /api/threads/{thread_id}/token-usage": json("GET", (t) => `/api/threads/${t}/token-usage`),
  "GET /api/threads/{thread_id}/runs": json("GET", (t) => `/api/threads/${t}/runs`),
  "POST /api/threads/{thread_id}/runs": json("POST", (t) => `/api/threads/${t}/runs`, { assistant_id: AGENT_ID }),
  "POST /api/threads/{thread_id}/runs/stream": json("POST", (t) => `/api/threads/${t}/runs/stream`, {
    assistant_id: AGENT_ID,
  }),
  "POST /api/threads/{thread_id}/runs/wait": json("POST", (t) => `/api/threads/${t}/runs/wait`, {
    assistant_id: AGENT_ID,
  }),
  "GET /api/threads/{thread_id}/runs/{run_id}": json("GET", (t, r) => `/api/threads/${t}/runs/${r}`),
  "DELETE /api/threads/{thread_id}/runs/{run_id}": json("DELETE", (t, r) => `/api/threads/${t}/runs/${r}`),
  "POST /api/threads/{thread_id}/runs/{run_id}/cancel": json("POST", (t, r) => `/api/threads/${t}/runs/${r}/cancel`),
  "GET /api/threads/{thread_id}/runs/{run_id}/join": json("GET", (t, r) => `/api/threads/${t}/runs/${r}/join`),
  "GET /api/threads/{thread_id}/runs/{run_id}/stream": {
    ...json("GET", (t, r) => `/api/threads/${t}/runs/${r}/stream`),
    headers: { "last-event-id": "-1" },
  },
  "GET /api/runs/{run_id}/stream": json("GET", (_t, r) => `/api/runs/${r}/stream`),
  "POST /api/threads/{thread_id}/uploads": {
    method: "POST",
    url: (t) => `/api/threads/${t}/uploads`,
    payload: upload.payload,
    headers: upload.headers,
  },
  "GET /api/threads/{thread_id}/uploads/limits": json("GET", (t) => `/api/threads/${t}/uploads/limits`),
  "GET /api/threads/{thread_id}/uploads/list": json("GET", (t) => `/api/threads/${t}/uploads/list`),
  "DELETE /api/threads/{thread_id}/uploads/{filename}": json("DELETE", (t) => `/api/threads/${t}/uploads/x.txt`),
  "GET /api/threads/{thread_id}/artifacts/{path}": json(
    "GET",
    (t) => `/api/threads/${t}/artifacts/mnt/user-data/uploads/x.txt`,
  ),
  "GET /api/threads/{thread_id}/files": json("GET", (t) => `/api/threads/${t}/files`),
};

/**
 * `METHOD path` of every route in the app's OpenAPI document (which
 * `@fastify/swagger` builds from every registered route), in its path syntax
 * (`{thread_id}`; a wildcard is `{path}`).
 */
async function registeredRoutes(app: FastifyInstance): Promise<string[]> {
  const doc = (await app.inject({ url: "/openapi.json", headers: { "x-api-key": KEYS.admin } })).json() as {
    paths: Record<string, Record<string, unknown>>;
  };
  return Object.entries(doc.paths).flatMap(([route, operations]) =>
    Object.keys(operations)
      .filter((method) => method !== "head")
      .map((method) => `${method.toUpperCase()} ${route}`),
  );
}

describe("threads and runs by owner", () => {
  let server: TestServer;
  let root: string;

  beforeAll(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), "deerflow-isolation-"));
    server = await startServer({
      listen: false,
      gateway: {
        auth: {
          apiKeys: [
            { key: KEYS.alice, userId: "alice" },
            { key: KEYS.bob, userId: "bob" },
            { key: KEYS.admin, userId: "root", admin: true },
          ],
        },
        threadFiles: new LocalThreadFiles({ root }),
        authorizeThread: (principal, threadId) => ownerThreadAuthorizer(server.manager.store)(principal, threadId),
      },
    });
  });

  afterAll(async () => {
    await server?.close();
    await fs.rm(root, { recursive: true, force: true });
  });

  async function call(who: Who, method: Probe["method"], url: string, payload?: unknown, headers = {}) {
    const res = await server.app.inject({
      method,
      url,
      headers: { "x-api-key": KEYS[who], ...headers },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    const json = String(res.headers["content-type"]).includes("json");
    const body: unknown = res.body === "" ? undefined : json ? res.json() : res.body;
    return { status: res.statusCode, body, headers: res.headers };
  }

  async function thread(who: Who, metadata: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    const res = await call(who, "POST", "/api/threads", { metadata });
    expect(res.status).toBe(200);
    return res.body as Record<string, unknown>;
  }

  /** Alice's thread with one finished run, and a file uploaded into it. */
  async function aliceThreadWithRun(): Promise<{ threadId: string; runId: string }> {
    const threadId = (await thread("alice", { topic: "otters" })).thread_id as string;
    const run = await call("alice", "POST", `/api/threads/${threadId}/runs`, {
      assistant_id: AGENT_ID,
      input: { messages: [{ role: "user", content: "hi" }] },
    });
    expect(run.status).toBe(200);
    const runId = (run.body as { run_id: string }).run_id;
    await server.manager.join(runId);
    const up = await call("alice", "POST", `/api/threads/${threadId}/uploads`, upload.payload, upload.headers);
    expect(up.status).toBe(200);
    return { threadId, runId };
  }

  it("covers every route that names a thread or a run", async () => {
    const named = (await registeredRoutes(server.app)).filter((r) => /\{thread_id\}|\{run_id\}/.test(r));
    expect(named.length).toBeGreaterThan(20);
    expect(named.filter((r) => PROBES[r] === undefined)).toEqual([]);
    // And no probe for a route that is gone.
    expect(Object.keys(PROBES).filter((p) => !named.includes(p))).toEqual([]);
  });

  it.each(Object.keys(PROBES))("%s: another user's thread or run answers as a missing one", async (route) => {
    const probe = PROBES[route] as Probe;
    const { threadId, runId } = await aliceThreadWithRun();
    const before = await server.manager.store.getThread(threadId);
    const send = (who: Who, t: string, r: string) =>
      call(who, probe.method, probe.url(t, r), probe.payload, probe.headers);

    const theirs = await send("bob", threadId, runId);
    const [missingThread, missingRun] = [randomUUID(), randomUUID()];
    const missing = await send("bob", missingThread, missingRun);
    expect(theirs.status).toBe(404);
    expect(missing.status).toBe(404);
    const generic = (body: unknown, t: string, r: string) =>
      JSON.stringify(body).replaceAll(t, "<thread>").replaceAll(r, "<run>");
    expect(generic(theirs.body, threadId, runId)).toBe(generic(missing.body, missingThread, missingRun));

    // Nothing of alice's changed: same thread, same single run, her upload still there.
    expect(await server.manager.store.getThread(threadId)).toEqual(before);
    expect((await server.manager.list(threadId)).map((r) => [r.runId, r.status])).toEqual([[runId, "success"]]);
    expect((await call("alice", "GET", `/api/threads/${threadId}/uploads/list`)).body).toMatchObject({ count: 1 });
  });

  it("a run with if_not_exists=create on another user's thread answers 404 and runs nothing", async () => {
    const { threadId, runId } = await aliceThreadWithRun();
    for (const suffix of ["/runs", "/runs/stream", "/runs/wait"]) {
      const res = await call("bob", "POST", `/api/threads/${threadId}${suffix}`, {
        assistant_id: AGENT_ID,
        if_not_exists: "create",
      });
      expect(res).toMatchObject({ status: 404, body: { detail: `Thread ${threadId} not found` } });
    }
    expect((await server.manager.list(threadId)).map((r) => r.runId)).toEqual([runId]);
  });

  it("if_not_exists=create claims the thread before admitting: a thread another user created meanwhile is 404, not run on", async () => {
    const threadId = randomUUID();
    expect((await call("bob", "POST", "/api/threads", { thread_id: threadId })).status).toBe(200);
    // Alice's lookup happened just before bob created it.
    vi.spyOn(server.manager.store, "getThread").mockResolvedValueOnce(null);
    const res = await call("alice", "POST", `/api/threads/${threadId}/runs`, {
      assistant_id: AGENT_ID,
      if_not_exists: "create",
    });
    expect(res).toMatchObject({ status: 404, body: { detail: `Thread ${threadId} not found` } });
    expect(await server.manager.list(threadId)).toEqual([]);
    expect((await server.manager.store.getThread(threadId))?.metadata).toEqual({ owner: "bob" });
  });

  it("a refused if_not_exists=create run leaves no thread behind", async () => {
    const threadId = randomUUID();
    vi.spyOn(server.manager, "create").mockRejectedValueOnce(new RuntimeError("SHUTTING_DOWN", "shutting down"));
    const res = await call("alice", "POST", `/api/threads/${threadId}/runs`, {
      assistant_id: AGENT_ID,
      if_not_exists: "create",
    });
    expect(res.status).toBe(503);
    expect(await server.manager.store.getThread(threadId)).toBeNull();
  });

  it("an admin reaches every user's thread and run", async () => {
    const { threadId, runId } = await aliceThreadWithRun();
    expect((await call("admin", "GET", `/api/threads/${threadId}`)).body).toMatchObject({
      metadata: { owner: "alice", topic: "otters" },
    });
    expect((await call("admin", "GET", `/api/threads/${threadId}/runs/${runId}`)).status).toBe(200);
    expect((await call("admin", "GET", `/api/threads/${threadId}/state`)).status).toBe(200);
    expect((await call("admin", "POST", `/api/threads/${threadId}/history`, {})).status).toBe(200);
  });

  describe("the owner", () => {
    it("is the creator, on POST /threads and on threads runs create", async () => {
      expect((await thread("alice")).metadata).toEqual({ owner: "alice" });
      expect((await thread("admin", { a: 1 })).metadata).toEqual({ a: 1, owner: "root" });
      const threadId = randomUUID();
      const created = await call("bob", "POST", `/api/threads/${threadId}/runs`, {
        assistant_id: AGENT_ID,
        if_not_exists: "create",
      });
      expect(created.status).toBe(200);
      expect((await server.manager.store.getThread(threadId))?.metadata).toMatchObject({ owner: "bob" });
      const stateless = await call("bob", "POST", "/api/runs", { assistant_id: AGENT_ID, on_completion: "keep" });
      const temp = (stateless.body as { thread_id: string }).thread_id;
      expect((await server.manager.store.getThread(temp))?.metadata).toMatchObject({ owner: "bob" });
      // Alice cannot follow bob's stateless run either.
      const run = (stateless.body as { run_id: string }).run_id;
      expect((await call("alice", "GET", `/api/runs/${run}/stream`)).status).toBe(404);
    });

    it("cannot be set or changed by a body, admin included", async () => {
      for (const who of ["alice", "admin"] as const) {
        const res = await call(who, "POST", "/api/threads", { metadata: { owner: "bob" } });
        expect(res.status).toBe(403);
        expect((res.body as { detail: string }).detail).toContain("metadata.owner");
      }
      expect((await server.manager.store.searchThreads({ metadata: { owner: "bob", forged: true } })).length).toBe(0);
      // Repeating one's own id is accepted.
      expect((await call("alice", "POST", "/api/threads", { metadata: { owner: "alice" } })).status).toBe(200);

      const threadId = (await thread("alice")).thread_id as string;
      for (const who of ["alice", "admin"] as const) {
        const res = await call(who, "PATCH", `/api/threads/${threadId}`, { metadata: { owner: "bob" } });
        expect(res.status).toBe(403);
      }
      expect(
        (await call("alice", "PATCH", `/api/threads/${threadId}`, { metadata: { owner: "alice", t: 1 } })).status,
      ).toBe(200);
      expect((await server.manager.store.getThread(threadId))?.metadata).toEqual({ owner: "alice", t: 1 });
    });

    it("keeps another user's id out of reach of POST /threads: if_exists=do_nothing answers 409, not their thread", async () => {
      const threadId = (await thread("alice", { secret: "s3cr3t" })).thread_id as string;
      for (const ifExists of ["raise", "do_nothing"]) {
        const res = await call("bob", "POST", "/api/threads", { thread_id: threadId, if_exists: ifExists });
        expect(res).toMatchObject({ status: 409, body: { detail: `Thread ${threadId} already exists` } });
        expect(JSON.stringify(res.body)).not.toContain("s3cr3t");
      }
      // Her own do_nothing answers her thread.
      const mine = await call("alice", "POST", "/api/threads", { thread_id: threadId, if_exists: "do_nothing" });
      expect(mine.body).toMatchObject({ thread_id: threadId, metadata: { secret: "s3cr3t" } });
    });
  });

  describe("search and count", () => {
    it("find the caller's threads only; an owner filter narrows, never widens; an admin finds all", async () => {
      const tag = randomUUID();
      const a1 = (await thread("alice", { tag })).thread_id;
      const a2 = (await thread("alice", { tag })).thread_id;
      const b1 = (await thread("bob", { tag })).thread_id;
      const ids = (res: { body: unknown }) => (res.body as { thread_id: string }[]).map((t) => t.thread_id).sort();
      const search = (who: Who, metadata: Record<string, unknown>, extra = {}) =>
        call(who, "POST", "/api/threads/search", { metadata, limit: 100, ...extra });
      const count = async (who: Who, metadata: Record<string, unknown>) =>
        (await call(who, "POST", "/api/threads/count", { metadata })).body;

      expect(ids(await search("alice", { tag }))).toEqual([a1, a2].sort());
      expect(ids(await search("bob", { tag }))).toEqual([b1]);
      expect(ids(await search("admin", { tag }))).toEqual([a1, a2, b1].sort());
      expect(ids(await search("admin", { tag, owner: "alice" }))).toEqual([a1, a2].sort());
      const forged = await search("bob", { tag, owner: "alice" });
      expect(forged.body).toEqual([]);
      expect(forged.headers["x-pagination-total"]).toBe("0");
      // ids and status filters are scoped too.
      expect(ids(await search("bob", {}, { ids: [a1, a2, b1] }))).toEqual([b1]);
      expect((await search("bob", { tag }, { limit: 1 })).headers["x-pagination-total"]).toBe("1");

      expect(await count("alice", { tag })).toBe(2);
      expect(await count("bob", { tag })).toBe(1);
      expect(await count("bob", { tag, owner: "alice" })).toBe(0);
      expect(await count("admin", { tag })).toBe(3);
      expect((await call("bob", "POST", "/api/threads/count", {})).body).toBeLessThan(
        (await call("admin", "POST", "/api/threads/count", {})).body as number,
      );
    });
  });
});

describe("threads without authentication", () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer({ listen: false });
  });

  afterAll(async () => {
    await server?.close();
  });

  it("get no owner, and owner is ordinary metadata (everyone is the admin user default)", async () => {
    const plain = await server.app.inject({ method: "POST", url: "/api/threads", payload: { metadata: { a: 1 } } });
    expect(plain.json()).toMatchObject({ metadata: { a: 1 } });
    expect(plain.json().metadata).not.toHaveProperty("owner");
    const named = await server.app.inject({
      method: "POST",
      url: "/api/threads",
      payload: { metadata: { owner: "x" } },
    });
    expect(named.statusCode).toBe(200);
    const id = named.json().thread_id as string;
    expect((await server.app.inject({ url: `/api/threads/${id}` })).statusCode).toBe(200);
  });
});
