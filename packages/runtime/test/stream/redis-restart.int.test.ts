/**
 * No loss, no duplicates: a Redis restart (AOF, fsync always) and killed
 * connections in the middle of a steadily published stream, with a live
 * subscriber and one that keeps disconnecting and resuming from its last id.
 * Publishing is awaited event by event, or pipelined (many publishes in
 * flight, sent as batches) as the worker does. Each test runs against its own
 * throwaway `redis-server`.
 */
import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import { RedisStreamBridge } from "../../src/stream/redis-stream-bridge.js";
import type { StreamBridge } from "../../src/stream/stream-bridge.js";
import { canStartRedis, ThrowawayRedis, uniqueName } from "../support/services.js";

const EVENTS = 2_000;
const canRun = canStartRedis();

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Reads until the end; fails on a gap. Returns [i, id] of every event. */
async function readAll(bridge: StreamBridge, runId: string): Promise<Array<[number, string]>> {
  const got: Array<[number, string]> = [];
  for await (const item of bridge.subscribe(runId, { heartbeatMs: 250 })) {
    if (item.kind === "gap") throw new Error(`live subscriber got a gap: ${JSON.stringify(item)}`);
    if (item.kind === "end") return got;
    if (item.kind === "event") got.push([(item.data as { i: number }).i, item.id]);
  }
  throw new Error("the live subscription ended without an end item");
}

/** Reads a few events per connection, aborts, resumes from the last id; until the end. */
async function readResuming(
  bridge: StreamBridge,
  runId: string,
  onRound: () => void,
): Promise<Array<[number, string]>> {
  const got: Array<[number, string]> = [];
  let lastEventId: string | null = null;
  for (let round = 0; ; round++) {
    const controller = new AbortController();
    const quota = 37 + (round % 5) * 29;
    let read = 0;
    for await (const item of bridge.subscribe(runId, { lastEventId, heartbeatMs: 250, signal: controller.signal })) {
      if (item.kind === "gap") throw new Error(`resuming subscriber got a gap: ${JSON.stringify(item)}`);
      if (item.kind === "end") return got;
      if (item.kind !== "event") continue;
      got.push([(item.data as { i: number }).i, item.id]);
      lastEventId = item.id;
      if (++read >= quota) {
        controller.abort();
        break;
      }
    }
    onRound();
    await sleep(round % 3);
  }
}

function expectExactlyOnce(got: Array<[number, string]>, ids: string[], who: string): void {
  const indexes = got.map(([i]) => i);
  const firstWrong = indexes.findIndex((value, position) => value !== position);
  expect(firstWrong, `${who}: first out-of-sequence position (received ${indexes.length})`).toBe(-1);
  expect(indexes.length, `${who}: events received`).toBe(EVENTS);
  expect(
    got.map(([, id]) => id),
    `${who}: ids`,
  ).toEqual(ids);
}

describe.skipIf(!canRun)("RedisStreamBridge: no loss and no duplicates across failures", () => {
  const servers: ThrowawayRedis[] = [];
  const bridges: StreamBridge[] = [];
  afterEach(async () => {
    for (const bridge of bridges.splice(0)) await bridge.close();
    for (const server of servers.splice(0)) await server.destroy();
  });

  async function setup(
    appendOnly: boolean,
  ): Promise<{ server: ThrowawayRedis; publisher: RedisStreamBridge; reader: RedisStreamBridge; keyPrefix: string }> {
    const server = await ThrowawayRedis.start({ appendOnly });
    servers.push(server);
    const keyPrefix = `${uniqueName("restart")}:`;
    const options = {
      url: server.url,
      keyPrefix,
      maxEventsPerRun: 4_096,
      retry: { attempts: 20, baseDelayMs: 50, maxDelayMs: 1_000 },
    };
    const publisher = new RedisStreamBridge(options);
    const reader = new RedisStreamBridge(options);
    bridges.push(publisher, reader);
    return { server, publisher, reader, keyPrefix };
  }

  /** Publishes EVENTS events steadily, calling `disrupt` once at event 600; returns the ids. */
  async function publishSteadily(
    publisher: StreamBridge,
    runId: string,
    disrupt: () => Promise<void>,
  ): Promise<string[]> {
    const ids: string[] = [];
    let disruption: Promise<void> | undefined;
    for (let i = 0; i < EVENTS; i++) {
      ids.push(await publisher.publish(runId, "custom", { i }));
      if (i === 600) disruption = disrupt();
      if (i % 4 === 0) await sleep(1);
    }
    await disruption;
    await publisher.publishEnd(runId);
    return ids;
  }

  /** Like {@link publishSteadily} with up to 64 publishes in flight: they go to Redis in batches. */
  async function publishPipelined(
    publisher: StreamBridge,
    runId: string,
    disrupt: (issued: () => number) => Promise<void>,
  ): Promise<string[]> {
    const pending: Array<Promise<string>> = [];
    let disruption: Promise<void> | undefined;
    for (let i = 0; i < EVENTS; i++) {
      pending.push(publisher.publish(runId, "custom", { i }));
      if (i >= 63) await pending[i - 63];
      if (i === 600) disruption = disrupt(() => pending.length);
      if (i % 16 === 0) await sleep(1);
    }
    const ids = await Promise.all(pending);
    await disruption;
    await publisher.publishEnd(runId);
    return ids;
  }

  it(`${EVENTS} events published pipelined (batches in flight) while Redis restarts (AOF): exactly once, in order, then the end`, async () => {
    const { server, publisher, reader, keyPrefix } = await setup(true);
    const runId = "run-restart-pipelined";
    const live = readAll(reader, runId);
    const resuming = readResuming(reader, runId, () => undefined);
    let issuedByRestart = EVENTS;
    const ids = await publishPipelined(publisher, runId, async (issued) => {
      await server.restart(500);
      issuedByRestart = issued();
    });
    // The outage held the publisher back (at most 64 in flight): most events were published after it.
    expect(issuedByRestart).toBeLessThan(EVENTS);
    expect(ids.map((id) => Number(id.split("-")[1]))).toEqual(Array.from({ length: EVENTS }, (_, i) => i));
    expectExactlyOnce(await live, ids, "live subscriber");
    expectExactlyOnce(await resuming, ids, "resuming subscriber");
    const admin = new Redis(server.url);
    try {
      expect(await admin.xlen(`${keyPrefix}${runId}`)).toBe(EVENTS + 1);
    } finally {
      admin.disconnect();
    }
  }, 120_000);

  it(`${EVENTS} events published while Redis restarts (AOF) reach a live and a resuming subscriber exactly once, in order, then the end`, async () => {
    const { server, publisher, reader, keyPrefix } = await setup(true);
    const runId = "run-restart";
    let rounds = 0;
    const live = readAll(reader, runId);
    const resuming = readResuming(reader, runId, () => void rounds++);
    let restarted = false;
    const ids = await publishSteadily(publisher, runId, async () => {
      await server.restart(500);
      restarted = true;
    });
    expect(restarted).toBe(true);
    expect(new Set(ids).size).toBe(EVENTS);
    expectExactlyOnce(await live, ids, "live subscriber");
    expectExactlyOnce(await resuming, ids, "resuming subscriber");
    expect(rounds).toBeGreaterThan(10);

    const admin = new Redis(server.url);
    try {
      // Every event once plus the end marker: no retried append was written twice.
      expect(await admin.xlen(`${keyPrefix}${runId}`)).toBe(EVENTS + 1);
    } finally {
      admin.disconnect();
    }
  }, 120_000);

  it("connections killed mid-stream (CLIENT KILL TYPE normal, three times) lose and repeat nothing", async () => {
    const { server, publisher, reader, keyPrefix } = await setup(false);
    const runId = "run-kill";
    const admin = new Redis(server.url);
    try {
      const live = readAll(reader, runId);
      const resuming = readResuming(reader, runId, () => undefined);
      let killed = 0;
      const ids = await publishSteadily(publisher, runId, async () => {
        for (let k = 0; k < 3; k++) {
          // Kills every normal client but the admin's own connection (SKIPME yes is the default).
          killed += Number(await admin.call("CLIENT", "KILL", "TYPE", "normal"));
          await sleep(150);
        }
      });
      expect(killed).toBeGreaterThanOrEqual(3);
      expectExactlyOnce(await live, ids, "live subscriber");
      expectExactlyOnce(await resuming, ids, "resuming subscriber");
      expect(await admin.xlen(`${keyPrefix}${runId}`)).toBe(EVENTS + 1);
    } finally {
      admin.disconnect();
    }
  }, 120_000);
});
