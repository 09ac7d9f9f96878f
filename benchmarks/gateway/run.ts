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
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Client } from "@langchain/langgraph-sdk";
import { appendRows, printFigure, type Figure } from "../../scripts/lib/bench-report.mjs";
import { REPLY_TOKENS } from "./graph.js";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const RUNS = positiveInt("BENCH_RUNS", 200);
const RUNS_SERIAL = positiveInt("BENCH_RUNS_SERIAL", 60);
const WARMUP = positiveInt("BENCH_WARMUP", 30);
const LANGGRAPH_WORKERS = positiveInt("BENCH_LANGGRAPH_WORKERS", 10);
const CONCURRENCY = (process.env["BENCH_CONCURRENCY"] ?? "1,10,100").split(",").map((c) => Number.parseInt(c.trim(), 10));
if (CONCURRENCY.some((c) => !Number.isInteger(c) || c < 1)) throw new Error(`BENCH_CONCURRENCY must list positive integers`);
const SEGMENTS = 4; // per server per C, in the order A B B A A B B A
const REPLY = REPLY_TOKENS.join("");
const INPUT = { messages: [{ role: "user", content: "hi" }] };
const STREAM_MODE: ["values", "messages-tuple"] = ["values", "messages-tuple"];

function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number.parseInt(raw, 10);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got ${raw}`);
  return value;
}

// ---------------------------------------------------------------------------
// Child servers

interface Server {
  readonly name: "gateway" | "langgraph-api";
  readonly apiUrl: string;
  readonly child: ChildProcess;
}

const children = new Set<ChildProcess>();
const tempDirs: string[] = [];

/** SIGKILL whatever is still running; safe to call from an `exit` handler. */
function killChildrenNow(): void {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
}
process.on("exit", killChildrenNow);
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(signal, () => {
    process.stderr.write(`\n${signal}: stopping the servers\n`);
    killChildrenNow();
    process.exit(130);
  });
}

/** SIGTERM (graceful close), SIGKILL after 5 s. */
async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(timer);
}

/** Environment of both children: no tracing, no telemetry, quiet logs. */
function childEnv(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    LANGSMITH_TRACING: "false",
    LANGSMITH_TRACING_V2: "false",
    LANGCHAIN_TRACING: "false",
    LANGCHAIN_TRACING_V2: "false",
    // langgraph-api logs every request at `info` (its default level is `debug`); the gateway logs nothing by default.
    LOG_LEVEL: "error",
  };
}

/** Starts `script` under tsx with an IPC channel, resolves once it reports its port and `/ok` answers. */
async function startServer(name: Server["name"], script: string, extraArgs: readonly string[], options: { cwd: string; imports: readonly string[]; apiPrefix: string }): Promise<Server> {
  const args = [...options.imports.flatMap((url) => ["--import", url]), path.join(HERE, script), ...extraArgs];
  const child = spawn(process.execPath, args, { cwd: options.cwd, env: childEnv(), stdio: ["ignore", "pipe", "pipe", "ipc"] });
  children.add(child);
  child.once("exit", () => children.delete(child));
  let output = "";
  const keep = (chunk: Buffer): void => void (output = (output + chunk.toString()).slice(-8_000));
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start within 60 s:\n${output}`)), 60_000);
    child.once("message", (message: { port?: unknown }) => {
      clearTimeout(timer);
      if (typeof message.port === "number") resolve(message.port);
      else reject(new Error(`${name} sent ${JSON.stringify(message)}`));
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code ?? signal}) before listening:\n${output}`));
    });
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = performance.now() + 30_000;
  for (;;) {
    try {
      const res = await fetch(`${base}/ok`);
      if (res.ok) break;
    } catch {
      // not yet
    }
    if (performance.now() > deadline) throw new Error(`${name}: GET ${base}/ok never answered 200:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  // Later output (errors) is printed as it comes.
  child.stdout?.off("data", keep);
  child.stderr?.off("data", keep);
  child.stdout?.on("data", (chunk: Buffer) => process.stderr.write(`[${name}] ${chunk.toString()}`));
  child.stderr?.on("data", (chunk: Buffer) => process.stderr.write(`[${name}] ${chunk.toString()}`));
  return { name, apiUrl: `${base}${options.apiPrefix}`, child };
}

/** CPU time (clock ticks) a process has used so far, or undefined without /proc. */
function cpuTicks(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(fields[11]) + Number(fields[12]); // utime + stime
  } catch {
    return undefined;
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Lets the server that just had a segment finish its deferred work before the
 * other one is measured, so neither pays for the other on the 2 shared cores.
 * langgraph-api writes its whole in-memory store (ops + checkpoints, superjson)
 * to `.langgraph_api/` 3 s after the last access (a debounce: never while under
 * load); with thousands of runs that is ~0.5 s of CPU. Then waits (at most 10 s)
 * until the process uses under 10 % of a core over 300 ms.
 */
async function settle(server: Server): Promise<void> {
  if (server.name === "langgraph-api") await sleep(3_300);
  const deadline = performance.now() + 10_000;
  let before = cpuTicks(server.child.pid);
  while (before !== undefined && performance.now() < deadline) {
    await sleep(300);
    const after = cpuTicks(server.child.pid);
    if (after === undefined || after - before <= 3) return;
    before = after;
  }
}

// ---------------------------------------------------------------------------
// Load

interface Sample {
  /** `runs.stream` called → first event (ms). */
  readonly ttfe: number;
  /** → first `messages` event. */
  readonly ttft: number;
  /** → end of the stream. */
  readonly total: number;
  /** Events received. */
  readonly events: number;
}

/** Creates a thread and streams one run to its end, checking what came back. */
async function oneRun(client: Client): Promise<Sample> {
  const thread = await client.threads.create();
  const start = performance.now();
  let ttfe: number | undefined;
  let ttft: number | undefined;
  let events = 0;
  let tokens = "";
  let last: unknown;
  for await (const part of client.runs.stream(thread.thread_id, "agent", { input: INPUT, streamMode: STREAM_MODE })) {
    const now = performance.now() - start;
    ttfe ??= now;
    events++;
    if (part.event === "messages") {
      ttft ??= now;
      const [chunk] = part.data as [{ type?: string; content?: unknown }, unknown];
      if ((chunk.type === "ai" || chunk.type === "AIMessageChunk") && typeof chunk.content === "string") tokens += chunk.content;
    } else if (part.event === "values") {
      last = part.data;
    } else if (part.event === "error") {
      throw new Error(`run failed: ${JSON.stringify(part.data)}`);
    }
  }
  const total = performance.now() - start;
  const messages = (last as { messages?: Array<{ content?: unknown }> } | undefined)?.messages;
  if (ttfe === undefined || ttft === undefined) throw new Error(`stream without ${ttfe === undefined ? "events" : "messages events"}`);
  if (tokens !== REPLY) throw new Error(`streamed tokens ${JSON.stringify(tokens)} ≠ the model's reply`);
  if (messages?.length !== 2 || messages[1]?.content !== REPLY) throw new Error(`unexpected final values ${JSON.stringify(last)}`);
  return { ttfe, ttft, total, events };
}

/** `concurrency` clients share `runs` runs; returns wall time and the samples. */
async function segment(clients: readonly Client[], runs: number): Promise<{ wallMs: number; samples: Sample[] }> {
  let issued = 0;
  const samples: Sample[] = [];
  const start = performance.now();
  await Promise.all(
    clients.map(async (client) => {
      while (issued < runs) {
        issued++;
        samples.push(await oneRun(client));
      }
    }),
  );
  return { wallMs: performance.now() - start, samples };
}

function percentile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
}

interface Stats {
  readonly runs: number;
  readonly runsPerSecond: number;
  readonly ttfe: readonly [number, number];
  readonly ttft: readonly [number, number];
  readonly total: readonly [number, number];
  readonly eventsPerRun: number;
}

function stats(wallMs: number, samples: readonly Sample[]): Stats {
  const p = (pick: (s: Sample) => number): [number, number] => {
    const sorted = samples.map(pick).sort((a, b) => a - b);
    return [percentile(sorted, 0.5), percentile(sorted, 0.99)];
  };
  return {
    runs: samples.length,
    runsPerSecond: samples.length / (wallMs / 1000),
    ttfe: p((s) => s.ttfe),
    ttft: p((s) => s.ttft),
    total: p((s) => s.total),
    eventsPerRun: samples.reduce((sum, s) => sum + s.events, 0) / samples.length,
  };
}

const ms = (value: number): string => (value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${value.toFixed(value >= 100 ? 0 : 1)} ms`);
const rps = (value: number): string => `${value.toFixed(value >= 100 ? 0 : 1)} runs/s`;

// ---------------------------------------------------------------------------
// Main

const benchStart = performance.now();
const version = (pkg: string): string =>
  (JSON.parse(readFileSync(path.join(HERE, "node_modules", pkg, "package.json"), "utf8")) as { version: string }).version;
const apiVersion = version("@langchain/langgraph-api");
const sdkVersion = version("@langchain/langgraph-sdk");

const tsx = import.meta.resolve("tsx");
const langgraphCwd = mkdtempSync(path.join(os.tmpdir(), "bench-langgraph-api-"));
tempDirs.push(langgraphCwd);
const graphSpec = `${path.relative(langgraphCwd, path.join(HERE, "graph.ts"))}:graph`;
const langgraphOptions = { port: 0, nWorkers: LANGGRAPH_WORKERS, host: "127.0.0.1", cwd: langgraphCwd, graphs: { agent: graphSpec } };
const preload = pathToFileURL(path.join(path.dirname(fileURLToPath(import.meta.resolve("@langchain/langgraph-api/package.json"))), "dist/preload.mjs")).href;

const servers: Server[] = [];
const results = new Map<string, Stats>();
try {
  const [ours, theirs] = await Promise.all([
    startServer("gateway", "server-gateway.ts", [], { cwd: HERE, imports: [tsx], apiPrefix: "/api" }),
    startServer("langgraph-api", "server-langgraph-api.ts", [JSON.stringify(langgraphOptions)], { cwd: langgraphCwd, imports: [tsx, preload], apiPrefix: "" }),
  ]);
  servers.push(ours, theirs);
  process.stdout.write(`servers up after ${((performance.now() - benchStart) / 1000).toFixed(1)} s: gateway ${ours.apiUrl}, langgraph-api ${theirs.apiUrl} (nWorkers ${LANGGRAPH_WORKERS})\n`);

  const clientsOf = (server: Server, count: number): Client[] =>
    Array.from({ length: count }, () => new Client({ apiUrl: server.apiUrl, apiKey: null, callerOptions: { maxRetries: 0 } }));

  // Warm-up: JIT, connections, lazy imports on both sides.
  for (const server of [ours, theirs]) {
    await segment(clientsOf(server, 1), 3);
    await segment(clientsOf(server, 10), WARMUP);
  }
  await settle(theirs);

  let previous: Server | undefined;
  for (const concurrency of CONCURRENCY) {
    // At least 2 runs per client per segment, so a segment is more than one burst.
    const runs = concurrency === 1 ? Math.min(RUNS, RUNS_SERIAL) : Math.max(RUNS, SEGMENTS * concurrency * 2);
    const perSegment = Math.max(1, Math.round(runs / SEGMENTS));
    const clients = new Map(servers.map((s) => [s.name, clientsOf(s, concurrency)] as const));
    const acc = new Map<Server["name"], { wallMs: number; samples: Sample[] }>(servers.map((s) => [s.name, { wallMs: 0, samples: [] }]));
    for (let i = 0; i < SEGMENTS; i++) {
      const order = i % 2 === 0 ? [ours, theirs] : [theirs, ours];
      for (const server of order) {
        if (previous !== undefined && previous !== server) await settle(previous);
        previous = server;
        const { wallMs, samples } = await segment(clients.get(server.name) ?? [], perSegment);
        const total = acc.get(server.name);
        if (total === undefined) throw new Error("unreachable");
        total.wallMs += wallMs;
        total.samples.push(...samples);
      }
    }
    for (const server of servers) {
      const { wallMs, samples } = acc.get(server.name) ?? { wallMs: 0, samples: [] };
      const s = stats(wallMs, samples);
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

process.stdout.write(`@deerflow/gateway vs @langchain/langgraph-api benchmarks (${((performance.now() - benchStart) / 1000).toFixed(1)} s)\n`);
for (const f of figures) printFigure(f);
if (process.env["BENCH_NO_APPEND"] === "1") {
  process.stdout.write(`BENCH_NO_APPEND=1: BENCHMARKS.md left alone\n`);
} else {
  await appendRows(path.resolve(HERE, "../../BENCHMARKS.md"), figures);
  process.stdout.write(`Appended ${figures.length} row(s) to BENCHMARKS.md\n`);
}
