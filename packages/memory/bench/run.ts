/**
 * `pnpm bench`: what memory costs per run, against the bare store reads it is made of, in the same run.
 *
 * 1. Injection with 1,000 stored facts: `MemoryManager.get` + `formatMemory` (what the middleware does
 *    on a conversation's first turn) against a bare `store.search` of the same 1,000 items plus the
 *    summaries `store.get`, on InMemoryStore and on PostgresStore (goal ≤ 1.5×).
 * 2. Fact search on PostgreSQL: `StoreMemoryBackend.search` (a text query over the scope's facts)
 *    against a raw SQL `SELECT` of the same rows with pg.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { InMemoryStore, type BaseStore } from "@langchain/langgraph";
import { PostgresStore } from "@langchain/langgraph-checkpoint-postgres/store";
import pg from "pg";
import { DEFAULT_MEMORY_SETTINGS, MemoryManager, StoreMemoryBackend, formatMemory } from "../src/index.js";
import { appendRows, printFigure, type Figure } from "./report.js";

const RUNS = Number(process.env["BENCH_RUNS"] ?? 200);
const WARMUP = 20;
const FACTS = 1000;
const URL = process.env["DATABASE_URL"] ?? "postgres://postgres@127.0.0.1:5432/test";

async function median(fn: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < WARMUP; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = process.hrtime.bigint();
    await fn();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] as number;
}

const scope = { userId: "bench" };
const FACTS_NS = ["deerflow", "memory", "bench", "agents", "~default"];
const USER_NS = ["deerflow", "memory", "bench"];

async function seed(store: BaseStore): Promise<MemoryManager> {
  const manager = new MemoryManager({
    backend: new StoreMemoryBackend({ store }),
    settings: { maxFacts: FACTS },
  });
  await manager.backend.updateSummaries(scope, { user: { workContext: "Builds compilers in Rust." } });
  const now = new Date().toISOString();
  await store.batch(
    Array.from({ length: FACTS }, (_, i) => ({
      namespace: FACTS_NS,
      key: `fact_${String(i).padStart(32, "0")}`,
      value: {
        id: `fact_${String(i).padStart(32, "0")}`,
        content: `The user mentioned preference number ${i} about tooling and travel`,
        category: i % 10 === 0 ? "correction" : "preference",
        confidence: (i % 100) / 100,
        createdAt: now,
        updatedAt: now,
        revision: 1,
        source: { type: "manual" },
      },
    })),
  );
  return manager;
}

const budget = {
  maxInjectionTokens: DEFAULT_MEMORY_SETTINGS.maxInjectionTokens,
  guaranteedCategories: DEFAULT_MEMORY_SETTINGS.guaranteedCategories,
  guaranteedTokenBudget: DEFAULT_MEMORY_SETTINGS.guaranteedTokenBudget,
};

async function injection(store: BaseStore, label: string): Promise<Figure> {
  const manager = await seed(store);
  const bare = await median(async () => {
    await Promise.all([store.get(USER_NS, "summaries"), store.search(FACTS_NS, { limit: FACTS })]);
  });
  const inject = await median(async () => {
    const text = formatMemory(await manager.get(scope), budget);
    if (text === "") throw new Error("nothing injected");
  });
  return {
    benchmark: `memory: injection text for a run with ${FACTS} stored facts (MemoryManager.get + formatMemory, 2000-token budget), ${label}, median of ${RUNS}; goal ratio ≤ 1.5`,
    figure: `${inject.toFixed(2)} ms`,
    baseline: `${bare.toFixed(2)} ms (bare store.get of the summaries + store.search of the ${FACTS} items, same store, same run)`,
    ratio: inject / bare,
  };
}

const figures: Figure[] = [await injection(new InMemoryStore(), "InMemoryStore")];

const schema = `memory_bench_${process.pid}`;
const pool = new pg.Pool({ connectionString: URL });
try {
  await pool.query("SELECT 1");
  const store = PostgresStore.fromConnString(URL, { schema });
  await store.start();
  try {
    figures.push(await injection(store, "PostgresStore"));
    const backend = new StoreMemoryBackend({ store });
    const raw = await median(async () => {
      const r = await pool.query(`SELECT key, value FROM "${schema}".store WHERE namespace_path = $1`, [
        FACTS_NS.join(":"),
      ]);
      if (r.rowCount !== FACTS) throw new Error(`raw query returned ${r.rowCount} rows`);
    });
    const search = await median(async () => {
      const hits = await backend.search(scope, "tooling travel", { limit: 10 });
      if (hits.length !== 10) throw new Error("search found too little");
    });
    figures.push({
      benchmark: `memory: fact search on PostgreSQL over ${FACTS} facts (StoreMemoryBackend.search "tooling travel", top 10), median of ${RUNS}`,
      figure: `${search.toFixed(2)} ms`,
      baseline: `${raw.toFixed(2)} ms (raw pg SELECT of the same ${FACTS} rows by prefix, same run)`,
      ratio: search / raw,
    });
  } finally {
    await store.stop();
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  }
} catch (err) {
  process.stderr.write(`PostgreSQL unavailable (${(err as Error).message}): its figures are skipped\n`);
} finally {
  await pool.end();
}

process.stdout.write(`@deerflow/memory benchmarks (${RUNS} runs after ${WARMUP} warm-up)\n`);
for (const f of figures) printFigure(f);
await appendRows(path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../BENCHMARKS.md"), figures);
process.stdout.write(`Appended ${figures.length} row(s) to BENCHMARKS.md\n`);
