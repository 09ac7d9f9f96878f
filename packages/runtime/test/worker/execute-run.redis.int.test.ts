/**
 * The worker on a real RedisStreamBridge: a run's events reach Redis in far
 * fewer round trips than events, every one exactly once and in order, and a
 * publish failure mid-run still fails the run with today's message.
 */
import { Annotation, END, START, StateGraph } from "@langchain/langgraph";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { RedisStreamBridge } from "../../src/stream/redis-stream-bridge.js";
import type { StreamItem } from "../../src/stream/stream-bridge.js";
import { executeRun } from "../../src/worker/execute-run.js";
import { requireRedis, uniqueName } from "../support/services.js";
import { asStreamable } from "../support/worker/graphs.js";
import { makeRun } from "../support/worker/run-record.js";

const url = await requireRedis();
const prefix = `${uniqueName("worker_redis")}:`;

/**
 * START → emit → END: `emit` writes `count` custom events `{i}`, calling
 * `before(i)` first when given, and stops when its signal aborts.
 */
function customGraph(count: number, before?: (i: number) => Promise<void>) {
  const State = Annotation.Root({ n: Annotation<number> });
  return asStreamable(
    new StateGraph(State)
      .addNode("emit", async (_state, config) => {
        for (let i = 0; i < count; i++) {
          await before?.(i);
          if (config.signal?.aborted) throw config.signal.reason;
          config.writer?.({ i });
        }
        return {};
      })
      .addEdge(START, "emit")
      .addEdge("emit", END)
      .compile(),
  );
}

describe.skipIf(!url)("executeRun through RedisStreamBridge", () => {
  let admin: Redis;
  let client: Redis;
  let bridge: RedisStreamBridge;
  let scriptCalls = 0;

  beforeAll(() => {
    admin = new Redis(url as string);
  });
  afterEach(async () => {
    await bridge.close();
    client.disconnect();
  });
  afterAll(async () => {
    const keys = await admin.keys(`${prefix}*`);
    if (keys.length > 0) await admin.del(...keys);
    admin.disconnect();
  });

  function setup(): void {
    client = new Redis(url as string);
    scriptCalls = 0;
    const send = client.sendCommand.bind(client);
    client.sendCommand = ((command: { name: string }, ...rest: unknown[]) => {
      if (command.name === "evalsha" || command.name === "eval") scriptCalls += 1;
      return (send as (...args: unknown[]) => unknown)(command, ...rest);
    }) as typeof client.sendCommand;
    bridge = new RedisStreamBridge({ redis: client, keyPrefix: prefix, maxEventsPerRun: 4_096 });
  }

  it("1,000 custom events: every one exactly once, in order, after metadata, in far fewer script calls than events", async () => {
    setup();
    const run = makeRun({ streamMode: ["custom"], input: { n: 1 } });
    const received: StreamItem[] = [];
    const reading = (async () => {
      for await (const item of bridge.subscribe(run.runId, { heartbeatMs: 1_000 })) {
        if (item.kind === "heartbeat") continue;
        received.push(item);
        if (item.kind !== "event") return;
      }
    })();
    const outcome = await executeRun({
      run,
      graph: () => customGraph(1_000),
      bridge,
      signal: new AbortController().signal,
    });
    expect(outcome).toEqual({ status: "success", error: null, threadStatus: "idle", rolledBack: false });
    // Everything is in Redis when the outcome is known: the caller's end marker comes last.
    expect(await admin.xlen(`${prefix}${run.runId}`)).toBe(1_001);
    const calls = scriptCalls;
    await bridge.publishEnd(run.runId);
    await reading;
    expect(calls).toBeLessThan(200);
    const events = received.filter((item) => item.kind === "event");
    expect(events[0]).toMatchObject({ event: "metadata", data: { run_id: run.runId } });
    expect(events.slice(1).map((item) => item.data)).toEqual(Array.from({ length: 1_000 }, (_, i) => ({ i })));
    expect(events.map((item) => Number(item.id.split("-")[1]))).toEqual(Array.from({ length: 1_001 }, (_, i) => i));
    expect(received.at(-1)).toEqual({ kind: "end" });
  });

  it("a stream key replaced mid-run fails the run with the publish failure, and stops the graph", async () => {
    setup();
    const run = makeRun({ streamMode: ["custom"], input: { n: 1 } });
    const key = `${prefix}${run.runId}`;
    let produced = 0;
    const outcome = await executeRun({
      run,
      graph: () =>
        customGraph(10_000, async (i) => {
          produced = i;
          // Make every later append fail with WRONGTYPE (not retried).
          if (i === 50) await admin.multi().del(key).set(key, "not a stream").exec();
          // From then on, a slow producer: the failure stops it long before its end.
          if (i >= 50) await new Promise((resolve) => setTimeout(resolve, 1));
        }),
      bridge,
      signal: new AbortController().signal,
    });
    expect(outcome.status).toBe("error");
    expect(outcome.error).toMatch(/^Stream bridge publish failed for event "custom": .*WRONGTYPE/);
    expect(produced).toBeLessThan(10_000 - 1);
    expect(await admin.get(key)).toBe("not a stream");
  });
});
