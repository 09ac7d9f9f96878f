/**
 * The long-term store kit on `SqliteStore` (a temp file per test) and on
 * LangGraph's `InMemoryStore` (the reference the kit is written against), then
 * what is SQLite's own: two connections to one file, durability across a
 * reopen, and `createGraphStore`.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { InMemoryStore } from "@langchain/langgraph-checkpoint";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RuntimeError } from "../errors.js";
import { baseStoreConformance } from "../testing/base-store-conformance.js";
import { createGraphStore } from "./create-graph-store.js";
import { SqliteStore } from "./sqlite-store.js";

async function tempDir(): Promise<string> {
  return mkdtemp(path.join(tmpdir(), "sqlite-store-"));
}

baseStoreConformance({
  name: "SqliteStore",
  makeStore: async () => {
    const dir = await tempDir();
    const store = new SqliteStore({ path: path.join(dir, "store.sqlite") });
    return {
      store,
      cleanup: async () => {
        store.close();
        await rm(dir, { recursive: true, force: true });
      },
    };
  },
  describe,
  it,
  expect,
  beforeEach,
  afterEach,
});

baseStoreConformance({
  name: "InMemoryStore",
  makeStore: async () => ({ store: new InMemoryStore() }),
  describe,
  it,
  expect,
  beforeEach,
  afterEach,
});

describe("SqliteStore on a file", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await tempDir();
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("keeps items across a reopen and shares them between two connections", async () => {
    const file = path.join(dir, "nested", "store.sqlite");
    const a = new SqliteStore({ path: file });
    const b = new SqliteStore({ path: file });
    await Promise.all(Array.from({ length: 100 }, (_, i) => (i % 2 ? a : b).put(["ns"], `k${i}`, { i })));
    expect(await b.search(["ns"], { limit: 1000 })).toHaveLength(100);
    a.close();
    b.close();
    const reopened = new SqliteStore({ path: file });
    expect((await reopened.get(["ns"], "k7"))?.value).toEqual({ i: 7 });
    reopened.close();
  });

  it("refuses a path that is not a SQLite database, naming it", async () => {
    expect(() => new SqliteStore({ path: dir })).toThrow(/Cannot open store file/);
    expect(() => new SqliteStore({ path: "" })).toThrow(RuntimeError);
  });

  it("createGraphStore builds memory and file stores, and refuses an unknown type", async () => {
    const memory = await createGraphStore({ type: "memory" });
    expect(memory.store).toBeInstanceOf(InMemoryStore);
    const file = await createGraphStore({ type: "file", path: path.join(dir, "g.sqlite") });
    await file.store.put(["a"], "k", { v: 1 });
    expect((await file.store.get(["a"], "k"))?.value).toEqual({ v: 1 });
    await file.close();
    await file.close();
    await expect(createGraphStore({ type: "nope" } as never)).rejects.toThrow(/Unknown store type "nope"/);
    await expect(createGraphStore({ type: "file", path: " " })).rejects.toThrow(/non-empty "path"/);
  });
});
