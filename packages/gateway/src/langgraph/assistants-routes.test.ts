/**
 * The assistants routes over system and stored assistants (through
 * `app.inject`, keys for alice, bob and an admin, a `MemoryAssistantStore`):
 * every write route and its codes, versions and `setLatest`, owner isolation
 * (another user's assistant is 404 on every route, as a run's assistant too,
 * and absent from searches and counts), read-only system assistants, and a
 * run on a stored assistant carrying its config and context under the
 * caller's identity.
 */
import { MemoryAssistantStore } from "@deerflow/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AGENT_ID, startServer, type TestServer } from "../../test/support/langgraph/server.js";

const KEYS = { alice: "alice-key-0123456789", bob: "bob-key-0123456789", admin: "admin-key-0123456789" } as const;
type Who = keyof typeof KEYS;
type Json = Record<string, unknown>;

describe("assistants routes", () => {
  let server: TestServer;
  let store: MemoryAssistantStore;

  beforeAll(async () => {
    store = new MemoryAssistantStore();
    server = await startServer({
      listen: false,
      assistantStore: store,
      gateway: {
        auth: {
          apiKeys: [
            { key: KEYS.alice, userId: "alice" },
            { key: KEYS.bob, userId: "bob" },
            { key: KEYS.admin, userId: "root", admin: true },
          ],
        },
      },
    });
  });

  afterAll(async () => {
    await server?.close();
  });

  async function call(who: Who, method: "GET" | "POST" | "PATCH" | "DELETE", url: string, payload?: unknown) {
    const res = await server.app.inject({
      method,
      url: `/api${url}`,
      headers: { "x-api-key": KEYS[who] },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    const body: unknown = res.body === "" ? undefined : res.json();
    return { status: res.statusCode, body: body as Json & Json[], headers: res.headers };
  }

  async function create(who: Who, body: Json = {}): Promise<Json> {
    const res = await call(who, "POST", "/assistants", { graph_id: "agent", ...body });
    expect(res.status).toBe(200);
    return res.body;
  }

  it("creates an assistant owned by the caller, at version 1, with the LangGraph shape", async () => {
    const created = await create("alice", {
      name: "Researcher",
      description: "Finds things",
      config: { configurable: { model: "m1" }, tags: ["r"] },
      context: { agent_name: "researcher" },
      metadata: { team: "blue" },
    });
    expect(created).toEqual({
      assistant_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      graph_id: "agent",
      name: "Researcher",
      description: "Finds things",
      config: { configurable: { model: "m1" }, tags: ["r"] },
      context: { agent_name: "researcher" },
      metadata: { team: "blue" },
      version: 1,
      created_at: expect.any(String),
      updated_at: created.created_at,
    });
    expect((await store.get(created.assistant_id as string, { owner: "alice" }))?.owner).toBe("alice");
    expect((await call("alice", "GET", `/assistants/${created.assistant_id as string}`)).body).toEqual(created);
  });

  it("create: 409 for a taken id (do_nothing returns the caller's own), 404 for an unknown graph, 422 for a bad body", async () => {
    const id = "fixed-id-1";
    await create("alice", { assistant_id: id, name: "first" });
    const again = await call("alice", "POST", "/assistants", { graph_id: "agent", assistant_id: id });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ detail: `Assistant ${id} already exists` });
    const same = await call("alice", "POST", "/assistants", {
      graph_id: "agent",
      assistant_id: id,
      if_exists: "do_nothing",
    });
    expect(same.body).toMatchObject({ assistant_id: id, name: "first" });
    // bob cannot get alice's assistant back through do_nothing.
    const bobs = await call("bob", "POST", "/assistants", {
      graph_id: "agent",
      assistant_id: id,
      if_exists: "do_nothing",
    });
    expect(bobs.status).toBe(409);
    // A system assistant's id and a graph id are taken too.
    expect((await call("alice", "POST", "/assistants", { graph_id: "agent", assistant_id: AGENT_ID })).status).toBe(
      409,
    );
    expect((await call("alice", "POST", "/assistants", { graph_id: "agent", assistant_id: "agent" })).status).toBe(409);
    const unknownGraph = await call("alice", "POST", "/assistants", { graph_id: "nope" });
    expect(unknownGraph).toMatchObject({ status: 404, body: { detail: "Graph nope not found" } });
    for (const bad of [
      {},
      { graph_id: "agent", assistant_id: "../etc" },
      { graph_id: "agent", config: { recursion_limit: 0 } },
      { graph_id: "agent", metadata: "x" },
      { graph_id: "agent", owner: "bob" },
      { graph_id: "agent", if_exists: "replace" },
    ]) {
      expect((await call("alice", "POST", "/assistants", bad)).status).toBe(422);
    }
  });

  it("update writes a new version; versions list newest first; setLatest switches back", async () => {
    const a = await create("alice", { name: "v1", context: { x: 1 }, metadata: { keep: true } });
    const id = a.assistant_id as string;
    const updated = await call("alice", "PATCH", `/assistants/${id}`, {
      context: { y: 2 },
      metadata: { added: 1 },
      name: "v2",
    });
    expect(updated.body).toMatchObject({
      version: 2,
      name: "v2",
      context: { y: 2 },
      metadata: { keep: true, added: 1 },
    });
    const versions = await call("alice", "POST", `/assistants/${id}/versions`, {});
    expect(versions.body.map((v) => v.version)).toEqual([2, 1]);
    expect(versions.body[1]).toMatchObject({ assistant_id: id, name: "v1", context: { x: 1 }, graph_id: "agent" });
    const filtered = await call("alice", "POST", `/assistants/${id}/versions`, { metadata: { added: 1 }, limit: 5 });
    expect(filtered.body.map((v) => v.version)).toEqual([2]);
    const latest = await call("alice", "POST", `/assistants/${id}/latest`, { version: 1 });
    expect(latest.body).toMatchObject({ version: 1, name: "v1", context: { x: 1 } });
    expect((await call("alice", "GET", `/assistants/${id}`)).body).toMatchObject({ version: 1, name: "v1" });
    expect((await call("alice", "POST", `/assistants/${id}/latest`, { version: 9 })).status).toBe(404);
    expect((await call("alice", "POST", `/assistants/${id}/latest`, { version: 0 })).status).toBe(422);
    expect((await call("alice", "PATCH", `/assistants/${id}`, { graph_id: "nope" })).status).toBe(404);
  });

  it("delete answers [id] and removes the assistant; a second delete is 404", async () => {
    const id = (await create("alice")).assistant_id as string;
    const res = await call("alice", "DELETE", `/assistants/${id}`);
    expect(res).toMatchObject({ status: 200, body: [id] });
    expect((await call("alice", "GET", `/assistants/${id}`)).status).toBe(404);
    expect((await call("alice", "DELETE", `/assistants/${id}`)).status).toBe(404);
  });

  it("delete_threads=true deletes the caller's threads that ran the assistant, and no one else's", async () => {
    const id = (await create("alice")).assistant_id as string;
    const thread = async (who: Who) => {
      const t = (await call(who, "POST", "/threads", {})).body.thread_id as string;
      const run = await call(who, "POST", `/threads/${t}/runs`, {
        assistant_id: who === "alice" ? id : AGENT_ID,
        input: { messages: [{ role: "user", content: "hi" }] },
      });
      expect(run.status).toBe(200);
      await server.manager.join(run.body.run_id as string);
      return t;
    };
    const alices = await thread("alice");
    const bobs = await thread("bob");
    // bob's thread names alice's assistant in its metadata, yet is bob's: it stays.
    await server.manager.store.updateThread(bobs, { metadata: { assistant_id: id } });
    expect((await call("alice", "DELETE", `/assistants/${id}?delete_threads=true`)).body).toEqual([id]);
    expect((await call("alice", "GET", `/threads/${alices}`)).status).toBe(404);
    expect((await call("bob", "GET", `/threads/${bobs}`)).status).toBe(200);
  });

  it("another user's assistant is 404 on every route, and invisible to search and count; an admin sees and edits it", async () => {
    const id = (await create("alice", { name: "alice only", metadata: { secret: true } })).assistant_id as string;
    const notFound = { detail: `No assistant found for "${id}"` };
    for (const [method, url, body] of [
      ["GET", `/assistants/${id}`, undefined],
      ["GET", `/assistants/${id}/graph`, undefined],
      ["GET", `/assistants/${id}/schemas`, undefined],
      ["PATCH", `/assistants/${id}`, { name: "hijacked" }],
      ["DELETE", `/assistants/${id}`, undefined],
      ["POST", `/assistants/${id}/versions`, {}],
      ["POST", `/assistants/${id}/latest`, { version: 1 }],
      ["POST", "/runs/wait", { assistant_id: id, input: { messages: [] } }],
    ] as const) {
      const res = await call("bob", method, url, body);
      expect([method, url, res.status, res.body]).toEqual([method, url, 404, notFound]);
    }
    const bobThread = (await call("bob", "POST", "/threads", {})).body.thread_id as string;
    const run = await call("bob", "POST", `/threads/${bobThread}/runs`, { assistant_id: id });
    expect(run).toMatchObject({ status: 404, body: notFound });
    expect(await server.manager.list(bobThread)).toEqual([]);
    expect((await store.get(id, { owner: "alice" }))?.name).toBe("alice only");

    const bobSearch = await call("bob", "POST", "/assistants/search", { metadata: { secret: true } });
    expect(bobSearch.body).toEqual([]);
    expect(bobSearch.headers["x-pagination-total"]).toBe("0");
    expect((await call("bob", "POST", "/assistants/count", { metadata: { secret: true } })).body).toBe(0);
    expect((await call("alice", "POST", "/assistants/count", { metadata: { secret: true } })).body).toBe(1);
    expect((await call("admin", "POST", "/assistants/search", { metadata: { secret: true } })).body).toHaveLength(1);
    const edited = await call("admin", "PATCH", `/assistants/${id}`, { metadata: { checked: true } });
    expect(edited.body).toMatchObject({ version: 2, metadata: { secret: true, checked: true } });
    expect((await store.get(id, { allOwners: true }))?.owner).toBe("alice");
  });

  it("system assistants are read-only: PATCH, DELETE and setLatest answer 403 with the reason", async () => {
    for (const [method, url, body] of [
      ["PATCH", `/assistants/${AGENT_ID}`, { name: "x" }],
      ["PATCH", "/assistants/agent", { name: "x" }],
      ["DELETE", `/assistants/${AGENT_ID}`, undefined],
      ["POST", `/assistants/${AGENT_ID}/latest`, { version: 1 }],
    ] as const) {
      const res = await call("admin", method, url, body);
      expect(res.status).toBe(403);
      expect(String(res.body.detail)).toContain("is the system assistant of graph agent");
    }
    const versions = await call("alice", "POST", `/assistants/${AGENT_ID}/versions`, {});
    expect(versions.body).toEqual([expect.objectContaining({ assistant_id: AGENT_ID, version: 1, graph_id: "agent" })]);
    const kind = async (metadata: Record<string, unknown>) =>
      (await call("alice", "POST", `/assistants/${AGENT_ID}/versions`, { metadata })).body.length;
    expect([await kind({ kind: "chat" }), await kind({ kind: "worker" })]).toEqual([1, 0]);
    expect((await call("alice", "POST", `/assistants/${AGENT_ID}/versions`, { offset: 1 })).body).toEqual([]);
    expect((await call("alice", "GET", `/assistants/${AGENT_ID}`)).body).toMatchObject({ name: "Agent", version: 1 });
  });

  it("search lists system assistants first, then the caller's newest first, paginated across both", async () => {
    const names = ["p-one", "p-two", "p-three"];
    for (const name of names) {
      await create("bob", { name, metadata: { page: true } });
      // Distinct creation times (ties would order by id).
      await new Promise((resolve) => setTimeout(resolve, 3));
    }
    const all = await call("bob", "POST", "/assistants/search", { limit: 100 });
    const ids = all.body.map((a) => a.assistant_id);
    expect(ids.slice(0, 2)).toEqual([AGENT_ID, expect.any(String)]);
    expect(all.body.slice(2).map((a) => a.name)).toEqual(["p-three", "p-two", "p-one"]);
    expect(all.headers["x-pagination-total"]).toBe(String(all.body.length));
    const page = await call("bob", "POST", "/assistants/search", { limit: 2, offset: 1 });
    expect(page.body.map((a) => a.assistant_id)).toEqual(ids.slice(1, 3));
    expect(page.headers["x-pagination-next"]).toBe("3");
    const sorted = await call("bob", "POST", "/assistants/search", { sort_by: "name", sort_order: "asc", limit: 100 });
    const sortedNames = sorted.body.map((a) => a.name as string);
    expect(sortedNames).toEqual([...sortedNames].sort());
    const sortedPage = await call("bob", "POST", "/assistants/search", {
      sort_by: "name",
      sort_order: "asc",
      limit: 2,
      offset: 2,
    });
    expect(sortedPage.body.map((a) => a.name)).toEqual(sortedNames.slice(2, 4));
    const selected = await call("bob", "POST", "/assistants/search", { name: "p-t", select: ["assistant_id", "name"] });
    expect(selected.body.map((a) => Object.keys(a).sort())).toEqual([
      ["assistant_id", "name"],
      ["assistant_id", "name"],
    ]);
    expect((await call("bob", "POST", "/assistants/count", { graph_id: "agent", name: "p-" })).body).toBe(3);
  });

  it("a run on a stored assistant runs its graph with its config and context merged under the request's, as the caller", async () => {
    const a = await create("alice", {
      config: { configurable: { model: "from-assistant", user_id: "mallory", depth: 1 }, tags: ["a"] },
      context: { agent_name: "researcher", user_id: "mallory", tone: "dry" },
    });
    const id = a.assistant_id as string;
    const threadId = (await call("alice", "POST", "/threads", {})).body.thread_id as string;
    const run = await call("alice", "POST", `/threads/${threadId}/runs`, {
      assistant_id: id,
      input: { messages: [{ role: "user", content: "hello" }] },
      config: { configurable: { depth: 2 } },
      context: { tone: "warm" },
    });
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({
      assistant_id: id,
      kwargs: {
        config: { configurable: { model: "from-assistant", depth: 2, user_id: "alice" }, tags: ["a"] },
        context: { agent_name: "researcher", tone: "warm", user_id: "alice" },
      },
    });
    const done = await server.manager.join(run.body.run_id as string);
    expect(done.status).toBe("success");
    const state = await call("alice", "GET", `/threads/${threadId}/state`);
    expect(JSON.stringify(state.body.values)).toContain("You said: hello");
    expect((await call("alice", "GET", `/threads/${threadId}`)).body).toMatchObject({
      metadata: { assistant_id: id, graph_id: "agent" },
    });
    // /wait answers the final values read with the assistant's graph (a stored id is no system assistant).
    const waited = await call("alice", "POST", `/threads/${threadId}/runs/wait`, {
      assistant_id: id,
      input: { messages: [{ role: "user", content: "again" }] },
    });
    expect(waited.status).toBe(200);
    expect(JSON.stringify(waited.body.messages)).toContain("You said: again");
  });

  it("the write routes are in /openapi.json with their bodies", async () => {
    const doc = (await server.app.inject({ url: "/openapi.json", headers: { "x-api-key": KEYS.admin } })).json() as {
      paths: Record<string, Record<string, { requestBody?: unknown }>>;
    };
    expect(Object.keys(doc.paths["/api/assistants"] ?? {})).toContain("post");
    expect(doc.paths["/api/assistants"]?.["post"]?.requestBody).toBeDefined();
    expect(Object.keys(doc.paths["/api/assistants/{assistant_id}"] ?? {})).toEqual(
      expect.arrayContaining(["get", "patch", "delete"]),
    );
    expect(doc.paths["/api/assistants/{assistant_id}/versions"]?.["post"]).toBeDefined();
    expect(doc.paths["/api/assistants/{assistant_id}/latest"]?.["post"]).toBeDefined();
  });
});

describe("assistants routes without an assistant store", () => {
  it("serves system assistants and refuses to create with 403", async () => {
    const server = await startServer({ listen: false });
    try {
      const res = await server.app.inject({ method: "POST", url: "/api/assistants", payload: { graph_id: "agent" } });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ detail: expect.stringContaining("no assistant store is configured") });
      const search = await server.app.inject({ method: "POST", url: "/api/assistants/search", payload: {} });
      expect((search.json() as unknown[]).length).toBe(2);
    } finally {
      await server.close();
    }
  });
});
