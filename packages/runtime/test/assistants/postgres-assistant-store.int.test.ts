/**
 * `PostgresAssistantStore` on a real PostgreSQL: the conformance kit (each test
 * on a fresh schema, races also across two stores with separate pools, as two
 * server instances), then setup next to the run store and concurrent setup.
 */
import pg from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PostgresAssistantStore } from "../../src/assistants/postgres-assistant-store.js";
import { PostgresRunStore } from "../../src/runs/postgres/postgres-run-store.js";
import { assistantStoreConformance } from "../../src/testing/assistant-store-conformance.js";
import { expectRuntimeError } from "../../src/testing/run-store/context.js";
import { freshSchemaStores, useSchemaAdmin } from "../support/pg-schemas.js";
import { requirePostgres } from "../support/services.js";

const url = await requirePostgres();

if (url) {
  assistantStoreConformance({
    name: "PostgresAssistantStore",
    ...freshSchemaStores(url, "as_kit", (schema) => new PostgresAssistantStore({ connectionString: url, schema })),
    describe,
    it,
    expect,
    beforeEach,
    afterEach,
  });
}

describe.skipIf(!url)("PostgresAssistantStore", () => {
  const databaseUrl = url!;
  const { admin, freshSchema } = useSchemaAdmin(databaseUrl, "as_pg");

  it("shares the run store's pool and schema; concurrent setup of two instances migrates once", async () => {
    const schema = freshSchema();
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
