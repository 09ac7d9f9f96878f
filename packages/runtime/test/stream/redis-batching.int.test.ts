/**
 * Group commit in RedisStreamBridge: publishes of a run that queue up behind
 * an append in flight go to Redis in one script call, each caller still gets
 * its own id in order, and the batch script is idempotent and resumable when
 * retried (checked against Redis directly).
 */
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { RuntimeError } from "../../src/errors.js";
import type { RedisStreamBridgeCommonOptions } from "../../src/stream/redis-bridge-options.js";
import { RedisStreamBridge } from "../../src/stream/redis-stream-bridge.js";
import { APPEND_EVENTS, runScript } from "../../src/stream/redis-scripts.js";
import type { StreamItem } from "../../src/stream/stream-bridge.js";
import { requireRedis, uniqueName } from "../support/services.js";

const url = await requireRedis();
const prefix = `${uniqueName("stream_batch")}:`;

/** Counts the commands a client sends, by name: each script call is one round trip. */
function countCommands(redis: Redis): Map<string, number> {
  const counts = new Map<string, number>();
  const send = redis.sendCommand.bind(redis);
  redis.sendCommand = ((command: { name: string }, ...rest: unknown[]) => {
    counts.set(command.name, (counts.get(command.name) ?? 0) + 1);
    return (send as (...args: unknown[]) => unknown)(command, ...rest);
  }) as typeof redis.sendCommand;
  return counts;
}

const scriptCalls = (counts: Map<string, number>): number => (counts.get("evalsha") ?? 0) + (counts.get("eval") ?? 0);

function idParts(id: string): [bigint, bigint] {
  const [ms, seq] = id.split("-").map(BigInt);
  return [ms as bigint, seq as bigint];
}

async function readAll(bridge: RedisStreamBridge, runId: string): Promise<StreamItem[]> {
  const items: StreamItem[] = [];
  for await (const item of bridge.subscribe(runId, { heartbeatMs: 500 })) {
    if (item.kind === "heartbeat") continue;
    items.push(item);
    if (item.kind !== "event") break;
  }
  return items;
}

describe.skipIf(!url)("RedisStreamBridge group commit", () => {
  let admin: Redis;
  const bridges: RedisStreamBridge[] = [];
  const clients: Redis[] = [];

  beforeAll(() => {
    admin = new Redis(url as string);
  });
  afterEach(async () => {
    for (const bridge of bridges.splice(0)) await bridge.close();
    for (const client of clients.splice(0)) client.disconnect();
  });
  afterAll(async () => {
    const keys = await admin.keys(`${prefix}*`);
    if (keys.length > 0) await admin.del(...keys);
    admin.disconnect();
  });

  /** A bridge on a client of the test's, whose commands are counted after a warm-up (scripts loaded). */
  async function counted(
    options: RedisStreamBridgeCommonOptions = {},
  ): Promise<{ bridge: RedisStreamBridge; redis: Redis; counts: Map<string, number> }> {
    const redis = new Redis(url as string);
    clients.push(redis);
    const bridge = new RedisStreamBridge({ redis, keyPrefix: prefix, ...options });
    bridges.push(bridge);
    const warm = uniqueName("warm");
    await bridge.publish(warm, "custom", 0);
    await bridge.publishEnd(warm);
    return { bridge, redis, counts: countCommands(redis) };
  }

  it("1,000 publishes issued at once take ceil(1000 / 256) script calls; ids are per event, increasing, in call order", async () => {
    const { bridge, counts } = await counted({ maxEventsPerRun: 2_000 });
    const runId = uniqueName("burst");
    const ids = await Promise.all(Array.from({ length: 1_000 }, (_, i) => bridge.publish(runId, "custom", { i })));
    expect(scriptCalls(counts)).toBe(Math.ceil(1_000 / 256));
    // One publisher, no other writer: seq is the 0-based event counter; ms never decreases.
    expect(ids.map((id) => idParts(id)[1])).toEqual(Array.from({ length: 1_000 }, (_, i) => BigInt(i)));
    for (let i = 1; i < ids.length; i++)
      expect(idParts(ids[i] as string)[0] >= idParts(ids[i - 1] as string)[0]).toBe(true);
    await bridge.publishEnd(runId);
    expect(await admin.xlen(`${prefix}${runId}`)).toBe(1_001);
    expect(await readAll(bridge, runId)).toEqual([
      ...ids.map((id, i) => ({ kind: "event", id, event: "custom", data: { i } })),
      { kind: "end" },
    ]);
  });

  it("a producer that never waits for one publish before the next (like the worker) needs far fewer round trips than events", async () => {
    const { bridge, counts } = await counted({ maxEventsPerRun: 2_000 });
    const runId = uniqueName("stream");
    const pending: Array<Promise<string>> = [];
    for (let i = 0; i < 1_000; i++) {
      pending.push(bridge.publish(runId, i % 2 === 0 ? "messages" : "values", { i }));
      // Let the event loop run now and then, as a graph producing events does.
      if (i % 10 === 9) await new Promise((resolve) => setImmediate(resolve));
    }
    const ids = await Promise.all(pending);
    const calls = scriptCalls(counts);
    expect(calls).toBeGreaterThan(0);
    expect(calls).toBeLessThan(200);
    expect(new Set(ids).size).toBe(1_000);
    await bridge.publishEnd(runId);
    const items = await readAll(bridge, runId);
    expect(items).toEqual([
      ...ids.map((id, i) => ({ kind: "event", id, event: i % 2 === 0 ? "messages" : "values", data: { i } })),
      { kind: "end" },
    ]);
  });

  it("batch.maxEvents and batch.maxBytes cap a call; an event larger than maxBytes goes alone", async () => {
    const { bridge, counts } = await counted({ batch: { maxEvents: 10, maxBytes: 50_000 } });
    const runId = uniqueName("caps");
    await Promise.all(Array.from({ length: 95 }, (_, i) => bridge.publish(runId, "custom", i)));
    expect(scriptCalls(counts)).toBe(10);

    counts.clear();
    const big = "x".repeat(12_000);
    const sizes = await Promise.all(
      Array.from({ length: 20 }, (_, i) => bridge.publish(runId, "custom", `${i}${big}`)),
    );
    // At most 4 events of ~12 kB fit in 50 000 bytes.
    expect(scriptCalls(counts)).toBe(5);
    expect(sizes).toHaveLength(20);

    counts.clear();
    const huge = "y".repeat(80_000);
    await Promise.all([
      bridge.publish(runId, "custom", 1),
      bridge.publish(runId, "custom", huge),
      bridge.publish(runId, "custom", 2),
    ]);
    expect(scriptCalls(counts)).toBe(3);
    const entries = await admin.xrevrange(`${prefix}${runId}`, "+", "-", "COUNT", 3);
    expect(entries.map(([, fields]) => fields[5])).toEqual(["2", JSON.stringify(huge), "1"]);
  });

  it("batch.maxEvents 1 sends one call per event; bad batch options are CONFIG_INVALID", async () => {
    const { bridge, counts } = await counted({ batch: { maxEvents: 1 } });
    const runId = uniqueName("single");
    const ids = await Promise.all(Array.from({ length: 12 }, (_, i) => bridge.publish(runId, "custom", i)));
    expect(ids.map((id) => idParts(id)[1])).toEqual(Array.from({ length: 12 }, (_, i) => BigInt(i)));
    expect(scriptCalls(counts)).toBe(12);
    for (const batch of [{ maxEvents: 0 }, { maxEvents: 1.5 }, { maxBytes: 0 }, { maxBytes: -1 }]) {
      const error = (() => {
        try {
          new RedisStreamBridge({ redis: admin, batch });
        } catch (caught) {
          return caught;
        }
        return undefined;
      })();
      expect(RuntimeError.isInstance(error) && error.code, JSON.stringify(batch)).toBe("CONFIG_INVALID");
    }
  });

  it("a batch larger than maxEventsPerRun trims exactly; the end marker then comes on top without evicting; the expiry is set", async () => {
    const { bridge } = await counted({ maxEventsPerRun: 16, ttlSeconds: 120 });
    const runId = uniqueName("trim");
    const key = `${prefix}${runId}`;
    const ids = await Promise.all(Array.from({ length: 300 }, (_, i) => bridge.publish(runId, "custom", { i })));
    expect(await admin.xlen(key)).toBe(16);
    expect((await admin.xrange(key, "-", "+")).map(([id]) => id)).toEqual(ids.slice(-16));
    const ttl = await admin.ttl(key);
    expect(ttl).toBeGreaterThan(100);
    await bridge.publishEnd(runId);
    expect(await admin.xlen(key)).toBe(17);
    const items = await readAll(bridge, runId);
    expect(items).toEqual([
      ...ids.slice(-16).map((id, k) => ({ kind: "event", id, event: "custom", data: { i: 284 + k } })),
      { kind: "end" },
    ]);
  });

  it("publishEnd seals the open batch: events published before it come before the end marker, later ones after it", async () => {
    const { bridge } = await counted();
    const runId = uniqueName("seal");
    const before = Array.from({ length: 5 }, (_, i) => bridge.publish(runId, "custom", { i }));
    const ended = bridge.publishEnd(runId);
    const after = bridge.publish(runId, "custom", { i: 99 });
    await Promise.all([...before, ended, after]);
    const entries = await admin.xrange(`${prefix}${runId}`, "-", "+");
    expect(entries.map(([, fields]) => (fields[1] === "end" ? "end" : fields[5]))).toEqual([
      '{"i":0}',
      '{"i":1}',
      '{"i":2}',
      '{"i":3}',
      '{"i":4}',
      "end",
      '{"i":99}',
    ]);
  });

  it("when a batch fails, the batches queued behind it fail without being sent; later publishes are attempted", async () => {
    const { bridge, redis, counts } = await counted({ batch: { maxEvents: 2 } });
    const runId = uniqueName("poison");
    const key = `${prefix}${runId}`;
    // Sent on the bridge's own connection before the appends, so it is in place when they run.
    const wrongType = redis.set(key, "not a stream");
    const results = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => bridge.publish(runId, "custom", i)));
    await wrongType;
    expect(results.map((r) => r.status)).toEqual(Array(6).fill("rejected"));
    const reasons = results.map((r) => (r as PromiseRejectedResult).reason as RuntimeError);
    for (const reason of reasons) expect(reason.code).toBe("BRIDGE_UNAVAILABLE");
    expect(String((reasons[0]?.cause as Error).message)).toContain("WRONGTYPE");
    expect(reasons[1]).toBe(reasons[0]);
    for (const reason of reasons.slice(2))
      expect(reason.message).toContain("not attempted: an earlier publish of the run failed");
    expect(scriptCalls(counts)).toBe(1);
    await admin.del(key);
    const id = await bridge.publish(runId, "custom", "after");
    expect(await admin.xrange(key, "-", "+")).toEqual([[id, ["kind", "event", "event", "custom", "data", '"after"']]]);
  });
});

describe.skipIf(!url)("APPEND_EVENTS script", () => {
  let redis: Redis;
  beforeAll(() => {
    redis = new Redis(url as string);
  });
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}script:*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  /** ARGV of a batch: events `from..to` (inclusive) at `ms-seq` ids. */
  function batch(ms: number, from: number, to: number, maxlen = 100, ttl = 60): Array<string | number> {
    const args: Array<string | number> = [maxlen, ttl];
    for (let seq = from; seq <= to; seq++) args.push(`${ms}-${seq}`, "custom", JSON.stringify({ seq }));
    return args;
  }

  const fieldsOf = (seq: number): string[] => ["kind", "event", "event", "custom", "data", JSON.stringify({ seq })];

  it("a retried batch that fully landed is a success and writes nothing", async () => {
    const key = `${prefix}script:${uniqueName("again")}`;
    expect(await runScript(redis, APPEND_EVENTS, key, batch(1_000, 0, 9))).toEqual(["ok", 10]);
    expect(await runScript(redis, APPEND_EVENTS, key, batch(1_000, 0, 9))).toEqual(["ok", 10]);
    expect(await redis.xlen(key)).toBe(10);
    expect(await redis.ttl(key)).toBeGreaterThan(0);
  });

  it("a retry whose first events already landed writes exactly the rest, in order", async () => {
    const key = `${prefix}script:${uniqueName("resume")}`;
    expect(await runScript(redis, APPEND_EVENTS, key, batch(1_000, 0, 3))).toEqual(["ok", 4]);
    expect(await runScript(redis, APPEND_EVENTS, key, batch(1_000, 0, 9))).toEqual(["ok", 10]);
    expect(await redis.xrange(key, "-", "+")).toEqual(
      Array.from({ length: 10 }, (_, seq) => [`1000-${seq}`, fieldsOf(seq)]),
    );
  });

  it("a retry after its first events were trimmed away finds the last one kept and writes nothing twice", async () => {
    const key = `${prefix}script:${uniqueName("trimmed")}`;
    expect(await runScript(redis, APPEND_EVENTS, key, batch(1_000, 0, 49, 5))).toEqual(["ok", 50]);
    expect(await runScript(redis, APPEND_EVENTS, key, batch(1_000, 0, 49, 5))).toEqual(["ok", 50]);
    expect((await redis.xrange(key, "-", "+")).map(([id]) => id)).toEqual([
      "1000-45",
      "1000-46",
      "1000-47",
      "1000-48",
      "1000-49",
    ]);
  });

  it("another writer's entry at one of the ids is a conflict after the events before it; a retry gives the same answer", async () => {
    const key = `${prefix}script:${uniqueName("conflict")}`;
    await redis.xadd(key, "1000-2", "kind", "event", "event", "custom", "data", "someone else");
    // Events 0 and 1 are before the foreign top: refused at the first id.
    expect(await runScript(redis, APPEND_EVENTS, key, batch(1_000, 0, 4))).toEqual(["conflict", 0, "1000-2"]);
    const other = `${prefix}script:${uniqueName("conflict-mid")}`;
    expect(await runScript(redis, APPEND_EVENTS, other, batch(1_000, 0, 2))).toEqual(["ok", 3]);
    await redis.xadd(other, "1000-3", "kind", "event", "event", "custom", "data", "someone else");
    // A retry of 0..5 after events 0..2 landed and a foreign entry took id 3.
    expect(await runScript(redis, APPEND_EVENTS, other, batch(1_000, 0, 5))).toEqual(["conflict", 3, "1000-3"]);
    expect(await runScript(redis, APPEND_EVENTS, other, batch(1_000, 0, 5))).toEqual(["conflict", 3, "1000-3"]);
    expect(await redis.xlen(other)).toBe(4);
  });

  it("a key of another type is an error reply and nothing is written", async () => {
    const key = `${prefix}script:${uniqueName("type")}`;
    await redis.set(key, "x");
    await expect(runScript(redis, APPEND_EVENTS, key, batch(1_000, 0, 2))).rejects.toThrow(/WRONGTYPE/);
    expect(await redis.get(key)).toBe("x");
  });
});
