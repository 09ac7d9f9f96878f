/**
 * `PostgresRunStore` on a real PostgreSQL: the conformance kit (each test on a
 * fresh schema, races also across two stores with separate pools, as two
 * server instances), then setup, configuration and failure behaviour.
 */
import pg from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RuntimeError } from "../../src/errors.js";
import { PostgresRunStore } from "../../src/runs/postgres/postgres-run-store.js";
import { runStoreConformance } from "../../src/testing/run-store-conformance.js";
import { jsonContains } from "../../src/runs/thread-search.js";
import { admission, expectRuntimeError } from "../../src/testing/run-store/context.js";
import { freshSchemaStores, useSchemaAdmin } from "../support/pg-schemas.js";
import { requirePostgres, uniqueName } from "../support/services.js";

const url = await requirePostgres();

if (url) {
  runStoreConformance({
    name: "PostgresRunStore",
    ...freshSchemaStores(url, "rs_kit", (schema) => new PostgresRunStore({ connectionString: url, schema })),
    describe,
    it,
    expect,
    beforeEach,
    afterEach,
  });
}

describe.skipIf(!url)("PostgresRunStore", () => {
  const databaseUrl = url!;
  const { admin, freshSchema } = useSchemaAdmin(databaseUrl, "rs_pg");

  it("setup creates the tables, indexes and a migrations table, and is idempotent", async () => {
    const schema = freshSchema();
    const store = new PostgresRunStore({ connectionString: databaseUrl, schema });
    try {
      await store.setup();
      await store.setup();
      const versions = await admin.query(`SELECT version FROM "${schema}".schema_migrations ORDER BY version`);
      expect(versions.rows).toEqual([{ version: 1 }]);
      const indexes = await admin.query<{ indexname: string; indexdef: string }>(
        `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = $1`,
        [schema],
      );
      const byName = new Map(indexes.rows.map((r) => [r.indexname, r.indexdef]));
      expect(byName.get("runs_one_running_per_thread")).toMatch(
        /UNIQUE INDEX .* \(thread_id\) WHERE \(status = 'running'::text\)/,
      );
      expect(byName.get("threads_metadata_idx")).toMatch(/USING gin \(metadata jsonb_path_ops\)/);
      expect([...byName.keys()]).toEqual(
        expect.arrayContaining([
          "runs_thread_seq_idx",
          "runs_active_idx",
          "runs_ended_at_idx",
          "threads_pkey",
          "runs_pkey",
        ]),
      );
    } finally {
      await store.close();
    }
  });

  it("setup called by 5 stores at once on one fresh schema migrates exactly once", async () => {
    const schema = freshSchema();
    const stores = Array.from({ length: 5 }, () => new PostgresRunStore({ connectionString: databaseUrl, schema }));
    try {
      await Promise.all(stores.map((s) => s.setup()));
      const versions = await admin.query(`SELECT version FROM "${schema}".schema_migrations`);
      expect(versions.rows).toEqual([{ version: 1 }]);
      await stores[0]!.admitRun(admission("t1"));
      expect((await stores[4]!.listRuns("t1")).length).toBe(1);
    } finally {
      await Promise.all(stores.map((s) => s.close()));
    }
  });

  it("the partial unique index refuses a second running run on one thread even if the code were wrong", async () => {
    const schema = freshSchema();
    const store = new PostgresRunStore({ connectionString: databaseUrl, schema });
    try {
      await store.setup();
      const { run: a } = await store.admitRun(admission("t1"));
      const { run: b } = await store.admitRun(admission("t1"));
      await admin.query(`UPDATE "${schema}".runs SET status = 'running' WHERE run_id = $1`, [a.runId]);
      await expect(
        admin.query(`UPDATE "${schema}".runs SET status = 'running' WHERE run_id = $1`, [b.runId]),
      ).rejects.toMatchObject({ code: "23505" });
    } finally {
      await store.close();
    }
  });

  it("rejects unsafe schema names and bad connection options with CONFIG_INVALID", () => {
    for (const schema of ['x"; DROP SCHEMA public; --', "Upper", "1abc", "", "a-b", "a".repeat(64)]) {
      let caught: unknown;
      try {
        new PostgresRunStore({ connectionString: databaseUrl, schema });
      } catch (err) {
        caught = err;
      }
      expect(RuntimeError.isInstance(caught) && caught.code, schema).toBe("CONFIG_INVALID");
    }
    expect(() => new PostgresRunStore({} as never)).toThrowError(/exactly one/);
    const pool = new pg.Pool({ connectionString: databaseUrl });
    expect(() => new PostgresRunStore({ pool, connectionString: databaseUrl } as never)).toThrowError(/exactly one/);
    void pool.end();
  });

  it("surfaces an unreachable server as STORE_UNAVAILABLE with the cause", async () => {
    const pool = new pg.Pool({
      connectionString: "postgres://postgres@127.0.0.1:1/test",
      connectionTimeoutMillis: 500,
    });
    pool.on("error", () => {});
    const store = new PostgresRunStore({ pool, schema: "unreachable", maxAttempts: 2 });
    try {
      const err = await expectRuntimeError(store.setup(), "STORE_UNAVAILABLE");
      expect(err.cause).toBeDefined();
      await expectRuntimeError(store.getThread("t1"), "STORE_UNAVAILABLE");
      await expectRuntimeError(store.admitRun(admission("t1")), "STORE_UNAVAILABLE");
    } finally {
      await store.close();
      await pool.end();
    }
  });

  it("names setup() when the tables are missing", async () => {
    const store = new PostgresRunStore({ connectionString: databaseUrl, schema: freshSchema() });
    try {
      const err = await expectRuntimeError(store.getThread("t1"), "STORE_UNAVAILABLE");
      expect(err.message).toMatch(/setup\(\)/);
    } finally {
      await store.close();
    }
  });

  it("recovers from connections killed by the server", async () => {
    const schema = freshSchema();
    const appName = uniqueName("rs_kill");
    const store = new PostgresRunStore({
      connectionString: databaseUrl,
      schema,
      poolConfig: { application_name: appName, max: 4 },
    });
    try {
      await store.setup();
      await Promise.all(Array.from({ length: 4 }, (_, i) => store.admitRun(admission(`t${i}`))));
      const killed = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1`,
        [appName],
      );
      expect(killed.rowCount).toBeGreaterThan(0);
      // Idle connections died under the pool; reads and transactions retry on fresh ones.
      for (let i = 0; i < 4; i++) expect((await store.listRuns(`t${i}`)).length).toBe(1);
      const { run } = await store.admitRun(admission("t0"));
      expect((await store.getRun(run.runId))?.status).toBe("pending");
    } finally {
      await store.close();
    }
  });

  it("retries a transaction whose connection the server killed before COMMIT, without duplicating writes", async () => {
    const schema = freshSchema();
    const appName = uniqueName("rs_kill");
    const warnings: Record<string, unknown>[] = [];
    const logger = {
      debug() {},
      info() {},
      error() {},
      warn: (obj: Record<string, unknown>) => void warnings.push(obj),
    };
    const store = new PostgresRunStore({
      connectionString: databaseUrl,
      schema,
      logger,
      poolConfig: { application_name: appName },
    });
    const locker = await admin.connect();
    try {
      await store.setup();
      await store.createThread({ threadId: "t1" });
      // Hold the thread row so the admission is parked inside its transaction.
      await locker.query("BEGIN");
      await locker.query(`SELECT 1 FROM "${schema}".threads WHERE thread_id = 't1' FOR UPDATE`);
      const admitted = store.admitRun(admission("t1", { ifNotExists: "reject" }));
      let pid: number | undefined;
      for (let i = 0; i < 500 && pid === undefined; i++) {
        const waiting = await admin.query<{ pid: number }>(
          `SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'`,
          [appName],
        );
        pid = waiting.rows[0]?.pid;
        if (pid === undefined) await new Promise((r) => setTimeout(r, 20));
      }
      expect(pid, "the admission never waited on the thread lock").toBeDefined();
      await admin.query("SELECT pg_terminate_backend($1)", [pid]);
      await locker.query("COMMIT");
      const { run } = await admitted;
      expect(run.status).toBe("pending");
      expect((await store.listRuns("t1")).map((r) => r.runId)).toEqual([run.runId]);
      expect(warnings.some((w) => w["operation"] === "admitRun")).toBe(true);
    } finally {
      await locker.query("ROLLBACK").catch(() => {});
      locker.release();
      await store.close();
    }
  });

  it("jsonContains agrees with PostgreSQL jsonb @> on random documents", async () => {
    let seed = 42;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const scalars = [1, 2, 1.5, "a", "b", "", true, false, null];
    const value = (depth: number): unknown => {
      const kind = depth > 2 ? 0 : random(3);
      if (kind === 0) return scalars[random(scalars.length)];
      if (kind === 1) return Array.from({ length: random(4) }, () => value(depth + 1));
      return object(depth + 1);
    };
    const object = (depth: number): Record<string, unknown> =>
      Object.fromEntries(Array.from({ length: random(4) }, () => [["k", "l", "m"][random(3)]!, value(depth)]));
    // Half the filters are taken from the document itself, so that many pairs match.
    const subset = (v: unknown): unknown => {
      if (Array.isArray(v)) return v.filter(() => random(2) === 0).map(subset);
      if (typeof v === "object" && v !== null)
        return Object.fromEntries(
          Object.entries(v)
            .filter(() => random(3) > 0)
            .map(([k, x]) => [k, subset(x)]),
        );
      return v;
    };
    const pairs = Array.from({ length: 2000 }, () => {
      const doc = object(0);
      return [doc, random(2) === 0 ? subset(doc) : object(0)] as const;
    });
    const { rows } = await admin.query<{ contains: boolean }>(
      "SELECT a::jsonb @> b::jsonb AS contains FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS u(a, b, i) ORDER BY i",
      [pairs.map(([a]) => JSON.stringify(a)), pairs.map(([, b]) => JSON.stringify(b))],
    );
    const mismatches = pairs.filter(([a, b], i) => jsonContains(a, b) !== rows[i]!.contains);
    expect(mismatches.slice(0, 3)).toEqual([]);
    expect(rows.filter((r) => r.contains).length).toBeGreaterThan(500);
  });

  it("leaves a caller's pool open on close and fails later calls with CLOSED", async () => {
    const schema = freshSchema();
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    const store = new PostgresRunStore({ pool, schema });
    try {
      await store.setup();
      await store.createThread({ threadId: "t1" });
      await store.close();
      await store.close();
      await expectRuntimeError(store.getThread("t1"), "CLOSED");
      await expectRuntimeError(store.admitRun(admission("t1")), "CLOSED");
      expect((await pool.query(`SELECT count(*)::int AS n FROM "${schema}".threads`)).rows[0]).toEqual({ n: 1 });
    } finally {
      await pool.end();
    }
  });

  it("keeps creation order from the database sequence when the clock goes backwards", async () => {
    const schema = freshSchema();
    let now = Date.parse("2026-01-02T00:00:00.000Z");
    const store = new PostgresRunStore({ connectionString: databaseUrl, schema, now: () => new Date((now -= 1000)) });
    try {
      await store.setup();
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await store.admitRun(admission("t1"))).run.runId);
      expect((await store.listRuns("t1")).map((r) => r.runId)).toEqual([...ids].reverse());
      expect((await store.listActiveRuns()).map((r) => r.runId)).toEqual(ids);
      expect(await store.tryStartRun(ids[4]!)).toMatchObject({ outcome: "blocked", blockedBy: ids[0] });
    } finally {
      await store.close();
    }
  });

  it("stores timestamps from the injected clock with millisecond precision", async () => {
    const schema = freshSchema();
    const store = new PostgresRunStore({
      connectionString: databaseUrl,
      schema,
      now: () => new Date("2026-03-04T05:06:07.089Z"),
    });
    try {
      await store.setup();
      const { run } = await store.admitRun(admission("t1"));
      expect(run.createdAt).toBe("2026-03-04T05:06:07.089Z");
      expect((await store.getThread("t1"))?.updatedAt).toBe("2026-03-04T05:06:07.089Z");
    } finally {
      await store.close();
    }
  });
});
