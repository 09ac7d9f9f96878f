/**
 * `StoreAgentStore` on the server's real graph stores: the agent-store kit on
 * `SqliteStore` (the default `store.sqlite`) and `PostgresGraphStore` (a
 * schema of its own), then two instances on one PostgreSQL schema — what two
 * server replicas with `agent_storage.backend: store` share.
 */
import path from "node:path";
import { StoreAgentStore, agentConfigOf } from "@deerflow/agent";
import { agentStoreConformance } from "@deerflow/agent/testing";
import { PostgresGraphStore } from "@deerflow/runtime/postgres";
import { SqliteStore } from "@deerflow/runtime/sqlite";
import { afterAll, describe, expect, it } from "vitest";
import { dropSchemas, requirePostgres, uniqueName } from "../support/services.js";
import { tempDirs } from "../support/temp-dir.js";

const temp = tempDirs();
const url = await requirePostgres();
const schema = uniqueName("agents_kit");

afterAll(async () => {
  await temp.cleanup();
  if (url) await dropSchemas(url, [schema]);
});

agentStoreConformance({
  name: "StoreAgentStore on SqliteStore",
  makeStore: async () => {
    const store = new SqliteStore({ path: path.join(await temp.make(), "store.sqlite") });
    return { store: new StoreAgentStore({ store }), cleanup: async () => store.close() };
  },
  describe,
  it,
  expect,
});

if (url) {
  agentStoreConformance({
    name: "StoreAgentStore on PostgresGraphStore",
    makeStore: async () => {
      const store = new PostgresGraphStore({ connectionString: url, schema });
      await store.setup();
      return { store: new StoreAgentStore({ store }), cleanup: async () => store.stop() };
    },
    describe,
    it,
    expect,
  });
}

describe.skipIf(!url)("two instances on one PostgreSQL schema", () => {
  it("see each other's agents, SOUL.md changes and deletions", async () => {
    const stores = [0, 1].map(() => new PostgresGraphStore({ connectionString: url!, schema }));
    try {
      await Promise.all(stores.map((s) => s.setup()));
      const [a, b] = stores.map((store) => new StoreAgentStore({ store })) as [StoreAgentStore, StoreAgentStore];
      const user = uniqueName("u");
      await a.create(user, agentConfigOf("shared", { description: "from a" }), "soul a");
      expect((await b.get(user, "shared"))?.description).toBe("from a");
      expect(await b.exists(user, "shared")).toBe(true);
      await b.update(user, "shared", { soul: "soul b" });
      expect(await a.getSoul(user, "shared")).toBe("soul b");
      await a.delete(user, "shared");
      expect(await b.get(user, "shared")).toBeUndefined();
    } finally {
      for (const s of stores) await s.stop();
    }
  });
});
