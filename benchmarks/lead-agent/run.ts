/**
 * `pnpm bench`: runs per second and time to first event of the real DeerFlow
 * server (server-deerflow.ts: embedded defaults, the lead agent compiled once
 * with its whole chain, on the gateway benchmark's fast fake model) against the
 * gateway benchmark's precompiled one-node graph on the same model
 * (../gateway/server-gateway.ts), both driven by the `@langchain/langgraph-sdk`
 * 2.0.0 `Client`, measured in the same run with the gateway benchmark's
 * harness: for each C, C clients each create a thread and stream a run
 * (values + messages-tuple) to its end, in segments alternating between the
 * servers (A B B A).
 *
 * Env: BENCH_RUNS (runs per server per C, default 1000, raised to 8 × C),
 * BENCH_CONCURRENCY (default "10,100"), BENCH_WARMUP (default 30),
 * BENCH_NO_APPEND=1 (print only, do not touch BENCHMARKS.md).
 */
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
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
  startServer,
  stopChild,
  tempDirs,
  type Server,
  type Stats,
} from "../gateway/harness.js";

const HERE = path.dirname(fileURLToPath(import.meta.url));
// 1000: with 200, a segment at 10 clients lasted about 0.3 s and the p99 was the second-worst run,
// so the ratios moved by ±0.06 between runs of the same build.
const RUNS = positiveInt("BENCH_RUNS", 1000);
const WARMUP = positiveInt("BENCH_WARMUP", 30);
const CONCURRENCY = positiveIntList("BENCH_CONCURRENCY", "10,100");
const SEGMENTS = 4; // per server per C, in the order A B B A A B B A

/** The assistant each server runs. */
const ASSISTANT: Readonly<Record<string, string>> = { deerflow: "lead_agent", gateway: "agent" };

const benchStart = performance.now();
const tsx = import.meta.resolve("tsx");
const serverCwd = mkdtempSync(path.join(os.tmpdir(), "bench-lead-agent-"));
tempDirs.push(serverCwd);

const servers: Server[] = [];
const results = new Map<string, Stats>();
try {
  const [ours, theirs] = await Promise.all([
    startServer("deerflow", path.join(HERE, "server-deerflow.ts"), [serverCwd], {
      cwd: serverCwd,
      imports: [tsx],
      apiPrefix: "/api",
    }),
    startServer("gateway", path.join(HERE, "../gateway/server-gateway.ts"), [], {
      cwd: path.join(HERE, "../gateway"),
      imports: [tsx],
      apiPrefix: "/api",
    }),
  ]);
  servers.push(ours, theirs);
  process.stdout.write(
    `servers up after ${((performance.now() - benchStart) / 1000).toFixed(1)} s: deerflow ${ours.apiUrl}, gateway ${theirs.apiUrl}\n`,
  );

  const clientsOf = (server: Server, count: number): Client[] =>
    Array.from(
      { length: count },
      () => new Client({ apiUrl: server.apiUrl, apiKey: null, callerOptions: { maxRetries: 0 } }),
    );
  const assistantOf = (server: Server): string => ASSISTANT[server.name] ?? server.name;

  // Warm-up: JIT, connections, lazy imports, SQLite files on both sides.
  for (const server of servers) {
    await segment(clientsOf(server, 1), 3, assistantOf(server));
    await segment(clientsOf(server, 10), WARMUP, assistantOf(server));
  }

  let previous: Server | undefined;
  for (const concurrency of CONCURRENCY) {
    const runs = Math.max(RUNS, SEGMENTS * concurrency * 2);
    const perSegment = Math.max(1, Math.round(runs / SEGMENTS));
    const clients = new Map(servers.map((s) => [s.name, clientsOf(s, concurrency)] as const));
    const measured = await alternateSegments(
      [ours, theirs],
      SEGMENTS,
      (server) => segment(clients.get(server.name) ?? [], perSegment, assistantOf(server)),
      previous,
    );
    previous = measured.last;
    for (const server of servers) {
      const s = measured.stats.get(server.name);
      if (s === undefined) throw new Error("unreachable");
      results.set(`${server.name}/${concurrency}`, s);
      process.stdout.write(
        `  C=${concurrency} ${server.name.padEnd(9)} ${rps(s.runsPerSecond).padStart(13)}  TTFE p50 ${ms(s.ttfe[0])} p99 ${ms(s.ttfe[1])}  complete p50 ${ms(s.total[0])} p99 ${ms(s.total[1])}  (${s.runs} runs, ${s.eventsPerRun.toFixed(1)} events/run)\n`,
      );
    }
  }
} finally {
  await Promise.all(servers.map((s) => stopChild(s.child)));
  killChildrenNow();
}

const figures: Figure[] = [];
const baselineWho =
  "the gateway benchmark's precompiled one-node graph on a RunManager in memory, same model, same run";
for (const concurrency of CONCURRENCY) {
  const ours = results.get(`deerflow/${concurrency}`);
  const theirs = results.get(`gateway/${concurrency}`);
  if (ours === undefined || theirs === undefined) continue;
  const who = `${concurrency} concurrent SDK clients, ${ours.runs} runs (thread create + runs.stream values+messages-tuple to the end, 20-token fake model)`;
  figures.push({
    benchmark: `lead agent: runs/s of the real server (embedded defaults, lead agent compiled once, full chain), ${who}; higher is better, goal ratio ≥ 0.7`,
    figure: rps(ours.runsPerSecond),
    baseline: `${rps(theirs.runsPerSecond)} (${baselineWho})`,
    ratio: ours.runsPerSecond / theirs.runsPerSecond,
  });
  if (concurrency !== 10) continue;
  figures.push({
    benchmark: `lead agent: time to first event (runs.stream called → metadata) p50, real server, ${who}; lower is better`,
    figure: ms(ours.ttfe[0]),
    baseline: `${ms(theirs.ttfe[0])} (${baselineWho})`,
    ratio: ours.ttfe[0] / theirs.ttfe[0],
  });
  figures.push({
    benchmark: `lead agent: time to first event (runs.stream called → metadata) p99, real server, ${who}; lower is better`,
    figure: ms(ours.ttfe[1]),
    baseline: `${ms(theirs.ttfe[1])} (${baselineWho})`,
    ratio: ours.ttfe[1] / theirs.ttfe[1],
  });
}

process.stdout.write(
  `DeerFlow server (lead agent) vs precompiled graph benchmarks (${((performance.now() - benchStart) / 1000).toFixed(1)} s)\n`,
);
for (const f of figures) printFigure(f);
if (process.env["BENCH_NO_APPEND"] === "1") {
  process.stdout.write(`BENCH_NO_APPEND=1: BENCHMARKS.md left alone\n`);
} else {
  await appendRows(path.resolve(HERE, "../../BENCHMARKS.md"), figures);
  process.stdout.write(`Appended ${figures.length} row(s) to BENCHMARKS.md\n`);
}
