/**
 * `pnpm bench` (third part): what the SQLite run store costs the caller's
 * event loop. `WorkerSqliteRunStore` (the store on a worker thread) against
 * `SqliteRunStore` (the same store on the caller's thread), each on a fresh
 * file, measured in the same run in alternating segments (A B B A).
 *
 * Every run is what the server does for one: create a thread, read it, admit
 * a run, start it, write the title, finish it, read the thread; 100 callers
 * at a time. Figures:
 * - the event loop's busy time per run (`performance.eventLoopUtilization`),
 *   lower is better: what the store leaves to the rest of a server;
 * - runs/s of the store alone (higher is better): the worker's round trips
 *   and its one thread bound it, where the in-thread store has no hop.
 *
 * Not measured here: how long the in-thread store blocks the loop. Its calls
 * settle in microtasks, so a segment of them never yields to the event loop at
 * all and a delay monitor records nothing; in a server, where requests and
 * sockets interleave, those blocks are what `benchmarks/lead-agent` saw as
 * a TTFE p99 of 1.2–1.3 s at 100 clients (0.4–0.6 s with the worker).
 *
 * Env: BENCH_STORE_RUNS (runs per segment, default 1500), BENCH_STORE_CALLERS (default 100).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import type { RunStore } from "../src/runs/run-store.js";
import type { RunKwargs } from "../src/runs/types.js";
import { SqliteRunStore } from "../src/runs/sqlite/sqlite-run-store.js";
import { WorkerSqliteRunStore } from "../src/runs/sqlite/worker/worker-sqlite-run-store.js";
import { appendRows, printFigure, type Figure } from "./report.js";

const RUNS = Number(process.env["BENCH_STORE_RUNS"] ?? 1_500);
const CALLERS = Number(process.env["BENCH_STORE_CALLERS"] ?? 100);
const SEGMENTS = 4;
const KWARGS: RunKwargs = {
  input: { messages: [{ role: "user", content: "Summarise the quarterly report in three bullet points." }] },
  config: { configurable: { model_name: "fast" } },
  streamMode: ["values", "messages-tuple"],
};

let serial = 0;
async function oneRun(store: RunStore): Promise<void> {
  const n = String(serial++).padStart(12, "0");
  const threadId = `00000000-0000-4000-8000-${n}`;
  const runId = `10000000-0000-4000-8000-${n}`;
  await store.createThread({ threadId, metadata: { owner: "bench" } });
  await store.getThread(threadId);
  await store.admitRun({
    runId,
    threadId,
    assistantId: "lead_agent",
    multitaskStrategy: "reject",
    onDisconnect: "cancel",
    metadata: { from: "bench" },
    kwargs: KWARGS,
    ownerId: "bench",
    ifNotExists: "reject",
    threadMetadataUpdate: { graph_id: "lead_agent" },
  });
  const started = await store.tryStartRun(runId);
  if (started.outcome !== "started") throw new Error(`run ${runId} did not start: ${started.outcome}`);
  await store.updateThread(threadId, { metadata: { title: "Quarterly report summary" } });
  await store.finishRun(runId, { status: "success", threadStatus: "idle", metadata: { token_usage: { total: 1 } } });
  await store.getThread(threadId);
}

interface Segment {
  busyMs: number;
  wallMs: number;
}

async function segment(store: RunStore, runs: number): Promise<Segment> {
  let next = 0;
  const before = performance.eventLoopUtilization();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CALLERS }, async () => {
      while (next++ < runs) await oneRun(store);
    }),
  );
  const wallMs = performance.now() - started;
  const { active } = performance.eventLoopUtilization(before);
  return { busyMs: active, wallMs };
}

const dir = await mkdtemp(path.join(tmpdir(), "bench-run-store-"));
const figures: Figure[] = [];
try {
  const stores = {
    worker: await WorkerSqliteRunStore.open({ path: path.join(dir, "worker.sqlite") }),
    inThread: new SqliteRunStore({ path: path.join(dir, "in-thread.sqlite") }),
  };
  for (const store of Object.values(stores)) await segment(store, 300);
  const totals = { worker: [] as Segment[], inThread: [] as Segment[] };
  for (let i = 0; i < SEGMENTS; i++) {
    const order = i % 2 === 0 ? (["worker", "inThread"] as const) : (["inThread", "worker"] as const);
    for (const who of order) totals[who].push(await segment(stores[who], RUNS));
  }
  const runs = RUNS * SEGMENTS;
  const sum = (xs: Segment[], key: keyof Segment): number => xs.reduce((s, x) => s + x[key], 0);
  const busyUs = (who: keyof typeof totals): number => (sum(totals[who], "busyMs") * 1000) / runs;
  const perSecond = (who: keyof typeof totals): number => runs / (sum(totals[who], "wallMs") / 1000);
  const what = `(thread create + admit + start + title + finish + 2 reads, ${CALLERS} concurrent callers, ${runs} runs)`;
  const baseline = "SqliteRunStore on the caller's thread, same file layout, same run";
  figures.push(
    {
      benchmark: `runtime: WorkerSqliteRunStore event-loop busy time per run ${what}; lower is better`,
      figure: `${busyUs("worker").toFixed(0)} µs`,
      baseline: `${busyUs("inThread").toFixed(0)} µs (${baseline})`,
      ratio: busyUs("worker") / busyUs("inThread"),
    },
    {
      benchmark: `runtime: WorkerSqliteRunStore runs/s of the store alone ${what}; higher is better (the worker's hop and single thread bound it)`,
      figure: `${perSecond("worker").toFixed(0)} runs/s`,
      baseline: `${perSecond("inThread").toFixed(0)} runs/s (${baseline})`,
      ratio: perSecond("worker") / perSecond("inThread"),
    },
  );
  await stores.worker.close();
  await stores.inThread.close();
} finally {
  await rm(dir, { recursive: true, force: true });
}

process.stdout.write("@deerflow/runtime run store benchmarks\n");
for (const figure of figures) printFigure(figure);
if (process.env["BENCH_NO_APPEND"] !== "1") {
  await appendRows(path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../BENCHMARKS.md"), figures);
  process.stdout.write(`Appended ${figures.length} row(s) to BENCHMARKS.md\n`);
}
