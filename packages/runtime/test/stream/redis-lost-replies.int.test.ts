/**
 * Idempotent publishing, made deterministic: a proxy lets Redis execute an
 * append but cuts the connection instead of delivering the reply, so ioredis
 * resends it (or gives up and the bridge retries it). Each event must still be
 * written exactly once — also when the lost reply is that of a batch of many
 * events sent in one call (group commit).
 */
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Logger } from "../../src/logger.js";
import type { RedisStreamBridgeCommonOptions } from "../../src/stream/redis-bridge-options.js";
import { RedisStreamBridge } from "../../src/stream/redis-stream-bridge.js";
import type { StreamItem } from "../../src/stream/stream-bridge.js";
import { requireRedis, uniqueName } from "../support/services.js";
import { FlakyProxy } from "../support/stream/flaky-proxy.js";

const url = await requireRedis();
const prefix = `${uniqueName("stream_lost")}:`;

function countingLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  const noop = (): void => {};
  return { warnings, debug: noop, info: noop, error: noop, warn: (_obj, msg) => void warnings.push(msg) };
}

async function readAll(bridge: RedisStreamBridge, runId: string): Promise<StreamItem[]> {
  const items: StreamItem[] = [];
  for await (const item of bridge.subscribe(runId, { heartbeatMs: 200 })) {
    if (item.kind === "heartbeat") continue;
    items.push(item);
    if (item.kind !== "event") break;
  }
  return items;
}

describe.skipIf(!url)("RedisStreamBridge: lost replies are not written twice", () => {
  let admin: Redis;
  let proxy: FlakyProxy;
  const bridges: RedisStreamBridge[] = [];

  beforeAll(async () => {
    admin = new Redis(url as string);
  });
  afterEach(async () => {
    for (const bridge of bridges.splice(0)) await bridge.close();
    await proxy?.close();
  });
  afterAll(async () => {
    const keys = await admin.keys(`${prefix}*`);
    if (keys.length > 0) await admin.del(...keys);
    admin.disconnect();
  });

  function bridge(target: string, logger?: Logger, options: RedisStreamBridgeCommonOptions = {}): RedisStreamBridge {
    const created = new RedisStreamBridge({
      url: target,
      keyPrefix: prefix,
      retry: { attempts: 20, baseDelayMs: 20, maxDelayMs: 200 },
      ...(logger ? { logger } : {}),
      ...options,
    });
    bridges.push(created);
    return created;
  }

  it("an append whose reply is lost is resent by ioredis and written once", async () => {
    proxy = await FlakyProxy.start(url as string);
    const publisher = bridge(proxy.url);
    const runId = uniqueName("resent");
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) {
      if (i % 5 === 2) proxy.dropNextReplies(1);
      ids.push(await publisher.publish(runId, "custom", { i }));
    }
    proxy.dropNextReplies(1);
    await publisher.publishEnd(runId);
    expect(proxy.dropped).toBe(7);
    expect(await admin.xlen(`${prefix}${runId}`)).toBe(31);
    const items = await readAll(bridge(url as string), runId);
    expect(items).toEqual([
      ...ids.map((id, i) => ({ kind: "event", id, event: "custom", data: { i } })),
      { kind: "end" },
    ]);
  });

  it("an append retried by the bridge after ioredis gave up (connections refused) is written once", async () => {
    proxy = await FlakyProxy.start(url as string);
    const logger = countingLogger();
    const publisher = bridge(proxy.url, logger);
    const runId = uniqueName("retried");
    const ids = [await publisher.publish(runId, "custom", { i: 0 })];
    // The reply of event 1 is lost and the connection cut; reconnects are refused long enough
    // for ioredis (maxRetriesPerRequest 3) to fail the command, so the bridge's retry resends it.
    proxy.dropNextReplies(1);
    const outage = new Promise<void>((resolve) => setTimeout(resolve, 5)).then(() => proxy.refuseFor(1_500));
    ids.push(await publisher.publish(runId, "custom", { i: 1 }));
    await outage;
    ids.push(await publisher.publish(runId, "custom", { i: 2 }));
    await publisher.publishEnd(runId);
    expect(proxy.dropped).toBe(1);
    expect(logger.warnings.length, "bridge-level retries").toBeGreaterThan(0);
    expect(await admin.xlen(`${prefix}${runId}`)).toBe(4);
    const items = await readAll(bridge(url as string), runId);
    expect(items).toEqual([
      ...ids.map((id, i) => ({ kind: "event", id, event: "custom", data: { i } })),
      { kind: "end" },
    ]);
  });

  it("multi-event batches whose replies are lost are resent by ioredis: every event exactly once, in order", async () => {
    proxy = await FlakyProxy.start(url as string);
    const publisher = bridge(proxy.url);
    const runId = uniqueName("batch-resent");
    // Connection and scripts ready, so the next reply on the wire is the batch's.
    const ids = [await publisher.publish(runId, "custom", { i: 0 })];
    for (let round = 0; round < 6; round++) {
      if (round % 2 === 0) proxy.dropNextReplies(1);
      const from = ids.length;
      // Issued at once: they go out as one batch (up to 256 events per call).
      ids.push(
        ...(await Promise.all(
          Array.from({ length: 150 }, (_, k) => publisher.publish(runId, "custom", { i: from + k })),
        )),
      );
    }
    await publisher.publishEnd(runId);
    expect(proxy.dropped).toBe(3);
    expect(new Set(ids).size).toBe(ids.length);
    expect(await admin.xlen(`${prefix}${runId}`)).toBe(ids.length + 1);
    const items = await readAll(bridge(url as string), runId);
    expect(items).toEqual([
      ...ids.map((id, i) => ({ kind: "event", id, event: "custom", data: { i } })),
      { kind: "end" },
    ]);
  });

  it("a batch whose reply is lost and whose resend ioredis gives up on is retried by the bridge and written once", async () => {
    proxy = await FlakyProxy.start(url as string);
    const logger = countingLogger();
    const publisher = bridge(proxy.url, logger);
    const runId = uniqueName("batch-retried");
    const ids = [await publisher.publish(runId, "custom", { i: 0 })];
    proxy.dropNextReplies(1);
    const outage = new Promise<void>((resolve) => setTimeout(resolve, 5)).then(() => proxy.refuseFor(1_500));
    ids.push(
      ...(await Promise.all(Array.from({ length: 200 }, (_, k) => publisher.publish(runId, "custom", { i: 1 + k })))),
    );
    await outage;
    ids.push(await publisher.publish(runId, "custom", { i: ids.length }));
    await publisher.publishEnd(runId);
    expect(proxy.dropped).toBe(1);
    expect(logger.warnings.length, "bridge-level retries").toBeGreaterThan(0);
    expect(await admin.xlen(`${prefix}${runId}`)).toBe(ids.length + 1);
    const items = await readAll(bridge(url as string), runId);
    expect(items).toEqual([
      ...ids.map((id, i) => ({ kind: "event", id, event: "custom", data: { i } })),
      { kind: "end" },
    ]);
  });

  it("a lost reply of a batch longer than maxEventsPerRun (its first entries already trimmed) writes nothing twice", async () => {
    proxy = await FlakyProxy.start(url as string);
    const publisher = bridge(proxy.url, undefined, { maxEventsPerRun: 16 });
    const runId = uniqueName("batch-trimmed");
    const first = await publisher.publish(runId, "custom", { i: 0 });
    proxy.dropNextReplies(1);
    const ids = [
      first,
      ...(await Promise.all(Array.from({ length: 100 }, (_, k) => publisher.publish(runId, "custom", { i: 1 + k })))),
    ];
    await publisher.publishEnd(runId);
    expect(proxy.dropped).toBe(1);
    // Not rewritten after the top (that would also leave 16 entries, at seq 101 and later): seq is the event counter.
    expect(ids.map((id) => Number(id.split("-")[1]))).toEqual(Array.from({ length: 101 }, (_, i) => i));
    const entries = await admin.xrange(`${prefix}${runId}`, "-", "+");
    expect(entries.map(([id]) => id)).toEqual(ids.slice(-16).concat([entries[16]?.[0] as string]));
    expect(entries.map(([, fields]) => fields[5] ?? fields[1])).toEqual([
      ...ids.slice(-16).map((_, k) => JSON.stringify({ i: 85 + k })),
      "end",
    ]);
  });

  it("a subscriber whose reads lose their replies continues exactly after its last event", async () => {
    proxy = await FlakyProxy.start(url as string);
    const publisher = bridge(url as string);
    const subscriber = bridge(proxy.url);
    const runId = uniqueName("reader");
    let received = 0;
    const reading = (async () => {
      const items: StreamItem[] = [];
      for await (const item of subscriber.subscribe(runId, { heartbeatMs: 200 })) {
        if (item.kind === "heartbeat") continue;
        items.push(item);
        if (item.kind !== "event") break;
        received += 1;
      }
      return items;
    })();
    const ids: string[] = [];
    for (let i = 0; i < 200; i++) {
      if (i % 20 === 10) {
        // Once the subscriber has caught up it is parked in a read: the reply that would wake it is lost.
        while (received < i) await new Promise((resolve) => setTimeout(resolve, 2));
        proxy.dropNextReplies(1);
      }
      ids.push(await publisher.publish(runId, "custom", { i }));
    }
    await publisher.publishEnd(runId);
    expect(await reading).toEqual([
      ...ids.map((id, i) => ({ kind: "event", id, event: "custom", data: { i } })),
      { kind: "end" },
    ]);
    expect(proxy.dropped).toBe(10);
  });
});
