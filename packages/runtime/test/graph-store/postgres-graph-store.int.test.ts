/**
 * `PostgresGraphStore` on a real PostgreSQL: the long-term store kit (one
 * schema for the file, each test under its own root label), then replicas
 * setting up together and `createGraphStore({ type: "postgres" })`.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { createGraphStore } from "../../src/graph-store/create-graph-store.js";
import { PostgresGraphStore } from "../../src/graph-store/postgres-graph-store.js";
import { baseStoreConformance } from "../../src/testing/base-store-conformance.js";
import { dropSchema } from "../support/pg-schemas.js";
import { requirePostgres, uniqueName } from "../support/services.js";

const url = await requirePostgres();
const schema = uniqueName("gs_kit");

afterAll(async () => {
  if (url) await dropSchema(url, schema);
});

if (url) {
  baseStoreConformance({
    name: "PostgresGraphStore",
    makeStore: async () => {
      const store = new PostgresGraphStore({ connectionString: url, schema });
      await store.setup();
      return { store, cleanup: () => store.stop() };
    },
    describe,
    it,
    expect,
    beforeEach,
    afterEach,
  });
}

describe.skipIf(!url)("PostgresGraphStore", () => {
  it("replicas setting up at once all succeed and share items", async () => {
    const own = uniqueName("gs_setup");
    const stores = Array.from({ length: 3 }, () => new PostgresGraphStore({ connectionString: url!, schema: own }));
    try {
      await Promise.all(stores.map((s) => s.setup()));
      await stores[0]!.put(["shared"], "k", { v: 1 });
      expect((await stores[2]!.get(["shared"], "k"))?.value).toEqual({ v: 1 });
    } finally {
      for (const s of stores) await s.stop();
      await dropSchema(url!, own);
    }
  });

  it("createGraphStore builds it, and names an unreachable server", async () => {
    const handle = await createGraphStore({ type: "postgres", connectionString: url!, schema });
    await handle.store.put(["factory"], "k", { v: 2 });
    expect((await handle.store.get(["factory"], "k"))?.value).toEqual({ v: 2 });
    await handle.close();
    await expect(
      createGraphStore({ type: "postgres", connectionString: "postgres://127.0.0.1:1/none" }),
    ).rejects.toThrow(/Cannot set up the PostgreSQL store/);
    await expect(createGraphStore({ type: "postgres", connectionString: url!, schema: "bad-name" })).rejects.toThrow(
      /plain SQL identifier/,
    );
  });
});
