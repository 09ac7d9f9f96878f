/** The account store beside a PostgreSQL run store: the same pool and schema, shared by two instances. */
import pg from "pg";
import { PostgresAccountStore } from "@deerflow/runtime/postgres";
import { silentLogger } from "@deerflow/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccountStore } from "../../src/server/account-store.js";
import { dropSchemas, requirePostgres, uniqueName } from "../support/services.js";

let databaseUrl: string | null = null;
const schemas: string[] = [];

beforeAll(async () => {
  databaseUrl = await requirePostgres();
});

afterAll(async () => {
  if (databaseUrl !== null && schemas.length > 0) await dropSchemas(databaseUrl, schemas);
});

describe("createAccountStore on PostgreSQL", () => {
  it("uses the run store's pool and schema, leaves the pool open at close; instances share users", async (ctx) => {
    if (databaseUrl === null) return ctx.skip();
    const schema = uniqueName("acct_srv");
    schemas.push(schema);
    const runStore = { type: "postgres" as const, databaseUrl };
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    const common = { runStore, postgresSchema: schema, dataDir: "/nonexistent", logger: silentLogger };
    const first = await createAccountStore({ ...common, postgresPool: pool });
    // A second instance without the pool gets its own from the run store's URL.
    const second = await createAccountStore(common);
    try {
      expect(first).toBeInstanceOf(PostgresAccountStore);
      expect((first as PostgresAccountStore).schema).toBe(schema);
      const admin = await first.createFirstAdmin({ email: "root@example.com", passwordHash: "h", systemRole: "admin" });
      expect(await second.getUserByEmail("ROOT@example.com")).toEqual(admin);
      const tables = await pool.query<{ tablename: string }>(
        "SELECT tablename FROM pg_tables WHERE schemaname = $1 ORDER BY tablename",
        [schema],
      );
      expect(tables.rows.map((r) => r.tablename)).toEqual([
        "account_schema_migrations",
        "login_failures",
        "user_api_keys",
        "user_sessions",
        "users",
      ]);
    } finally {
      await first.close();
      await second.close();
    }
    expect((await pool.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
    await pool.end();
  });

  it("an unreachable database stops the start with SERVER_COMPONENT_FAILED and a masked URL", async () => {
    const url = "postgres://deer:secret@127.0.0.1:1/none";
    await expect(
      createAccountStore({
        runStore: { type: "postgres", databaseUrl: url },
        postgresSchema: "deerflow",
        dataDir: "/nonexistent",
        logger: silentLogger,
      }),
    ).rejects.toMatchObject({
      code: "SERVER_COMPONENT_FAILED",
      message: expect.stringMatching(/^PostgreSQL account store \(postgres:\/\/deer:\*\*\*\*@127\.0\.0\.1:1\/none\)/),
    });
  });
});
