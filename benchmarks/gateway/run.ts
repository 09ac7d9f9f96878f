/**
 * `pnpm bench`: the DeerFlow gateway (`createGateway` + `langgraphRoutes` on a
 * `RunManager`, all in memory) against `@langchain/langgraph-api`'s in-memory
 * server, both serving the same fake-model graph (graph.ts), both driven by the
 * `@langchain/langgraph-sdk` 2.0.0 `Client`, measured in the same run.
 *
 * Each server runs in its own child process (server-gateway.ts,
 * server-langgraph-api.ts). For C = 1, 10, 100 concurrent clients (one SDK
 * `Client` each), every client repeatedly creates a thread and streams a run
 * (`runs.stream(thread, "agent", { input, streamMode: ["values", "messages-tuple"] })`)
 * to its end, until the C clients have done the run count together. The runs of
 * one C are split into segments that alternate between the servers (A B B A) to
 * spread noise; a segment's wall time runs from its first request to its last
 * stream's end. Reported per C:
 *
 * - runs/s: runs ÷ summed wall time of the segments (thread creation included);
 * - time to first event (TTFE): `runs.stream` called → first SSE event (`metadata`);
 * - time to first token (TTFT): → first `messages` event;
 * - stream complete: → the stream has ended.
 *
 * Env: BENCH_RUNS (runs per server per C, default 200, raised to 8 × C so
 * every client does at least 2 runs per segment; C = 1 does at most
 * BENCH_RUNS_SERIAL, default 60), BENCH_CONCURRENCY (default "1,10,100"),
 * BENCH_WARMUP (warm-up runs per server, default 30), BENCH_LANGGRAPH_WORKERS
 * (langgraph-api's nWorkers, default 10 as `langgraphjs dev`), BENCH_NO_APPEND=1
 * (print only, do not touch BENCHMARKS.md).
 */
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Client } from "@langchain/langgraph-sdk";
import { appendRows, printFigure, type Figure } from "../../scripts/lib/bench-report.mjs";
import {
  alternateSegments,
  killChildrenNow,
  ms,
  positiveInt,
  positiveIntList,
  rps,
  segment,
  settle,
  startServer,
  stopChild,
  tempDirs,
  type Server,
  type Stats,
} from "./harness.js";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const RUNS = positiveInt("BENCH_RUNS", 200);
const RUNS_SERIAL = positiveInt("BENCH_RUNS_SERIAL", 60);
const WARMUP = positiveInt("BENCH_WARMUP", 30);
const LANGGRAPH_WORKERS = positiveInt("BENCH_LANGGRAPH_WORKERS", 10);
const CONCURRENCY = positiveIntList("BENCH_CONCURRENCY", "1,10,100");
const SEGMENTS = 4; // per server per C, in the order A B B A A B B A

// ---------------------------------------------------------------------------
// Main

const benchStart = performance.now();
const version = (pkg: string): string =>
  (JSON.parse(readFileSync(path.join(HERE, "node_modules", pkg, "package.json"), "utf8")) as { version: string })
    .version;
const apiVersion = version("@langchain/langgraph-api");
const sdkVersion = version("@langchain/langgraph-sdk");

const tsx = import.meta.resolve("tsx");
const langgraphCwd = mkdtempSync(path.join(os.tmpdir(), "bench-langgraph-api-"));
tempDirs.push(langgraphCwd);
const graphSpec = `${path.relative(langgraphCwd, path.join(HERE, "graph.ts"))}:graph`;
const langgraphOptions = {
  port: 0,
  nWorkers: LANGGRAPH_WORKERS,
  host: "127.0.0.1",
  cwd: langgraphCwd,
  graphs: { agent: graphSpec },
};
const preload = pathToFileURL(
  path.join(
    path.dirname(fileURLToPath(import.meta.resolve("@langchain/langgraph-api/package.json"))),
    "dist/preload.mjs",
  ),
).href;

const servers: Server[] = [];
const results = new Map<string, Stats>();
try {
  const [ours, theirs] = await Promise.all([
    startServer("gateway", path.join(HERE, "server-gateway.ts"), [], { cwd: HERE, imports: [tsx], apiPrefix: "/api" }),
    startServer("langgraph-api", path.join(HERE, "server-langgraph-api.ts"), [JSON.stringify(langgraphOptions)], {
      cwd: langgraphCwd,
      imports: [tsx, preload],
      apiPrefix: "",
    }),
  ]);
  servers.push(ours, theirs);
  process.stdout.write(
    `servers up after ${((performance.now() - benchStart) / 1000).toFixed(1)} s: gateway ${ours.apiUrl}, langgraph-api ${theirs.apiUrl} (nWorkers ${LANGGRAPH_WORKERS})\n`,
  );

  const clientsOf = (server: Server, count: number): Client[] =>
    Array.from(
      { length: count },
      () => new Client({ apiUrl: server.apiUrl, apiKey: null, callerOptions: { maxRetries: 0 } }),
    );

  // Warm-up: JIT, connections, lazy imports on both sides.
  for (const server of [ours, theirs]) {
    await segment(clientsOf(server, 1), 3, "agent");
    await segment(clientsOf(server, 10), WARMUP, "agent");
  }
  await settle(theirs);

  let previous: Server | undefined;
  for (const concurrency of CONCURRENCY) {
    // At least 2 runs per client per segment, so a segment is more than one burst.
    const runs = concurrency === 1 ? Math.min(RUNS, RUNS_SERIAL) : Math.max(RUNS, SEGMENTS * concurrency * 2);
    const perSegment = Math.max(1, Math.round(runs / SEGMENTS));
    const clients = new Map(servers.map((s) => [s.name, clientsOf(s, concurrency)] as const));
    const measured = await alternateSegments(
      [ours, theirs],
      SEGMENTS,
      (server) => segment(clients.get(server.name) ?? [], perSegment, "agent"),
      previous,
    );
    previous = measured.last;
    for (const server of servers) {
      const s = measured.stats.get(server.name);
      if (s === undefined) throw new Error("unreachable");
      results.set(`${server.name}/${concurrency}`, s);
      process.stdout.write(
        `  C=${concurrency} ${server.name.padEnd(13)} ${rps(s.runsPerSecond).padStart(13)}  TTFE p50 ${ms(s.ttfe[0])} p99 ${ms(s.ttfe[1])}  TTFT p50 ${ms(s.ttft[0])} p99 ${ms(s.ttft[1])}  complete p50 ${ms(s.total[0])} p99 ${ms(s.total[1])}  (${s.runs} runs, ${s.eventsPerRun.toFixed(1)} events/run)\n`,
      );
    }
  }
} finally {
  await Promise.all(servers.map((s) => stopChild(s.child)));
  killChildrenNow();
}

const figures: Figure[] = [];
const baselineWho = `@langchain/langgraph-api ${apiVersion} in-memory server, nWorkers ${LANGGRAPH_WORKERS}, same graph, same run`;
for (const concurrency of CONCURRENCY) {
  const ours = results.get(`gateway/${concurrency}`);
  const theirs = results.get(`langgraph-api/${concurrency}`);
  if (ours === undefined || theirs === undefined) continue;
  const who = `${concurrency} concurrent SDK ${sdkVersion} client${concurrency > 1 ? "s" : ""}, ${ours.runs} runs (thread create + runs.stream values+messages-tuple to the end, 20-token fake model)`;
  figures.push({
    benchmark: `gateway: runs/s, ${who}; higher is better, ratio > 1: the gateway is faster`,
    figure: rps(ours.runsPerSecond),
    baseline: `${rps(theirs.runsPerSecond)} (${baselineWho})`,
    ratio: ours.runsPerSecond / theirs.runsPerSecond,
  });
  figures.push({
    benchmark: `gateway: time to first event (runs.stream called → metadata) p50, ${who}; lower is better`,
    figure: ms(ours.ttfe[0]),
    baseline: `${ms(theirs.ttfe[0])} (${baselineWho})`,
    ratio: ours.ttfe[0] / theirs.ttfe[0],
  });
  figures.push({
    benchmark: `gateway: time to first event (runs.stream called → metadata) p99, ${who}; lower is better`,
    figure: ms(ours.ttfe[1]),
    baseline: `${ms(theirs.ttfe[1])} (${baselineWho})`,
    ratio: ours.ttfe[1] / theirs.ttfe[1],
  });
  figures.push({
    benchmark: `gateway: time to first token (runs.stream called → first messages event), ${who}; lower is better (ratio of p50)`,
    figure: `p50 ${ms(ours.ttft[0])} / p99 ${ms(ours.ttft[1])}`,
    baseline: `p50 ${ms(theirs.ttft[0])} / p99 ${ms(theirs.ttft[1])} (${baselineWho})`,
    ratio: ours.ttft[0] / theirs.ttft[0],
  });
  figures.push({
    benchmark: `gateway: time to stream end (runs.stream called → stream closed), ${who}; lower is better (ratio of p50)`,
    figure: `p50 ${ms(ours.total[0])} / p99 ${ms(ours.total[1])}`,
    baseline: `p50 ${ms(theirs.total[0])} / p99 ${ms(theirs.total[1])} (${baselineWho})`,
    ratio: ours.total[0] / theirs.total[0],
  });
}

process.stdout.write(
  `@deerflow/gateway vs @langchain/langgraph-api benchmarks (${((performance.now() - benchStart) / 1000).toFixed(1)} s)\n`,
);
for (const f of figures) printFigure(f);
if (process.env["BENCH_NO_APPEND"] === "1") {
  process.stdout.write(`BENCH_NO_APPEND=1: BENCHMARKS.md left alone\n`);
} else {
  await appendRows(path.resolve(HERE, "../../BENCHMARKS.md"), figures);
  process.stdout.write(`Appended ${figures.length} row(s) to BENCHMARKS.md\n`);
}
