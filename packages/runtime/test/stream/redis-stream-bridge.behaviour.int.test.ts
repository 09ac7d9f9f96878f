/**
 * RedisStreamBridge specifics on a real Redis: the entry format, expiry, the
 * end marker at the cap, hand-written entries, several writers on one run,
 * errors that must not be retried, an unreachable server, and which
 * connections `close` and `abort` release.
 */
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { RuntimeError } from "../../src/errors.js";
import type { RedisStreamBridgeOptions } from "../../src/stream/redis-bridge-options.js";
import { RedisStreamBridge } from "../../src/stream/redis-stream-bridge.js";
import type { StreamItem } from "../../src/stream/stream-bridge.js";
import { capturingLogger } from "../support/capturing-logger.js";
import { requireRedis, uniqueName } from "../support/services.js";

const url = await requireRedis();
const prefix = `${uniqueName("stream_redis")}:`;

async function collect(iterable: AsyncIterable<StreamItem>, stopAfterHeartbeats = Infinity): Promise<StreamItem[]> {
  const items: StreamItem[] = [];
  let heartbeats = 0;
  for await (const item of iterable) {
    if (item.kind === "heartbeat") {
      if (++heartbeats >= stopAfterHeartbeats) break;
      continue;
    }
    items.push(item);
  }
  return items;
}

async function waitFor(probe: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.skipIf(!url)("RedisStreamBridge on Redis", () => {
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

  function bridge(options: Partial<RedisStreamBridgeOptions> = {}): RedisStreamBridge {
    const created = new RedisStreamBridge({
      url: url as string,
      keyPrefix: prefix,
      ...options,
    } as RedisStreamBridgeOptions);
    bridges.push(created);
    return created;
  }

  it("writes DeerFlow's entry format under explicit ids: {kind, event, data: compact JSON} and {kind: end}", async () => {
    const b = bridge();
    const runId = uniqueName("format");
    const first = await b.publish(runId, "metadata", { run_id: runId, thread_id: "t", nested: { a: [1, 2] } });
    const second = await b.publish(runId, "values", "plain");
    await b.publishEnd(runId);
    const entries = await admin.xrange(`${prefix}${runId}`, "-", "+");
    expect(entries.map(([id]) => id).slice(0, 2)).toEqual([first, second]);
    expect(entries.map(([, fields]) => fields)).toEqual([
      [
        "kind",
        "event",
        "event",
        "metadata",
        "data",
        JSON.stringify({ run_id: runId, thread_id: "t", nested: { a: [1, 2] } }),
      ],
      ["kind", "event", "event", "values", "data", '"plain"'],
      ["kind", "end"],
    ]);
    // ids are "<ms>-<seq>" with seq the event counter.
    expect(first).toMatch(/^\d+-0$/);
    expect(second).toMatch(/^\d+-1$/);
  });

  it("sets the expiry on publish and refreshes it on every publish and publishEnd; ttlSeconds 0 sets none", async () => {
    const b = bridge({ ttlSeconds: 100 });
    const runId = uniqueName("ttl");
    const key = `${prefix}${runId}`;
    await b.publish(runId, "custom", 1);
    const ttl = await admin.ttl(key);
    expect(ttl).toBeGreaterThan(90);
    expect(ttl).toBeLessThanOrEqual(100);
    await admin.expire(key, 5);
    await b.publish(runId, "custom", 2);
    expect(await admin.ttl(key)).toBeGreaterThan(90);
    await admin.expire(key, 5);
    await b.publishEnd(runId);
    expect(await admin.ttl(key)).toBeGreaterThan(90);
    await admin.expire(key, 5);
    await b.publishEnd(runId);
    expect(await admin.ttl(key), "an idempotent publishEnd refreshes too").toBeGreaterThan(90);

    const none = bridge({ ttlSeconds: 0 });
    const other = uniqueName("no-ttl");
    await none.publish(other, "custom", 1);
    await none.publishEnd(other);
    expect(await admin.ttl(`${prefix}${other}`)).toBe(-1);
  });

  it("keeps exactly maxEventsPerRun events; the end marker comes on top without evicting, and only once", async () => {
    const b = bridge({ maxEventsPerRun: 5 });
    const runId = uniqueName("cap");
    const key = `${prefix}${runId}`;
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push(await b.publish(runId, "custom", { i }));
    expect(await admin.xlen(key)).toBe(5);
    await b.publishEnd(runId);
    await b.publishEnd(runId);
    expect(await admin.xlen(key)).toBe(6);
    const entries = await admin.xrange(key, "-", "+");
    expect(entries.map(([id]) => id).slice(0, 5)).toEqual(ids.slice(2));
    expect(entries[5]?.[1]).toEqual(["kind", "end"]);
  });

  it("reads hand-written entries leniently: raw non-JSON data, missing event → message, missing data → null", async () => {
    const b = bridge();
    const runId = uniqueName("foreign");
    const key = `${prefix}${runId}`;
    const raw = await admin.xadd(key, "*", "kind", "event", "event", "custom", "data", "not json {");
    const noEvent = await admin.xadd(key, "*", "kind", "event", "data", '{"a":1}');
    const bare = await admin.xadd(key, "*", "foo", "bar");
    const odd = await admin.xadd(key, "*", "kind", "weird", "event", "", "data", "42");
    // This bridge has no state for the run: it continues after the hand-written top.
    const ours = await b.publish(runId, "values", { ok: true });
    await admin.xadd(key, "*", "kind", "end");
    expect(await collect(b.subscribe(runId))).toEqual([
      { kind: "event", id: raw, event: "custom", data: "not json {" },
      { kind: "event", id: noEvent, event: "message", data: { a: 1 } },
      { kind: "event", id: bare, event: "message", data: null },
      { kind: "event", id: odd, event: "message", data: 42 },
      { kind: "event", id: ours, event: "values", data: { ok: true } },
      { kind: "end" },
    ]);
  });

  it("several bridges publishing to one run lose nothing; a stateless publishEnd uses * and is idempotent", async () => {
    const [a, b] = [bridge(), bridge()];
    const runId = uniqueName("writers");
    const expected: Array<{ id: string; i: number }> = [];
    for (let i = 0; i < 20; i++) {
      const writer = i % 3 === 0 ? b : a;
      expected.push({ id: await writer.publish(runId, "custom", { i }), i });
    }
    for (let k = 1; k < expected.length; k++) {
      const [pm, ps] = (expected[k - 1]?.id as string).split("-").map(BigInt) as [bigint, bigint];
      const [cm, cs] = (expected[k]?.id as string).split("-").map(BigInt) as [bigint, bigint];
      expect(cm > pm || (cm === pm && cs > ps), `${expected[k]?.id} after ${expected[k - 1]?.id}`).toBe(true);
    }
    const c = bridge();
    await c.publishEnd(runId);
    await c.publishEnd(runId);
    await a.publishEnd(runId);
    expect(await admin.xlen(`${prefix}${runId}`)).toBe(21);
    const items = await collect(c.subscribe(runId));
    expect(items).toEqual([
      ...expected.map(({ id, i }) => ({ kind: "event", id, event: "custom", data: { i } })),
      { kind: "end" },
    ]);
  });

  it("does not retry reply errors: a key of the wrong type fails publish and subscribe at once with BRIDGE_UNAVAILABLE", async () => {
    const warnings: string[] = [];
    const noop = (): void => {};
    const b = bridge({ logger: { debug: noop, info: noop, error: noop, warn: (_o, msg) => void warnings.push(msg) } });
    const runId = uniqueName("wrongtype");
    await admin.set(`${prefix}${runId}`, "a string, not a stream");
    const error = await b.publish(runId, "custom", 1).catch((e: unknown) => e);
    expect(RuntimeError.isInstance(error) && error.code).toBe("BRIDGE_UNAVAILABLE");
    expect((error as RuntimeError).details).toMatchObject({ attempts: 1, transient: false });
    expect(String(((error as RuntimeError).cause as Error).message)).toContain("WRONGTYPE");
    const subscribeError = await collect(b.subscribe(runId)).catch((e: unknown) => e);
    expect(RuntimeError.isInstance(subscribeError) && subscribeError.code).toBe("BRIDGE_UNAVAILABLE");
    expect(warnings).toEqual([]);
  });

  it("fails with BRIDGE_UNAVAILABLE after the retry budget when Redis is unreachable", async () => {
    const dead = new RedisStreamBridge({
      url: "redis://127.0.0.1:1",
      keyPrefix: prefix,
      retry: { attempts: 2, baseDelayMs: 10, maxDelayMs: 20 },
    });
    bridges.push(dead);
    const error = await dead.publish("run", "custom", 1).catch((e: unknown) => e);
    expect(RuntimeError.isInstance(error) && error.code).toBe("BRIDGE_UNAVAILABLE");
    expect((error as RuntimeError).message).toContain("after 2 attempt(s)");
    const subscribeError = await collect(dead.subscribe("run", { heartbeatMs: 50 })).catch((e: unknown) => e);
    expect(RuntimeError.isInstance(subscribeError) && subscribeError.code).toBe("BRIDGE_UNAVAILABLE");
  }, 60_000);

  it("close disconnects the subscribers' dedicated connections and leaves a caller's client open; abort releases one", async () => {
    const name = uniqueName("conn");
    const client = new Redis(url as string, { connectionName: name });
    clients.push(client);
    const b = new RedisStreamBridge({ redis: client, keyPrefix: prefix });
    const countNamed = async (): Promise<number> =>
      String(await admin.call("CLIENT", "LIST"))
        .split("\n")
        .filter((line: string) => line.includes(`name=${name} `)).length;
    const runId = uniqueName("close");
    await b.publish(runId, "custom", 0);
    const controllers = [new AbortController(), new AbortController(), new AbortController()];
    const runs = controllers.map((controller) => collect(b.subscribe(runId, { signal: controller.signal })));
    await waitFor(async () => (await countNamed()) === 4);
    controllers[0]?.abort();
    expect((await runs[0])?.length).toBe(1);
    await waitFor(async () => (await countNamed()) === 3);
    await b.close();
    expect(await Promise.all(runs.slice(1))).toEqual([expect.any(Array), expect.any(Array)]);
    await waitFor(async () => (await countNamed()) === 1);
    expect(await client.ping()).toBe("PONG");
    expect(() => b.subscribe(runId)).toThrow(RuntimeError);
  });

  it("quits the client it created from a url on close", async () => {
    const b = new RedisStreamBridge({ url: url as string, keyPrefix: prefix });
    await b.publish(uniqueName("owned"), "custom", 1);
    const client = (b as unknown as { redis: Redis }).redis;
    expect(client.status).toBe("ready");
    await b.close();
    await b.close();
    await waitFor(async () => client.status === "end");
  });

  it("a subscriber whose stream is deleted after it received events ends with a gap; one that received none keeps waiting", async () => {
    const b = bridge();
    const runId = uniqueName("deleted");
    const id = await b.publish(runId, "custom", 0);
    const items: StreamItem[] = [];
    const reading = (async () => {
      for await (const item of b.subscribe(runId, { heartbeatMs: 100 })) items.push(item);
    })();
    await waitFor(async () => items.length > 0);
    await b.cleanup(runId);
    await reading;
    expect(items.filter((item) => item.kind !== "heartbeat")).toEqual([
      { kind: "event", id, event: "custom", data: 0 },
      { kind: "gap", runId, requestedEventId: id, earliestAvailableEventId: null, latestAvailableEventId: null },
    ]);
    // Waiting for a (re-)created stream: only heartbeats until aborted.
    const controller = new AbortController();
    const waiting = collect(b.subscribe(runId, { heartbeatMs: 50, lastEventId: id, signal: controller.signal }), 3);
    expect(await waiting).toEqual([]);
  });

  it("a subscriber that paused while more than a read's worth of events arrived catches up without a gap while its cursor is retained", async () => {
    const b = bridge({ maxEventsPerRun: 100 });
    const runId = uniqueName("catch-up");
    const ids = [await b.publish(runId, "custom", 0)];
    const iterator = b.subscribe(runId, { heartbeatMs: 5_000 })[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toMatchObject({ kind: "event", id: ids[0] });
    // 80 more (the retention keeps all 81): the next blocking read is full (64) but the cursor is retained.
    for (let i = 1; i <= 80; i++) ids.push(await b.publish(runId, "custom", i));
    await b.publishEnd(runId);
    const rest: StreamItem[] = [];
    for (let r = await iterator.next(); r.done !== true; r = await iterator.next()) rest.push(r.value);
    expect(rest).toEqual([
      ...ids.slice(1).map((id, k) => ({ kind: "event", id, event: "custom", data: k + 1 })),
      { kind: "end" },
    ]);
  });

  it("a paused subscriber whose cursor was trimmed gets the gap from a full read's bounds check", async () => {
    const b = bridge({ maxEventsPerRun: 64 });
    const runId = uniqueName("trimmed");
    const ids = [await b.publish(runId, "custom", 0)];
    const iterator = b.subscribe(runId, { heartbeatMs: 5_000 })[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toMatchObject({ kind: "event", id: ids[0] });
    for (let i = 1; i <= 70; i++) ids.push(await b.publish(runId, "custom", i));
    expect((await iterator.next()).value).toEqual({
      kind: "gap",
      runId,
      requestedEventId: ids[0],
      earliestAvailableEventId: ids[7],
      latestAvailableEventId: ids[70],
    });
    expect((await iterator.next()).done).toBe(true);
  });

  it("logs a subscriber that fell behind (run, subscriber, how far) and counts it in stats()", async () => {
    const logger = capturingLogger();
    const b = bridge({ maxEventsPerRun: 8, logger });
    const runId = uniqueName("behind");
    const ids = [await b.publish(runId, "custom", 0)];
    const iterator = b.subscribe(runId, { heartbeatMs: 5_000, subscriber: "req-9" })[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toMatchObject({ kind: "event", id: ids[0] });
    for (let i = 1; i <= 20; i++) ids.push(await b.publish(runId, "custom", i));
    expect((await iterator.next()).value).toEqual({
      kind: "gap",
      runId,
      requestedEventId: ids[0],
      earliestAvailableEventId: ids[13],
      latestAvailableEventId: ids[20],
    });
    expect((await iterator.next()).done).toBe(true);

    const warnings = logger.lines.filter((line) => line.level === "warn");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.msg).toMatch(/^RedisStreamBridge: a subscriber fell further behind/);
    expect(warnings[0]?.obj).toMatchObject({
      runId,
      subscriber: "req-9",
      reason: "slowSubscriber",
      lastEventId: ids[0],
      eventsBehind: 20,
      missedEvents: 12,
    });
    expect(b.stats()).toEqual({ gaps: { slowSubscriber: 1, staleCursor: 0, streamDeleted: 0 } });

    expect(await collect(b.subscribe(runId, { lastEventId: ids[1] as string }))).toHaveLength(1);
    expect(b.stats().gaps.staleCursor).toBe(1);
    expect(logger.lines.at(-1)).toMatchObject({
      level: "info",
      obj: { reason: "staleCursor", lastEventId: ids[1], missedEvents: 11 },
    });
  });

  it("a from-start subscriber woken by a burst of entries written in one transaction receives all of them", async () => {
    const b = bridge({ maxEventsPerRun: 200 });
    const runId = uniqueName("burst");
    const key = `${prefix}${runId}`;
    const reading = collect(b.subscribe(runId, { heartbeatMs: 5_000 }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const burst = admin.multi();
    for (let i = 0; i < 150; i++) burst.xadd(key, "*", "kind", "event", "event", "custom", "data", JSON.stringify(i));
    burst.xadd(key, "*", "kind", "end");
    await burst.exec();
    const items = await reading;
    expect(items.map((item) => (item.kind === "event" ? item.data : item.kind))).toEqual([
      ...Array.from({ length: 150 }, (_, i) => i),
      "end",
    ]);
  });

  it("a cursor at the largest possible id waits instead of failing", async () => {
    const b = bridge();
    const runId = uniqueName("max-id");
    await b.publish(runId, "custom", 0);
    const max = "18446744073709551615-18446744073709551615";
    expect(await collect(b.subscribe(runId, { lastEventId: max, heartbeatMs: 50 }), 2)).toEqual([]);
  });

  it("rejects bad options with CONFIG_INVALID", () => {
    const code = (fn: () => unknown): unknown => {
      try {
        fn();
      } catch (error) {
        return RuntimeError.isInstance(error) ? error.code : error;
      }
      return "no error";
    };
    expect(code(() => new RedisStreamBridge({} as RedisStreamBridgeOptions))).toBe("CONFIG_INVALID");
    expect(
      code(() => new RedisStreamBridge({ url: "redis://x", redis: admin } as unknown as RedisStreamBridgeOptions)),
    ).toBe("CONFIG_INVALID");
    expect(code(() => new RedisStreamBridge({ redis: admin, maxEventsPerRun: 0 }))).toBe("CONFIG_INVALID");
    expect(code(() => new RedisStreamBridge({ redis: admin, ttlSeconds: -1 }))).toBe("CONFIG_INVALID");
    expect(code(() => new RedisStreamBridge({ redis: admin, retry: { attempts: 0 } }))).toBe("CONFIG_INVALID");
    expect(code(() => new RedisStreamBridge({ redis: admin, heartbeatMs: 1.5 }))).toBe("CONFIG_INVALID");
  });

  it("forgets a run's publisher state once it ended", async () => {
    const b = bridge();
    const writers = (b as unknown as { publisher: { writers: Map<string, unknown> } }).publisher.writers;
    const runId = uniqueName("state");
    await b.publish(runId, "custom", 0);
    expect(writers.has(runId)).toBe(true);
    await b.publishEnd(runId);
    expect(writers.has(runId)).toBe(false);
  });
});
