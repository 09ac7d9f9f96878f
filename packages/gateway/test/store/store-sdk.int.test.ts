/**
 * The official SDK's `client.store` (1.15 and 2.0.0) against a listening
 * gateway with the store routes on an `InMemoryStore`, two API keys of two
 * users: put, get, search (filters, pages), delete, listNamespaces, missing
 * items, the errors the SDK surfaces, and isolation between the users.
 */
import type { AddressInfo } from "node:net";
import { InMemoryStore } from "@langchain/langgraph-checkpoint";
import { Client as Client115 } from "@langchain/langgraph-sdk";
import type { FastifyInstance } from "fastify";
import { Client as Client2 } from "sdk2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGateway } from "../../src/index.js";

type StoreClient = Client115["store"];
const SDKS: ReadonlyArray<readonly [string, (apiUrl: string, apiKey: string) => StoreClient]> = [
  ["@langchain/langgraph-sdk 1.15", (apiUrl, apiKey) => new Client115({ apiUrl, apiKey }).store],
  [
    "@langchain/langgraph-sdk 2.0.0",
    (apiUrl, apiKey) => new Client2({ apiUrl, apiKey }).store as unknown as StoreClient,
  ],
];

async function statusOf(promise: Promise<unknown>): Promise<number | undefined> {
  try {
    await promise;
    return undefined;
  } catch (err) {
    return (err as { status?: number }).status;
  }
}

describe.each(SDKS)("store API with %s", (_name, makeStore) => {
  let app: FastifyInstance;
  let alice: StoreClient;
  let bob: StoreClient;

  beforeAll(async () => {
    app = await createGateway({
      store: new InMemoryStore(),
      auth: {
        apiKeys: [
          { key: "alice-key", userId: "alice" },
          { key: "bob-key", userId: "bob" },
        ],
      },
    });
    await app.listen({ port: 0, host: "127.0.0.1" });
    const apiUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api`;
    alice = makeStore(apiUrl, "alice-key");
    bob = makeStore(apiUrl, "bob-key");
  });
  afterAll(async () => {
    await app.close();
  });

  it("putItem, getItem, deleteItem; a missing item is null", async () => {
    await alice.putItem(["prefs"], "theme", { color: "dark", size: 3 });
    const item = await alice.getItem(["prefs"], "theme");
    expect(item).toMatchObject({ namespace: ["prefs"], key: "theme", value: { color: "dark", size: 3 } });
    expect(Number.isNaN(Date.parse(String(item?.createdAt)))).toBe(false);
    expect(Number.isNaN(Date.parse(String(item?.updatedAt)))).toBe(false);
    await alice.putItem(["prefs"], "theme", { color: "light" }, { ttl: null, index: false });
    expect((await alice.getItem(["prefs"], "theme"))?.value).toEqual({ color: "light" });
    await alice.deleteItem(["prefs"], "theme");
    expect(await alice.getItem(["prefs"], "theme")).toBeNull();
    expect(await alice.getItem(["never", "there"], "nothing")).toBeNull();
    await alice.deleteItem(["never"], "nothing");
  });

  it("searchItems: prefix on whole labels, filters, pagination", async () => {
    for (let i = 0; i < 15; i += 1) {
      await alice.putItem(["facts", i < 10 ? "work" : "home"], `f${i}`, {
        rank: i,
        kind: i % 3 === 0 ? "goal" : "pref",
      });
    }
    await alice.putItem(["factsx"], "other", { rank: 99 });
    const all = await alice.searchItems(["facts"], { limit: 100 });
    expect(all.items).toHaveLength(15);
    expect(all.items.every((i) => i.namespace[0] === "facts")).toBe(true);
    expect((await alice.searchItems(["facts", "home"])).items.map((i) => i.key).sort()).toEqual([
      "f10",
      "f11",
      "f12",
      "f13",
      "f14",
    ]);
    const goals = await alice.searchItems(["facts"], { filter: { kind: "goal" }, limit: 100 });
    expect(goals.items.map((i) => i.value["rank"]).sort((a, b) => a - b)).toEqual([0, 3, 6, 9, 12]);
    const ranged = await alice.searchItems(["facts"], { filter: { rank: { $gte: 5, $lt: 8 } } });
    expect(ranged.items.map((i) => i.key).sort()).toEqual(["f5", "f6", "f7"]);
    const pages: string[] = [];
    for (let offset = 0; offset < 15; offset += 4) {
      pages.push(...(await alice.searchItems(["facts"], { limit: 4, offset })).items.map((i) => i.key));
    }
    expect(new Set(pages).size).toBe(15);
    expect((await alice.searchItems(["facts"])).items).toHaveLength(10);
    const first = all.items[0];
    expect(typeof first?.createdAt).toBe("string");
  });

  it("listNamespaces: prefix, suffix, maxDepth, pagination", async () => {
    await alice.putItem(["ns", "a", "memory"], "k", { v: 1 });
    await alice.putItem(["ns", "b", "memory"], "k", { v: 1 });
    await alice.putItem(["ns", "b", "prefs"], "k", { v: 1 });
    expect((await alice.listNamespaces({ prefix: ["ns"] })).namespaces).toEqual([
      ["ns", "a", "memory"],
      ["ns", "b", "memory"],
      ["ns", "b", "prefs"],
    ]);
    expect((await alice.listNamespaces({ prefix: ["ns"], suffix: ["memory"] })).namespaces).toEqual([
      ["ns", "a", "memory"],
      ["ns", "b", "memory"],
    ]);
    expect((await alice.listNamespaces({ prefix: ["ns"], maxDepth: 2 })).namespaces).toEqual([
      ["ns", "a"],
      ["ns", "b"],
    ]);
    expect((await alice.listNamespaces({ prefix: ["ns"], limit: 1, offset: 2 })).namespaces).toEqual([
      ["ns", "b", "prefs"],
    ]);
  });

  it("two users with the same namespaces never see each other's items", async () => {
    await alice.putItem(["shared-name"], "k", { owner: "alice" });
    await bob.putItem(["shared-name"], "k", { owner: "bob" });
    expect((await alice.getItem(["shared-name"], "k"))?.value).toEqual({ owner: "alice" });
    expect((await bob.getItem(["shared-name"], "k"))?.value).toEqual({ owner: "bob" });
    expect((await bob.searchItems([], { limit: 100 })).items.map((i) => i.value)).toEqual([{ owner: "bob" }]);
    expect((await bob.listNamespaces()).namespaces).toEqual([["shared-name"]]);
    await bob.deleteItem(["shared-name"], "k");
    expect((await alice.getItem(["shared-name"], "k"))?.value).toEqual({ owner: "alice" });
  });

  it("errors: 422 for malformed input, dots refused by the SDK before sending, 401 for a bad key", async () => {
    expect(await statusOf(alice.putItem([""], "k", { v: 1 }))).toBe(422);
    expect(await statusOf(alice.putItem(["a:b"], "k", { v: 1 }))).toBe(422);
    expect(await statusOf(alice.searchItems(["x"], { filter: { a: { $regex: "." } } }))).toBe(422);
    expect(await statusOf(alice.searchItems(["x"], { limit: 5000 }))).toBe(422);
    expect(await statusOf(alice.listNamespaces({ maxDepth: 0 }))).toBe(422);
    await expect(alice.putItem(["a.b"], "k", { v: 1 })).rejects.toThrow(/periods/);
    const port = (app.server.address() as AddressInfo).port;
    const stranger = makeStore(`http://127.0.0.1:${port}/api`, "wrong-key");
    expect(await statusOf(stranger.getItem(["prefs"], "k"))).toBe(401);
  });
});
