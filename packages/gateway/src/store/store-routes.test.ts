/**
 * The store routes through `app.inject` on an `InMemoryStore`: status codes and
 * bodies of each route, validation (422) and the Platform's 400, per-user
 * ownership with two API keys, and the OpenAPI document.
 */
import { InMemoryStore } from "@langchain/langgraph-checkpoint";
import type { FastifyInstance } from "fastify";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createGateway } from "../gateway.js";
import { STORE_ROUTES_ROOT, userLabel } from "./store-owner.js";

const ALICE = { "x-api-key": "alice-key" };
const BOB = { "x-api-key": "bob-key" };

describe("store routes", () => {
  let store: InMemoryStore;
  let app: FastifyInstance;

  beforeEach(async () => {
    store = new InMemoryStore();
    app = await createGateway({
      store,
      auth: {
        apiKeys: [
          { key: "alice-key", userId: "alice" },
          { key: "bob-key", userId: "bob.smith_2" },
        ],
      },
    });
  });
  afterEach(async () => {
    await app.close();
  });

  const put = (headers: Record<string, string>, payload: unknown) =>
    app.inject({ method: "PUT", url: "/api/store/items", headers, payload: payload as object });
  const get = (headers: Record<string, string>, query: string) =>
    app.inject({ method: "GET", url: `/api/store/items?${query}`, headers });

  it("put answers 204, get the item with snake_case timestamps, delete 204 and then null", async () => {
    const stored = await put(ALICE, { namespace: ["prefs", "ui"], key: "theme", value: { color: "dark" } });
    expect(stored.statusCode).toBe(204);
    expect(stored.body).toBe("");
    const found = await get(ALICE, "namespace=prefs.ui&key=theme");
    expect(found.statusCode).toBe(200);
    const item = found.json();
    expect(item).toMatchObject({ namespace: ["prefs", "ui"], key: "theme", value: { color: "dark" } });
    expect(new Date(item.created_at).toISOString()).toBe(item.created_at);
    expect(new Date(item.updated_at).toISOString()).toBe(item.updated_at);
    const deleted = await app.inject({
      method: "DELETE",
      url: "/api/store/items",
      headers: ALICE,
      payload: { namespace: ["prefs", "ui"], key: "theme" },
    });
    expect(deleted.statusCode).toBe(204);
    const gone = await get(ALICE, "namespace=prefs.ui&key=theme");
    expect(gone.statusCode).toBe(200);
    expect(gone.body).toBe("null");
  });

  it("items live under the caller's own prefix in the store, invisible to the client", async () => {
    await put(BOB, { namespace: ["notes"], key: "n1", value: { text: "hi" } });
    const raw = await store.get([STORE_ROUTES_ROOT, userLabel("bob.smith_2"), "notes"], "n1");
    expect(raw?.value).toEqual({ text: "hi" });
    expect(userLabel("bob.smith_2")).toBe("bob~2esmith~5f2");
    const listed = await app.inject({ method: "POST", url: "/api/store/namespaces", headers: BOB, payload: {} });
    expect(listed.json()).toEqual({ namespaces: [["notes"]] });
  });

  it("two users never see each other's items, namespaces or deletes", async () => {
    await put(ALICE, { namespace: ["notes"], key: "k", value: { owner: "alice" } });
    await put(BOB, { namespace: ["notes"], key: "k", value: { owner: "bob" } });
    expect((await get(ALICE, "namespace=notes&key=k")).json().value).toEqual({ owner: "alice" });
    expect((await get(BOB, "namespace=notes&key=k")).json().value).toEqual({ owner: "bob" });
    const search = await app.inject({ method: "POST", url: "/api/store/items/search", headers: BOB, payload: {} });
    expect(search.json().items.map((i: { value: unknown }) => i.value)).toEqual([{ owner: "bob" }]);
    await app.inject({
      method: "DELETE",
      url: "/api/store/items",
      headers: BOB,
      payload: { namespace: ["notes"], key: "k" },
    });
    expect((await get(ALICE, "namespace=notes&key=k")).json().value).toEqual({ owner: "alice" });
    // A namespace naming the store's root or another user's label stays inside the caller's prefix.
    await put(ALICE, { namespace: [STORE_ROUTES_ROOT, "bob~2esmith~5f2", "notes"], key: "k", value: { forged: true } });
    expect((await get(BOB, "namespace=notes&key=k")).body).toBe("null");
    const suffix = await app.inject({
      method: "POST",
      url: "/api/store/namespaces",
      headers: BOB,
      payload: { suffix: ["alice", "notes"] },
    });
    expect(suffix.json()).toEqual({ namespaces: [] });
  });

  it("without a key every route answers 401", async () => {
    const res = await app.inject({ method: "POST", url: "/api/store/items/search", payload: {} });
    expect(res.statusCode).toBe(401);
  });

  it("search filters, pages and takes the empty prefix; namespaces take prefix, suffix, max_depth and pages", async () => {
    for (let i = 0; i < 12; i += 1) {
      await put(ALICE, { namespace: ["docs", i % 2 ? "odd" : "even"], key: `d${i}`, value: { i, even: i % 2 === 0 } });
    }
    const search = (payload: unknown) =>
      app.inject({ method: "POST", url: "/api/store/items/search", headers: ALICE, payload: payload as object });
    expect((await search({})).json().items).toHaveLength(10);
    expect((await search({ namespace_prefix: ["docs", "odd"], limit: 100 })).json().items).toHaveLength(6);
    const big = await search({ filter: { i: { $gte: 9 } }, limit: 100 });
    expect(
      big
        .json()
        .items.map((x: { key: string }) => x.key)
        .sort(),
    ).toEqual(["d10", "d11", "d9"]);
    // Filter values reach the store with their JSON types (validation must not coerce 3 into "3").
    const exact = await search({ filter: { i: 3, even: false }, limit: 100 });
    expect(exact.json().items.map((x: { key: string }) => x.key)).toEqual(["d3"]);
    expect((await search({ filter: { i: "3" }, limit: 100 })).json().items).toEqual([]);
    const page1 = (await search({ limit: 5, offset: 0 })).json().items.map((x: { key: string }) => x.key);
    const page3 = (await search({ limit: 5, offset: 10 })).json().items.map((x: { key: string }) => x.key);
    expect(page1).toHaveLength(5);
    expect(page3).toHaveLength(2);
    const ns = (payload: unknown) =>
      app.inject({ method: "POST", url: "/api/store/namespaces", headers: ALICE, payload: payload as object });
    expect((await ns({})).json().namespaces).toEqual([
      ["docs", "even"],
      ["docs", "odd"],
    ]);
    expect((await ns({ max_depth: 1 })).json().namespaces).toEqual([["docs"]]);
    expect((await ns({ suffix: ["odd"] })).json().namespaces).toEqual([["docs", "odd"]]);
    expect((await ns({ suffix: ["*"], max_depth: 1 })).json().namespaces).toEqual([["docs"]]);
    expect((await ns({ prefix: ["docs"], limit: 1, offset: 1 })).json().namespaces).toEqual([["docs", "odd"]]);
  });

  it("refuses malformed input with 422 (400 for a missing key, as the Platform)", async () => {
    const cases: Array<[string, string, unknown]> = [
      ["PUT", "/api/store/items", { namespace: ["a.b"], key: "k", value: {} }],
      ["PUT", "/api/store/items", { namespace: [""], key: "k", value: {} }],
      ["PUT", "/api/store/items", { namespace: [], key: "k", value: {} }],
      ["PUT", "/api/store/items", { namespace: ["a"], key: "k", value: "not an object" }],
      ["PUT", "/api/store/items", { namespace: ["a"], key: "k", value: {}, owner: "bob" }],
      ["PUT", "/api/store/items", { namespace: ["a:b"], key: "k", value: {} }],
      ["PUT", "/api/store/items", { namespace: Array.from({ length: 40 }, () => "x"), key: "k", value: {} }],
      ["DELETE", "/api/store/items", { namespace: ["a"] }],
      ["POST", "/api/store/items/search", { filter: "x" }],
      ["POST", "/api/store/items/search", { filter: { a: { $regex: ".*" } } }],
      ["POST", "/api/store/items/search", { filter: { a: { $in: { x: 1 } } } }],
      ["POST", "/api/store/items/search", { filter: { a: { nested: 1 } } }],
      ["POST", "/api/store/items/search", { limit: -1 }],
      ["POST", "/api/store/items/search", { limit: 100_000 }],
      ["POST", "/api/store/namespaces", { max_depth: 0 }],
      ["POST", "/api/store/namespaces", { prefix: ["a.b"] }],
    ];
    for (const [method, url, payload] of cases) {
      const res = await app.inject({ method: method as "PUT", url, headers: ALICE, payload: payload as object });
      expect(res.statusCode, `${method} ${JSON.stringify(payload)}`).toBe(422);
      expect(res.json()).toHaveProperty("detail");
    }
    expect((await get(ALICE, "namespace=a..b&key=k")).statusCode).toBe(422);
    expect((await get(ALICE, "key=k")).statusCode).toBe(422);
    const noKey = await get(ALICE, "namespace=a");
    expect(noKey.statusCode).toBe(400);
    expect(noKey.json()).toEqual({ detail: "Key is required" });
  });

  it("appear in /openapi.json under the store tag", async () => {
    const doc = (await app.inject({ method: "GET", url: "/openapi.json", headers: ALICE })).json();
    expect(Object.keys(doc.paths["/api/store/items"]).sort()).toEqual(["delete", "get", "put"]);
    expect(doc.paths["/api/store/items/search"].post.tags).toEqual(["store"]);
    expect(doc.paths["/api/store/namespaces"].post).toBeDefined();
  });
});

describe("store routes and large values", () => {
  it("store a value up to the body limit and refuse a larger one with 413, storing nothing", async () => {
    const store = new InMemoryStore();
    const app = await createGateway({ store, bodyLimit: 64 * 1024 });
    try {
      const fits = { namespace: ["big"], key: "fits", value: { text: "x".repeat(60 * 1024) } };
      expect((await app.inject({ method: "PUT", url: "/api/store/items", payload: fits })).statusCode).toBe(204);
      const found = await app.inject({ method: "GET", url: "/api/store/items?namespace=big&key=fits" });
      expect(found.json().value.text).toHaveLength(60 * 1024);
      const tooBig = { namespace: ["big"], key: "huge", value: { text: "x".repeat(80 * 1024) } };
      const refused = await app.inject({ method: "PUT", url: "/api/store/items", payload: tooBig });
      expect(refused.statusCode).toBe(413);
      expect(await store.search([], { limit: 10 })).toHaveLength(1);
    } finally {
      await app.close();
    }
  });
});

describe("store routes without a store", () => {
  it("are not mounted", async () => {
    const app = await createGateway({});
    const res = await app.inject({ method: "POST", url: "/api/store/items/search", payload: {} });
    expect(res.statusCode).toBe(404);
    await app.close();
  });
});
