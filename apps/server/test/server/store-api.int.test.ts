/**
 * The long-term store of the real server: the official SDK's `client.store`
 * (1.15 and 2.0.0) over a socket against the embedded default (SQLite
 * `store.sqlite` under the data dir), items kept across a restart, and with
 * `DATABASE_URL` the PostgreSQL store shared by two instances.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { Client as Client115 } from "@langchain/langgraph-sdk";
import { Client as Client2 } from "sdk2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDirs } from "../support/temp-dir.js";
import { dropSchemas, requirePostgres, uniqueName } from "../support/services.js";
import { embeddedEnv, startServer, statusOf, type TestServer } from "../support/server-harness.js";

type StoreClient = Client115["store"];
const SDKS: ReadonlyArray<readonly [string, (apiUrl: string) => StoreClient]> = [
  ["@langchain/langgraph-sdk 1.15", (apiUrl) => new Client115({ apiUrl, apiKey: null }).store],
  ["@langchain/langgraph-sdk 2.0.0", (apiUrl) => new Client2({ apiUrl, apiKey: null }).store as unknown as StoreClient],
];

const temp = tempDirs();
const EMBEDDED = "storage:\n  data_dir: ./data\n";

afterAll(async () => {
  await temp.cleanup();
});

describe.each(SDKS)("store API of the server with %s", (_name, makeStore) => {
  let dir: string;
  let running: TestServer;
  let store: StoreClient;

  beforeAll(async () => {
    dir = await temp.make();
    running = await startServer(dir, EMBEDDED);
    store = makeStore(`${running.url}/api`);
  });
  afterAll(async () => {
    await running.server.close();
  });

  it("is the SQLite store under the data dir", () => {
    expect(running.server.components.graphStore.constructor.name).toBe("SqliteStore");
    expect(existsSync(path.join(dir, "data", "store.sqlite"))).toBe(true);
  });

  it("put, get, overwrite, delete; a missing item is null", async () => {
    await store.putItem(["profile"], "name", { first: "Ada" });
    expect(await store.getItem(["profile"], "name")).toMatchObject({
      namespace: ["profile"],
      key: "name",
      value: { first: "Ada" },
    });
    await store.putItem(["profile"], "name", { first: "Grace" });
    expect((await store.getItem(["profile"], "name"))?.value).toEqual({ first: "Grace" });
    await store.deleteItem(["profile"], "name");
    expect(await store.getItem(["profile"], "name")).toBeNull();
  });

  it("search with filters and pages, listNamespaces with prefix, suffix and depth", async () => {
    for (let i = 0; i < 12; i += 1) {
      await store.putItem(["kb", i < 6 ? "a" : "b", "facts"], `k${i}`, { i, tag: i % 4 === 0 ? "x" : "y" });
    }
    expect((await store.searchItems(["kb"], { limit: 100 })).items).toHaveLength(12);
    expect((await store.searchItems(["kb"], { filter: { tag: "x" } })).items.map((i) => i.key).sort()).toEqual([
      "k0",
      "k4",
      "k8",
    ]);
    expect((await store.searchItems(["kb"], { filter: { i: { $in: [1, 2, 11] } } })).items).toHaveLength(3);
    const keys: string[] = [];
    for (let offset = 0; offset < 12; offset += 5) {
      keys.push(...(await store.searchItems(["kb"], { limit: 5, offset })).items.map((i) => i.key));
    }
    expect(new Set(keys).size).toBe(12);
    expect((await store.listNamespaces({ prefix: ["kb"] })).namespaces).toEqual([
      ["kb", "a", "facts"],
      ["kb", "b", "facts"],
    ]);
    expect((await store.listNamespaces({ prefix: ["kb"], maxDepth: 2 })).namespaces).toEqual([
      ["kb", "a"],
      ["kb", "b"],
    ]);
    expect((await store.listNamespaces({ suffix: ["facts"], limit: 1, offset: 1 })).namespaces).toEqual([
      ["kb", "b", "facts"],
    ]);
  });

  it("answers malformed input 422", async () => {
    expect(await statusOf(store.putItem([""], "k", { v: 1 }))).toBe(422);
    expect(await statusOf(store.searchItems(["kb"], { filter: { i: { $where: "1" } } }))).toBe(422);
    expect(await statusOf(store.listNamespaces({ maxDepth: -1 }))).toBe(422);
  });
});

describe("the server's store", () => {
  it("keeps items across a restart of the embedded server", async () => {
    const dir = await temp.make();
    const first = await startServer(dir, EMBEDDED);
    try {
      await first.client.store.putItem(["durable"], "k", { kept: true });
    } finally {
      await first.server.close();
    }
    const second = await startServer(dir, EMBEDDED);
    try {
      expect((await second.client.store.getItem(["durable"], "k"))?.value).toEqual({ kept: true });
    } finally {
      await second.server.close();
    }
  });

  it("keeps each API key's user apart: same namespaces, different items; memory's namespaces out of reach", async () => {
    const dir = await temp.make();
    const yaml = `${EMBEDDED}server:
  api_keys:
    - { key: alice-key, user_id: alice }
    - { key: bob-key, user_id: bob.b }
`;
    const { server, url } = await startServer(dir, yaml);
    try {
      const [alice, bob] = ["alice-key", "bob-key"].map(
        (apiKey) => new Client115({ apiUrl: `${url}/api`, apiKey }).store,
      );
      await alice!.putItem(["notes"], "n", { owner: "alice" });
      await bob!.putItem(["notes"], "n", { owner: "bob" });
      expect((await alice!.getItem(["notes"], "n"))?.value).toEqual({ owner: "alice" });
      expect((await bob!.getItem(["notes"], "n"))?.value).toEqual({ owner: "bob" });
      expect((await bob!.searchItems([], { limit: 100 })).items.map((i) => i.value)).toEqual([{ owner: "bob" }]);
      await bob!.deleteItem(["notes"], "n");
      expect((await alice!.getItem(["notes"], "n"))?.value).toEqual({ owner: "alice" });
      // Items other parts keep in the same store outside the routes' prefix are not listed.
      await server.components.graphStore.put(["elsewhere", "alice"], "k", { hidden: true });
      expect((await alice!.listNamespaces()).namespaces).toEqual([["notes"]]);
      expect(await alice!.getItem(["elsewhere", "alice"], "k")).toBeNull();
    } finally {
      await server.close();
    }
  });

  it("with DATABASE_URL is PostgreSQL, shared by two instances", async () => {
    const databaseUrl = await requirePostgres();
    if (databaseUrl === null) return;
    const schema = uniqueName("store_api");
    const env = embeddedEnv({ DATABASE_URL: databaseUrl, DEERFLOW_POSTGRES_SCHEMA: schema });
    const a = await startServer(await temp.make(), EMBEDDED, { env });
    const b = await startServer(await temp.make(), EMBEDDED, { env });
    try {
      expect(a.server.components.graphStore.constructor.name).toBe("PostgresGraphStore");
      await a.client.store.putItem(["shared"], "k", { from: "a" });
      expect((await b.client.store.getItem(["shared"], "k"))?.value).toEqual({ from: "a" });
      expect((await b.client.store.searchItems(["shared"])).items.map((i) => i.value)).toEqual([{ from: "a" }]);
    } finally {
      await a.server.close();
      await b.server.close();
      await dropSchemas(databaseUrl, [schema]);
    }
  });
});
