/**
 * `pnpm bench`: the stream bridges against raw baselines measured in the same run.
 *
 * - Throughput (µs per published event until every subscriber has it; events/s
 *   in brackets) and latency (publish → subscriber receive, p50/p99, measured
 *   paced: the next event is published once every subscriber has the previous
 *   one) through MemoryStreamBridge and RedisStreamBridge with 1 and 50
 *   subscribers, against a raw ioredis loop (XADD / XREAD BLOCK on a connection
 *   per reader, same entries and JSON payload, no gap checks, no idempotency,
 *   no expiry). Throughput is measured awaiting each publish, and pipelined
 *   (up to 256 publishes in flight, as the worker does; the raw loop then
 *   pipelines its XADDs on the socket, the bridge sends group commits).
 * - A real LangGraph `graph.stream` whose node emits N custom events through
 *   `config.writer`, run by the worker (`executeRun`: translation, metadata
 *   event, publishes pipelined through the bridge) + a subscriber receiving
 *   all of them, against iterating `graph.stream` alone.
 *
 * Env: BENCH_EVENTS (throughput events, default 5000), BENCH_LATENCY_EVENTS
 * (default 300), BENCH_GRAPH_EVENTS (default 2000), REDIS_URL.
 */
import { randomUUID } from "node:crypto";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { Annotation, END, START, StateGraph } from "@langchain/langgraph";
import { Redis } from "ioredis";
import { MemoryStreamBridge } from "../src/stream/memory-stream-bridge.js";
import { RedisStreamBridge } from "../src/stream/redis-stream-bridge.js";
import type { StreamBridge } from "../src/stream/stream-bridge.js";
import type { RunRecord } from "../src/runs/types.js";
import { executeRun } from "../src/worker/execute-run.js";
import { appendRows, printFigure, type Figure } from "./report.js";

const EVENTS = Number(process.env["BENCH_EVENTS"] ?? 5_000);
const LATENCY_EVENTS = Number(process.env["BENCH_LATENCY_EVENTS"] ?? 300);
const GRAPH_EVENTS = Number(process.env["BENCH_GRAPH_EVENTS"] ?? 2_000);
const GRAPH_RUNS = 3;
const REDIS_URL = process.env["REDIS_URL"] ?? "redis://127.0.0.1:6379";
const PREFIX = `bench:${randomUUID().slice(0, 8)}:`;
/** Publishes kept in flight by the pipelined throughput runs (the worker's default window). */
const WINDOW = 256;

/** A token-chunk-like payload (~250 bytes of JSON) stamped with its publish time. */
function payload(i: number): { i: number; t: number; chunk: unknown } {
  return {
    i,
    t: performance.now(),
    chunk: { type: "AIMessageChunk", id: "run-bench", content: "token ".repeat(24), response_metadata: {} },
  };
}

/** One way of moving events from a publisher to subscribers. */
interface Transport {
  publish(runId: string, i: number): Promise<void>;
  end(runId: string): Promise<void>;
  /** Calls `onEvent` with each event's data until the end. */
  subscribe(runId: string, onEvent: (data: { i: number; t: number }) => void): Promise<void>;
  close(): Promise<void>;
}

function bridgeTransport(bridge: StreamBridge): Transport {
  return {
    publish: async (runId, i) => void (await bridge.publish(runId, "messages", payload(i))),
    end: (runId) => bridge.publishEnd(runId),
    subscribe: async (runId, onEvent) => {
      for await (const item of bridge.subscribe(runId)) {
        if (item.kind === "event") onEvent(item.data as { i: number; t: number });
        else if (item.kind === "end") return;
        else if (item.kind === "gap") throw new Error(`benchmark subscriber got a gap: ${JSON.stringify(item)}`);
      }
    },
    close: () => bridge.close(),
  };
}

/** The baseline: XADD with `*`, readers in an XREAD COUNT 64 BLOCK 0 loop on their own connection. */
function rawRedisTransport(url: string): Transport {
  const client = new Redis(url);
  const readers = new Set<Redis>();
  return {
    publish: async (runId, i) =>
      void (await client.xadd(
        `${PREFIX}raw:${runId}`,
        "*",
        "kind",
        "event",
        "event",
        "messages",
        "data",
        JSON.stringify(payload(i)),
      )),
    end: async (runId) => void (await client.xadd(`${PREFIX}raw:${runId}`, "*", "kind", "end")),
    subscribe: async (runId, onEvent) => {
      const reader = client.duplicate();
      readers.add(reader);
      let last = "0-0";
      try {
        for (;;) {
          const reply = (await reader.xread(
            "COUNT",
            64,
            "BLOCK",
            0,
            "STREAMS",
            `${PREFIX}raw:${runId}`,
            last,
          )) as Array<[string, Array<[string, string[]]>]> | null;
          for (const [id, fields] of reply?.[0]?.[1] ?? []) {
            if (fields[1] === "end") return;
            onEvent(JSON.parse(fields[5] as string) as { i: number; t: number });
            last = id;
          }
        }
      } finally {
        readers.delete(reader);
        reader.disconnect();
      }
    },
    close: async () => {
      for (const reader of readers) reader.disconnect();
      await client.quit();
    },
  };
}

/** Publishes `count` events unpaced; µs per event until every subscriber has the end. */
async function throughput(transport: Transport, subscribers: number, count: number): Promise<number> {
  const runId = `tp-${randomUUID()}`;
  const received = new Array<number>(subscribers).fill(0);
  const start = performance.now();
  const done = Array.from({ length: subscribers }, (_, s) =>
    transport.subscribe(runId, () => void (received[s] = (received[s] ?? 0) + 1)),
  );
  for (let i = 0; i < count; i++) await transport.publish(runId, i);
  await transport.end(runId);
  await Promise.all(done);
  const elapsed = performance.now() - start;
  if (received.some((n) => n !== count)) throw new Error(`lost events: ${received.join(",")} of ${count}`);
  return (elapsed * 1000) / count;
}

/** Like {@link throughput}, with up to WINDOW publishes in flight (in call order). */
async function pipelinedThroughput(transport: Transport, subscribers: number, count: number): Promise<number> {
  const runId = `tpp-${randomUUID()}`;
  const received = new Array<number>(subscribers).fill(0);
  const start = performance.now();
  const done = Array.from({ length: subscribers }, (_, s) =>
    transport.subscribe(runId, () => void (received[s] = (received[s] ?? 0) + 1)),
  );
  const inFlight: Array<Promise<void>> = [];
  for (let i = 0; i < count; i++) {
    inFlight.push(transport.publish(runId, i));
    if (inFlight.length >= WINDOW) await inFlight.shift();
  }
  await Promise.all(inFlight);
  await transport.end(runId);
  await Promise.all(done);
  const elapsed = performance.now() - start;
  if (received.some((n) => n !== count)) throw new Error(`lost events: ${received.join(",")} of ${count}`);
  return (elapsed * 1000) / count;
}

/** Paced: publish, wait until every subscriber has it, repeat. Returns [p50, p99] in µs. */
async function latency(
  transport: Transport,
  subscribers: number,
  count: number,
  warmup = 20,
): Promise<[number, number]> {
  const runId = `lat-${randomUUID()}`;
  const samples: number[] = [];
  let arrived = 0;
  let wake: (() => void) | undefined;
  const done = Array.from({ length: subscribers }, () =>
    transport.subscribe(runId, (data) => {
      if (data.i >= warmup) samples.push((performance.now() - data.t) * 1000);
      arrived += 1;
      if (arrived % subscribers === 0) wake?.();
    }),
  );
  for (let i = 0; i < warmup + count; i++) {
    const all = new Promise<void>((resolve) => (wake = resolve));
    await transport.publish(runId, i);
    await all;
  }
  await transport.end(runId);
  await Promise.all(done);
  samples.sort((a, b) => a - b);
  return [percentile(samples, 0.5), percentile(samples, 0.99)];
}

function percentile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

const us = (value: number): string => (value >= 1000 ? `${(value / 1000).toFixed(2)} ms` : `${value.toFixed(1)} µs`);
const perSecond = (usPerEvent: number): string => `${Math.round(1e6 / usPerEvent).toLocaleString("en-US")}/s`;

async function redisReachable(url: string): Promise<boolean> {
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on("error", () => undefined);
  try {
    await probe.connect();
    return (await probe.ping()) === "PONG";
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

function customGraph() {
  const State = Annotation.Root({ n: Annotation<number> });
  return new StateGraph(State)
    .addNode("emit", async (state, config) => {
      for (let i = 0; i < state.n; i++) config.writer?.(payload(i));
      return {};
    })
    .addEdge(START, "emit")
    .addEdge("emit", END)
    .compile();
}

/** A run record as the run manager hands it to the worker. */
function benchRun(): RunRecord {
  const now = new Date().toISOString();
  return {
    runId: `graph-${randomUUID()}`,
    threadId: randomUUID(),
    assistantId: "bench",
    status: "running",
    multitaskStrategy: "reject",
    onDisconnect: "continue",
    metadata: {},
    kwargs: { streamMode: ["custom"], input: { n: GRAPH_EVENTS } },
    createdAt: now,
    updatedAt: now,
    startedAt: now,
    endedAt: null,
    error: null,
    stopReason: null,
    ownerId: "bench",
    cancelAction: null,
  };
}

/** ms to stream GRAPH_EVENTS custom events: iterating graph.stream alone, or run by the worker through a bridge to one subscriber. */
async function graphRun(graph: ReturnType<typeof customGraph>, bridge?: StreamBridge): Promise<number> {
  const start = performance.now();
  if (bridge === undefined) {
    let chunks = 0;
    for await (const _chunk of await graph.stream({ n: GRAPH_EVENTS }, { streamMode: "custom" })) chunks++;
    if (chunks !== GRAPH_EVENTS) throw new Error(`graph run lost events: ${chunks} streamed`);
    return performance.now() - start;
  }
  const run = benchRun();
  let received = 0;
  const subscriber = (async () => {
    for await (const item of bridge.subscribe(run.runId)) {
      if (item.kind === "event" && item.event === "custom") received++;
      if (item.kind === "end") return;
      if (item.kind === "gap") throw new Error("graph benchmark subscriber got a gap");
    }
  })();
  const outcome = await executeRun({ run, graph: () => graph, bridge, signal: new AbortController().signal });
  if (outcome.status !== "success") throw new Error(`graph run failed: ${outcome.error}`);
  await bridge.publishEnd(run.runId);
  await subscriber;
  const elapsed = performance.now() - start;
  if (received !== GRAPH_EVENTS) throw new Error(`graph run lost events: ${received} of ${GRAPH_EVENTS} received`);
  return elapsed;
}

const figures: Figure[] = [];
const benchStart = performance.now();
const hasRedis = await redisReachable(REDIS_URL);
if (!hasRedis) process.stderr.write(`!!! Redis unreachable at ${REDIS_URL}: the Redis figures are skipped\n`);

// Retention above the event count: these runs measure transport, not eviction.
const retention = Math.max(EVENTS, LATENCY_EVENTS + 100, GRAPH_EVENTS) + 16;
const memory = bridgeTransport(new MemoryStreamBridge({ maxEventsPerRun: retention }));
const raw = hasRedis ? rawRedisTransport(REDIS_URL) : undefined;
const redisBridge = hasRedis
  ? new RedisStreamBridge({ url: REDIS_URL, keyPrefix: PREFIX, maxEventsPerRun: retention, ttlSeconds: 600 })
  : undefined;
const redis = redisBridge ? bridgeTransport(redisBridge) : undefined;

// Warm-up (JIT, connections, scripts).
for (const transport of [memory, raw, redis]) {
  if (transport === undefined) continue;
  await throughput(transport, 2, 200);
  await latency(transport, 2, 20, 5);
}

const results = new Map<string, { tp: number; tpp: number; lat: [number, number] }>();
for (const [name, transport] of [
  ["memory", memory],
  ["raw", raw],
  ["redis", redis],
] as const) {
  if (transport === undefined) continue;
  for (const subscribers of [1, 50]) {
    const tp = await throughput(transport, subscribers, EVENTS);
    const tpp = await pipelinedThroughput(transport, subscribers, EVENTS);
    const lat = await latency(transport, subscribers, LATENCY_EVENTS);
    results.set(`${name}/${subscribers}`, { tp, tpp, lat });
  }
}

const rawLabel = (
  subscribers: number,
  r: { tp: number; tpp: number; lat: [number, number] },
  kind: "tp" | "tpp" | "lat",
): string => {
  const readers = `${subscribers} reader${subscribers > 1 ? "s" : ""}`;
  if (kind === "tp")
    return `${us(r.tp)}/event [${perSecond(r.tp)}] (raw ioredis XADD + XREAD BLOCK loop, ${readers}, same run)`;
  if (kind === "tpp")
    return `${us(r.tpp)}/event [${perSecond(r.tpp)}] (raw ioredis XADDs pipelined, ${WINDOW} in flight, + XREAD BLOCK loop, ${readers}, same run)`;
  return `p50 ${us(r.lat[0])} / p99 ${us(r.lat[1])} (raw ioredis XADD + XREAD BLOCK loop, ${readers})`;
};

for (const [name, label] of [
  ["memory", "MemoryStreamBridge"],
  ["redis", "RedisStreamBridge"],
] as const) {
  for (const subscribers of [1, 50]) {
    const r = results.get(`${name}/${subscribers}`);
    const base = results.get(`raw/${subscribers}`);
    if (r === undefined || base === undefined) continue;
    const who = `${subscribers} subscriber${subscribers > 1 ? "s" : ""}`;
    figures.push({
      benchmark: `runtime: ${label} throughput, ${EVENTS.toLocaleString("en-US")} events, ${who} (time per event until all have it)`,
      figure: `${us(r.tp)}/event [${perSecond(r.tp)}]`,
      baseline: rawLabel(subscribers, base, "tp"),
      ratio: r.tp / base.tp,
    });
    figures.push({
      benchmark: `runtime: ${label} throughput, pipelined (${WINDOW} publishes in flight), ${EVENTS.toLocaleString("en-US")} events, ${who} (time per event until all have it)`,
      figure: `${us(r.tpp)}/event [${perSecond(r.tpp)}]`,
      baseline: rawLabel(subscribers, base, "tpp"),
      ratio: r.tpp / base.tpp,
    });
    figures.push({
      benchmark: `runtime: ${label} latency publish → receive, paced, ${LATENCY_EVENTS} events, ${who} (ratio of p50)`,
      figure: `p50 ${us(r.lat[0])} / p99 ${us(r.lat[1])}`,
      baseline: rawLabel(subscribers, base, "lat"),
      ratio: r.lat[0] / base.lat[0],
    });
  }
}

const graph = customGraph();
await graphRun(graph);
const alone: number[] = [];
const viaMemory: number[] = [];
const viaRedis: number[] = [];
const graphMemory = new MemoryStreamBridge({ maxEventsPerRun: retention });
for (let run = 0; run < GRAPH_RUNS; run++) {
  alone.push(await graphRun(graph));
  viaMemory.push(await graphRun(graph, graphMemory));
  if (redisBridge) viaRedis.push(await graphRun(graph, redisBridge));
}
const aloneMs = median(alone);
const graphLabel = `${aloneMs.toFixed(1)} ms (iterating graph.stream alone, streamMode custom)`;
figures.push({
  benchmark: `runtime: graph.stream of ${GRAPH_EVENTS.toLocaleString("en-US")} custom events run by the worker (executeRun) through MemoryStreamBridge + 1 subscriber receives all, median of ${GRAPH_RUNS}`,
  figure: `${median(viaMemory).toFixed(1)} ms`,
  baseline: graphLabel,
  ratio: median(viaMemory) / aloneMs,
});
if (viaRedis.length > 0) {
  figures.push({
    benchmark: `runtime: graph.stream of ${GRAPH_EVENTS.toLocaleString("en-US")} custom events run by the worker (executeRun) through RedisStreamBridge + 1 subscriber receives all, median of ${GRAPH_RUNS}`,
    figure: `${median(viaRedis).toFixed(1)} ms`,
    baseline: graphLabel,
    ratio: median(viaRedis) / aloneMs,
  });
}

await graphMemory.close();
await memory.close();
if (hasRedis) {
  const admin = new Redis(REDIS_URL);
  const keys = await admin.keys(`${PREFIX}*`);
  if (keys.length > 0) await admin.del(...keys);
  admin.disconnect();
}
await raw?.close();
await redis?.close();

process.stdout.write(
  `@deerflow/runtime stream-bridge benchmarks (${((performance.now() - benchStart) / 1000).toFixed(1)} s)\n`,
);
for (const f of figures) printFigure(f);
await appendRows(path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../BENCHMARKS.md"), figures);
process.stdout.write(`Appended ${figures.length} row(s) to BENCHMARKS.md\n`);
