/**
 * `PostgresAccountStore` on a real PostgreSQL: the conformance kit (each test
 * on a fresh schema; races also across two stores with separate pools, as two
 * server instances), then sharing the run store's schema and pool, concurrent
 * setup, and configuration errors.
 */
import pg from "pg";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { PostgresAccountStore } from "../../src/accounts/postgres/postgres-account-store.js";
import { PostgresRunStore } from "../../src/runs/postgres/postgres-run-store.js";
import { accountStoreConformance } from "../../src/testing/account-store-conformance.js";
import { expectRuntimeError, newSession, newUser } from "../../src/testing/account-store/context.js";
import { admission } from "../../src/testing/run-store/context.js";
import { freshSchemaStores, useSchemaAdmin } from "../support/pg-schemas.js";
import { requirePostgres } from "../support/services.js";

const url = await requirePostgres();

/** One pool for the kit's single stores (instead of a pool per test). */
let shared: pg.Pool | undefined;
function sharedPool(databaseUrl: string): pg.Pool {
  shared ??= new pg.Pool({ connectionString: databaseUrl, max: 6 });
  return shared;
}

afterAll(async () => {
  await shared?.end();
});

if (url) {
  accountStoreConformance({
    name: "PostgresAccountStore",
    ...freshSchemaStores(
      url,
      "acct_kit",
      (schema) => new PostgresAccountStore({ pool: sharedPool(url), schema }),
      (schema) => new PostgresAccountStore({ connectionString: url, schema }),
    ),
    describe,
    it,
    expect,
    beforeEach,
    afterEach,
  });
}

describe.skipIf(!url)("PostgresAccountStore", () => {
  const databaseUrl = url!;
  const { admin, freshSchema } = useSchemaAdmin(databaseUrl, "acct_pg");

  it("shares the run store's pool and schema: own tables and migrations table, unique indexes on lower(email) and the OIDC identity", async () => {
    const schema = freshSchema();
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
    const runs = new PostgresRunStore({ pool, schema });
    const accounts = new PostgresAccountStore({ pool, schema });
    try {
      // Both set up at once: they take the same setup lock, so CREATE SCHEMA never races.
      await Promise.all([runs.setup(), accounts.setup(), accounts.setup()]);
      const user = await accounts.createUser(newUser());
      await runs.admitRun(admission("thread-1"));
      const versions = await admin.query(`SELECT version FROM "${schema}".account_schema_migrations`);
      expect(versions.rows).toEqual([{ version: 1 }]);
      const runVersions = await admin.query(`SELECT version FROM "${schema}".schema_migrations`);
      expect(runVersions.rows).toEqual([{ version: 1 }]);
      const indexes = await admin.query<{ indexname: string; indexdef: string }>(
        "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = $1 AND tablename = 'users'",
        [schema],
      );
      const byName = new Map(indexes.rows.map((r) => [r.indexname, r.indexdef]));
      expect(byName.get("users_email_key")).toMatch(/UNIQUE INDEX .* \(lower\(email\)\)/);
      expect(byName.get("users_oauth_identity")).toMatch(/UNIQUE INDEX .* \(oauth_provider, oauth_subject\)/);
      // The index, not only the store's normalisation, refuses a case variant written behind its back.
      await expect(
        admin.query(
          `INSERT INTO "${schema}".users (user_id, email, system_role, created_at, updated_at) VALUES ('x', $1, 'user', now(), now())`,
          [user.email.toUpperCase()],
        ),
      ).rejects.toMatchObject({ code: "23505" });
    } finally {
      await accounts.close();
      await runs.close();
      await pool.end();
    }
  });

  it("five instances setting up at once migrate once; users and sessions are shared between them", async () => {
    const schema = freshSchema();
    const stores = Array.from({ length: 5 }, () => new PostgresAccountStore({ connectionString: databaseUrl, schema }));
    try {
      await Promise.all(stores.map((s) => s.setup()));
      const versions = await admin.query(`SELECT version FROM "${schema}".account_schema_migrations`);
      expect(versions.rows).toEqual([{ version: 1 }]);
      const user = await stores[0]!.createFirstAdmin(newUser({ systemRole: "admin" }));
      const session = newSession(user.userId);
      await stores[1]!.createSession(session);
      expect(await stores[2]!.getSession(session.sessionId)).toEqual(session);
      expect(await stores[3]!.getUserByEmail(user.email.toUpperCase())).toEqual(user);
      await stores[4]!.updateUser(user.userId, { bumpTokenVersion: true });
      expect((await stores[0]!.getUser(user.userId))?.tokenVersion).toBe(1);
    } finally {
      for (const store of stores) await store.close();
    }
  });

  it("a caller's pool stays open after close; calls after close fail with CLOSED", async () => {
    const schema = freshSchema();
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    const store = new PostgresAccountStore({ pool, schema });
    try {
      await store.setup();
      await store.close();
      await store.close();
      await expectRuntimeError(store.countUsers(), "CLOSED");
      expect((await pool.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
    } finally {
      await pool.end();
    }
  });

  it("before setup, calls fail with STORE_UNAVAILABLE naming the store and the fix", async () => {
    const store = new PostgresAccountStore({ connectionString: databaseUrl, schema: freshSchema() });
    try {
      const err = await expectRuntimeError(store.countUsers(), "STORE_UNAVAILABLE");
      expect(err.message).toMatch(/^PostgresAccountStore\.countUsers failed: .*did you call setup\(\)\?/);
    } finally {
      await store.close();
    }
  });

  it("refuses bad options with CONFIG_INVALID", () => {
    const bad: unknown[] = [
      { connectionString: databaseUrl, schema: "Bad-Schema" },
      { connectionString: databaseUrl, schema: 'x"; DROP SCHEMA public; --' },
      { connectionString: "" },
      {},
      { connectionString: databaseUrl, maxAttempts: 0 },
    ];
    for (const options of bad) {
      expect(() => new PostgresAccountStore(options as never)).toThrow(
        expect.objectContaining({ code: "CONFIG_INVALID", message: expect.stringMatching(/^PostgresAccountStore /) }),
      );
    }
  });
});
