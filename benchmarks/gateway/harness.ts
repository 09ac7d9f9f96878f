/**
 * The load harness of the benchmarks that drive servers with the LangGraph
 * SDK (this one, and `benchmarks/lead-agent`): child servers started under tsx
 * and stopped with the benchmark, settling between segments, and the client
 * side — thread create + `runs.stream` (values + messages-tuple) to the end,
 * checked against the fake model's reply — with its statistics.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { performance } from "node:perf_hooks";
import type { Client } from "@langchain/langgraph-sdk";
import { REPLY_TOKENS } from "./graph.js";

const REPLY = REPLY_TOKENS.join("");
const INPUT = { messages: [{ role: "user", content: "hi" }] };
const STREAM_MODE: ["values", "messages-tuple"] = ["values", "messages-tuple"];

/** An env variable as a positive integer, or `fallback` when unset. */
export function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number.parseInt(raw, 10);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got ${raw}`);
  return value;
}

/** A comma-separated list of positive integers from the environment (e.g. `BENCH_CONCURRENCY`). */
export function positiveIntList(name: string, fallback: string): number[] {
  const raw = process.env[name] ?? fallback;
  const values = raw.split(",").map((c) => Number.parseInt(c.trim(), 10));
  if (values.some((c) => !Number.isInteger(c) || c < 1))
    throw new Error(`${name} must list positive integers, got ${raw}`);
  return values;
}

/** A server under load, in its own child process. */
export interface Server {
  readonly name: string;
  readonly apiUrl: string;
  readonly child: ChildProcess;
}

const children = new Set<ChildProcess>();
/** Folders removed when the benchmark exits. */
export const tempDirs: string[] = [];

/** SIGKILL whatever is still running; safe to call from an `exit` handler. */
export function killChildrenNow(): void {
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
export async function stopChild(child: ChildProcess): Promise<void> {
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

/** Starts `script` (a path) under tsx with an IPC channel, resolves once it reports its port and `/ok` answers. */
export async function startServer(
  name: string,
  script: string,
  extraArgs: readonly string[],
  options: { cwd: string; imports: readonly string[]; apiPrefix: string },
): Promise<Server> {
  const args = [...options.imports.flatMap((url) => ["--import", url]), script, ...extraArgs];
  const child = spawn(process.execPath, args, {
    cwd: options.cwd,
    env: childEnv(),
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
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
export async function settle(server: Server): Promise<void> {
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

export interface Sample {
  /** `runs.stream` called → first event (ms). */
  readonly ttfe: number;
  /** → first `messages` event. */
  readonly ttft: number;
  /** → end of the stream. */
  readonly total: number;
  /** Events received. */
  readonly events: number;
}

/** Creates a thread and streams one run of `assistantId` to its end, checking what came back. */
async function oneRun(client: Client, assistantId: string): Promise<Sample> {
  const thread = await client.threads.create();
  const start = performance.now();
  let ttfe: number | undefined;
  let ttft: number | undefined;
  let events = 0;
  let tokens = "";
  let last: unknown;
  for await (const part of client.runs.stream(thread.thread_id, assistantId, {
    input: INPUT,
    streamMode: STREAM_MODE,
  })) {
    const now = performance.now() - start;
    ttfe ??= now;
    events++;
    if (part.event === "messages") {
      ttft ??= now;
      const [chunk] = part.data as [{ type?: string; content?: unknown }, unknown];
      if ((chunk.type === "ai" || chunk.type === "AIMessageChunk") && typeof chunk.content === "string")
        tokens += chunk.content;
    } else if (part.event === "values") {
      last = part.data;
    } else if (part.event === "error") {
      throw new Error(`run failed: ${JSON.stringify(part.data)}`);
    }
  }
  const total = performance.now() - start;
  const messages = (last as { messages?: Array<{ content?: unknown }> } | undefined)?.messages;
  if (ttfe === undefined || ttft === undefined)
    throw new Error(`stream without ${ttfe === undefined ? "events" : "messages events"}`);
  if (tokens !== REPLY) throw new Error(`streamed tokens ${JSON.stringify(tokens)} ≠ the model's reply`);
  if (messages?.length !== 2 || messages[1]?.content !== REPLY)
    throw new Error(`unexpected final values ${JSON.stringify(last)}`);
  return { ttfe, ttft, total, events };
}

/** `concurrency` clients share `runs` runs of `assistantId`; returns wall time and the samples. */
export async function segment(
  clients: readonly Client[],
  runs: number,
  assistantId: string,
): Promise<{ wallMs: number; samples: Sample[] }> {
  let issued = 0;
  const samples: Sample[] = [];
  const start = performance.now();
  await Promise.all(
    clients.map(async (client) => {
      while (issued < runs) {
        issued++;
        samples.push(await oneRun(client, assistantId));
      }
    }),
  );
  return { wallMs: performance.now() - start, samples };
}

function percentile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
}

/** Figures of one server at one concurrency. */
export interface Stats {
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

export const ms = (value: number): string =>
  value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${value.toFixed(value >= 100 ? 0 : 1)} ms`;
export const rps = (value: number): string => `${value.toFixed(value >= 100 ? 0 : 1)} runs/s`;

/**
 * Runs `segments` segments per server, alternating between the two (A B B A A B B A), each started
 * once the server measured before it is idle.
 *
 * @param pair - the two servers
 * @param segments - segments per server
 * @param measure - one segment on a server
 * @param previous - the server measured last before this call (it is let settle first)
 * @returns each server's statistics over its segments, and the server measured last
 */
export async function alternateSegments(
  pair: readonly [Server, Server],
  segments: number,
  measure: (server: Server) => Promise<{ wallMs: number; samples: Sample[] }>,
  previous?: Server,
): Promise<{ stats: Map<string, Stats>; last: Server | undefined }> {
  const acc = new Map<string, { wallMs: number; samples: Sample[] }>(
    pair.map((s) => [s.name, { wallMs: 0, samples: [] }]),
  );
  let last = previous;
  for (let i = 0; i < segments; i++) {
    for (const server of i % 2 === 0 ? pair : [pair[1], pair[0]]) {
      if (last !== undefined && last !== server) await settle(last);
      last = server;
      const { wallMs, samples } = await measure(server);
      const total = acc.get(server.name);
      if (total === undefined) throw new Error("unreachable");
      total.wallMs += wallMs;
      total.samples.push(...samples);
    }
  }
  return { stats: new Map([...acc].map(([name, { wallMs, samples }]) => [name, stats(wallMs, samples)])), last };
}
