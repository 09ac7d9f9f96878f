/**
 * `pnpm bench` (second part): long-term store search latency against a raw SQL
 * query of the same rows, measured in the same run.
 *
 * - `PostgresGraphStore.search(["bench", user], { filter: { kind: "fact" }, limit: 100 })` over 10 users ×
 *   1,000 items, against one `pg` query returning the same 100 rows (same table, same ordering, same
 *   `jsonb @>` condition), on a pool of its own.
 * - `SqliteStore.search` over the same data in a temp file, against one better-sqlite3 statement
 *   returning the same rows.
 *
 * Env: DATABASE_URL (PostgreSQL figures skipped when unreachable), BENCH_STORE_SEARCHES (default 300).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import type { BaseStore } from "@langchain/langgraph-checkpoint";
import Database from "better-sqlite3";
import pg from "pg";
import { PostgresGraphStore } from "../src/graph-store/postgres-graph-store.js";
import { SqliteStore } from "../src/graph-store/sqlite-store.js";
import { appendRows, printFigure, type Figure } from "./report.js";

const SEARCHES = Number(process.env["BENCH_STORE_SEARCHES"] ?? 300);
const WARMUP = 30;
const USERS = 10;
const ITEMS_PER_USER = 1_000;
const LIMIT = 100;
const DATABASE_URL = process.env["DATABASE_URL"] ?? "postgres://postgres@127.0.0.1:5432/test";
const SCHEMA = `bench_store_${process.pid}`;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

async function timeEach(run: () => Promise<number>, expected: number): Promise<number> {
  for (let i = 0; i < WARMUP; i += 1) await run();
  const times: number[] = [];
  for (let i = 0; i < SEARCHES; i += 1) {
    const start = performance.now();
    const rows = await run();
    times.push(performance.now() - start);
    if (rows !== expected) throw new Error(`benchmark query returned ${rows} rows, expected ${expected}`);
  }
  return median(times);
}

async function seed(store: BaseStore): Promise<void> {
  for (let u = 0; u < USERS; u += 1) {
    const ops = Array.from({ length: ITEMS_PER_USER }, (_, i) => ({
      namespace: ["bench", `user${u}`, i % 2 ? "facts" : "summaries"],
      key: `item${i}`,
      value: { kind: i % 2 ? "fact" : "summary", confidence: (i % 10) / 10, content: `fact ${i} about user ${u}` },
    }));
    await store.batch(ops);
  }
}

const ms = (v: number) => `${v.toFixed(3)} ms`;
const figures: Figure[] = [];
const what = `search of one user's ${ITEMS_PER_USER.toLocaleString("en-US")} items among ${(USERS * ITEMS_PER_USER).toLocaleString("en-US")} (prefix + filter kind=fact, limit ${LIMIT}), median of ${SEARCHES}`;

const dir = await mkdtemp(path.join(tmpdir(), "bench-store-"));
try {
  const sqlite = new SqliteStore({ path: path.join(dir, "store.sqlite") });
  await seed(sqlite);
  const raw = new Database(path.join(dir, "store.sqlite"), { readonly: true });
  const statement = raw.prepare(
    `SELECT namespace, key, value, created_at, updated_at FROM store_items
     WHERE (namespace = ? OR (namespace >= ? AND namespace < ?)) AND json_extract(value, '$.kind') = 'fact'
     ORDER BY updated_at DESC, namespace, key LIMIT ${LIMIT}`,
  );
  const viaStore = await timeEach(
    async () => (await sqlite.search(["bench", "user3"], { filter: { kind: "fact" }, limit: LIMIT })).length,
    LIMIT,
  );
  const viaRaw = await timeEach(
    async () =>
      statement
        .all("bench.user3", "bench.user3.", "bench.user3/")
        .map((r) => JSON.parse((r as { value: string }).value)).length,
    LIMIT,
  );
  figures.push({
    benchmark: `runtime: SqliteStore ${what}`,
    figure: ms(viaStore),
    baseline: `${ms(viaRaw)} (one better-sqlite3 statement returning the same rows, json_extract filter, same run)`,
    ratio: viaStore / viaRaw,
  });
  raw.close();
  sqlite.close();
} finally {
  await rm(dir, { recursive: true, force: true });
}

const probe = new pg.Client({ connectionString: DATABASE_URL });
let hasPostgres = true;
try {
  await probe.connect();
  await probe.end();
} catch {
  hasPostgres = false;
  process.stdout.write(`PostgreSQL unreachable at ${DATABASE_URL}: PostgreSQL figures skipped\n`);
}
if (hasPostgres) {
  const store = new PostgresGraphStore({ connectionString: DATABASE_URL, schema: SCHEMA });
  const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 4 });
  try {
    await store.setup();
    await seed(store);
    await pool.query(`ANALYZE "${SCHEMA}".store`);
    const viaStore = await timeEach(
      async () => (await store.search(["bench", "user3"], { filter: { kind: "fact" }, limit: LIMIT })).length,
      LIMIT,
    );
    const sql = `SELECT namespace_path, key, value, created_at, updated_at FROM "${SCHEMA}".store
      WHERE (namespace_path = $1 OR namespace_path LIKE $2) AND value @> $3::jsonb
        AND (expires_at IS NULL OR expires_at > CURRENT_TIMESTAMP)
      ORDER BY updated_at DESC, namespace_path, key LIMIT ${LIMIT}`;
    const viaRaw = await timeEach(
      async () =>
        (await pool.query(sql, ["bench:user3", "bench:user3:%", JSON.stringify({ kind: "fact" })])).rows.length,
      LIMIT,
    );
    figures.push({
      benchmark: `runtime: PostgresGraphStore ${what}`,
      figure: ms(viaStore),
      baseline: `${ms(viaRaw)} (one pg query returning the same rows: same table, ordering and jsonb @> condition, same run)`,
      ratio: viaStore / viaRaw,
    });
  } finally {
    await pool.query(`DROP SCHEMA IF EXISTS "${SCHEMA}" CASCADE`).catch(() => {});
    await pool.end();
    await store.stop();
  }
}

process.stdout.write("@deerflow/runtime long-term store benchmarks\n");
for (const f of figures) printFigure(f);
await appendRows(path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../BENCHMARKS.md"), figures);
process.stdout.write(`Appended ${figures.length} row(s) to BENCHMARKS.md\n`);
