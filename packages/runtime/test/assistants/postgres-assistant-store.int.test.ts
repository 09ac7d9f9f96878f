/**
 * `PostgresAssistantStore` on a real PostgreSQL: the conformance kit (each test
 * on a fresh schema, races also across two stores with separate pools, as two
 * server instances), then setup next to the run store and concurrent setup.
 */
import pg from "pg";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { PostgresAssistantStore } from "../../src/assistants/postgres-assistant-store.js";
import { PostgresRunStore } from "../../src/runs/postgres/postgres-run-store.js";
import { assistantStoreConformance } from "../../src/testing/assistant-store-conformance.js";
import { expectRuntimeError } from "../../src/testing/run-store/context.js";
import { requirePostgres, uniqueName } from "../support/services.js";

const url = await requirePostgres();

async function dropSchema(databaseUrl: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

if (url) {
  assistantStoreConformance({
    name: "PostgresAssistantStore",
    makeStore: async () => {
      const schema = uniqueName("as_kit");
      const store = new PostgresAssistantStore({ connectionString: url, schema });
      await store.setup();
      return { store, cleanup: () => dropSchema(url, schema) };
    },
    makeInstances: async (count) => {
      const schema = uniqueName("as_kit");
      const stores = Array.from({ length: count }, () => new PostgresAssistantStore({ connectionString: url, schema }));
      await Promise.all(stores.map((s) => s.setup()));
      return { stores, cleanup: () => dropSchema(url, schema) };
    },
    describe,
    it,
    expect,
    beforeEach,
    afterEach,
  });
}

describe.skipIf(!url)("PostgresAssistantStore", () => {
  const databaseUrl = url!;
  const schemas: string[] = [];
  let admin: pg.Pool;

  beforeAll(() => {
    admin = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  });
  afterAll(async () => {
    for (const schema of schemas) await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  });

  it("shares the run store's pool and schema; concurrent setup of two instances migrates once", async () => {
    const schema = uniqueName("as_pg");
    schemas.push(schema);
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
    try {
      const runs = new PostgresRunStore({ pool, schema });
      const first = new PostgresAssistantStore({ pool, schema });
      const second = new PostgresAssistantStore({ connectionString: databaseUrl, schema });
      await Promise.all([runs.setup(), first.setup(), second.setup(), first.setup()]);
      const versions = await admin.query(`SELECT version FROM "${schema}".assistant_schema_migrations`);
      expect(versions.rows).toEqual([{ version: 1 }]);
      const created = await first.create({ assistantId: "a1", graphId: "agent", owner: "alice" });
      expect(await second.get("a1", { owner: "alice" })).toEqual(created);
      await runs.createThread({ threadId: "t1" });
      await first.close();
      await second.close();
      await runs.close();
      // A caller's pool stays open after the stores close.
      expect((await pool.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
      await expectRuntimeError(first.get("a1", { owner: "alice" }), "CLOSED");
    } finally {
      await pool.end();
    }
  });

  it("rejects an unsafe schema name and bad connection options", () => {
    expect(() => new PostgresAssistantStore({ connectionString: databaseUrl, schema: 'x"; DROP' })).toThrow(
      /schema must match/,
    );
    expect(() => new PostgresAssistantStore({} as never)).toThrow(/exactly one of/);
  });
});
