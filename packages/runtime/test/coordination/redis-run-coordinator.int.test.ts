/**
 * `RedisRunCoordinator` against a real Redis: the conformance kit (each
 * coordinator with its own client, like separate processes), the documented
 * key layout, hostile input on the cancel channel and a cancel published while
 * the owner's subscriber connection was down.
 */
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RedisRunCoordinator } from "../../src/coordination/redis-run-coordinator.js";
import type { Logger } from "../../src/logger.js";
import type { CancelAction } from "../../src/runs/types.js";
import { runCoordinatorConformance } from "../../src/testing/run-coordinator-conformance.js";
import { requireRedis, uniqueName } from "../support/services.js";

const url = await requireRedis();
const prefix = `${uniqueName("coord")}:`;

let admin: Redis;
beforeAll(() => {
  if (url) admin = new Redis(url);
});
afterAll(async () => {
  if (!admin) return;
  await deleteKeys(admin, `${prefix}*`);
  await admin.quit();
});

async function deleteKeys(redis: Redis, pattern: string): Promise<void> {
  let cursor = "0";
  do {
    const [next, keys] = await redis.scan(cursor, "MATCH", pattern, "COUNT", 500);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
  } while (cursor !== "0");
}

if (url) {
  runCoordinatorConformance({
    name: "RedisRunCoordinator",
    makeCoordinators: async (count, { leaseMs }) => {
      const clients = Array.from({ length: count }, () => new Redis(url));
      const coordinators = clients.map(
        (redis, i) =>
          new RedisRunCoordinator({ redis, keyPrefix: prefix, leaseMs, instanceId: `${uniqueName("inst")}-${i}` }),
      );
      return {
        coordinators,
        breakLease: async (runId) => void (await admin.del(`${prefix}lease:${runId}`)),
        cleanup: async () => void (await Promise.all(clients.map((c) => c.quit()))),
      };
    },
    describe,
    it,
    expect,
  });
}

function capturingLogger(): Logger & { lines: { level: string; msg: string; obj: Record<string, unknown> }[] } {
  const lines: { level: string; msg: string; obj: Record<string, unknown> }[] = [];
  const at = (level: string) => (obj: Record<string, unknown>, msg: string) => void lines.push({ level, msg, obj });
  return { lines, debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!url)("RedisRunCoordinator on Redis", () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  });

  /** A coordinator on its own caller-owned client (closed after the file). */
  function instance(options: { leaseMs?: number; logger?: Logger; retryStrategy?: () => number } = {}): {
    coordinator: RedisRunCoordinator;
    redis: Redis;
  } {
    const redis = new Redis(url!, options.retryStrategy ? { retryStrategy: options.retryStrategy } : {});
    const coordinator = new RedisRunCoordinator({
      redis,
      keyPrefix: prefix,
      leaseMs: options.leaseMs ?? 1_500,
      instanceId: uniqueName("inst"),
      ...(options.logger ? { logger: options.logger } : {}),
    });
    cleanups.push(
      () => redis.quit(),
      () => coordinator.close(),
    );
    return { coordinator, redis };
  }

  async function subscriberIds(instanceId: string): Promise<string[]> {
    const list = String(await admin.client("LIST"));
    return list
      .split("\n")
      .filter((line) => line.includes(` name=deerflow-coordinator:${instanceId} `))
      .map((line) => /(?:^|\s)id=(\d+)/.exec(line)?.[1] ?? "")
      .filter(Boolean);
  }

  async function subscribers(channel: string): Promise<number> {
    const reply = (await admin.pubsub("NUMSUB", channel)) as [string, number];
    return Number(reply[1]);
  }

  it("keeps the documented key layout: lease = owner with PX lease, durable request with PX 2×lease, release drops both", async () => {
    const { coordinator: a } = instance({ leaseMs: 3_000 });
    const { coordinator: b } = instance({ leaseMs: 3_000 });
    const runId = uniqueName("run");
    expect(await a.acquire(runId)).toBe(true);
    expect(await admin.get(`${prefix}lease:${runId}`)).toBe(a.instanceId);
    const leaseTtl = await admin.pttl(`${prefix}lease:${runId}`);
    expect(leaseTtl).toBeGreaterThan(0);
    expect(leaseTtl).toBeLessThanOrEqual(3_000);
    expect(await b.requestCancel(runId, "rollback")).toBe("delivered");
    expect(await admin.get(`${prefix}cancel:${runId}`)).toBe("rollback");
    const requestTtl = await admin.pttl(`${prefix}cancel:${runId}`);
    expect(requestTtl).toBeGreaterThan(3_000);
    expect(requestTtl).toBeLessThanOrEqual(6_000);
    expect(await b.claimRecovery(runId, 5_000)).toBe(true);
    expect(await admin.get(`${prefix}recover:${runId}`)).toBe(b.instanceId);
    await a.release(runId);
    expect(await admin.exists(`${prefix}lease:${runId}`, `${prefix}cancel:${runId}`)).toBe(0);
  });

  it("delivers a cancel published while the owner's subscriber connection was killed, through the durable request", async () => {
    // The owner's connections reconnect only after 4 s, so the publish surely finds nobody listening.
    const { coordinator: a } = instance({ leaseMs: 1_500, retryStrategy: () => 4_000 });
    const { coordinator: b } = instance();
    const channel = `${prefix}cancel:${a.instanceId}`;
    const calls: [string, CancelAction][] = [];
    a.onCancelRequest((runId, action) => void calls.push([runId, action]));
    const runId = uniqueName("run");
    expect(await a.acquire(runId)).toBe(true);
    await waitFor("A subscribed", async () => (await subscribers(channel)) === 1);

    const ids = await subscriberIds(a.instanceId);
    expect(ids).toHaveLength(1);
    await admin.client("KILL", "ID", ids[0]!);
    await waitFor("A's subscriber is gone", async () => (await subscribers(channel)) === 0);
    expect(await b.requestCancel(runId, "interrupt")).toBe("delivered");
    expect(await subscribers(channel)).toBe(0);

    await waitFor("the owner saw the request", () => calls.length > 0);
    expect(calls).toEqual([[runId, "interrupt"]]);

    // ioredis resubscribes after reconnecting: later requests arrive by message again, once each.
    await waitFor("A resubscribed", async () => (await subscribers(channel)) === 1);
    const next = uniqueName("run");
    expect(await a.acquire(next)).toBe(true);
    expect(await b.requestCancel(next, "rollback")).toBe("delivered");
    await waitFor("the second request arrived", () => calls.length > 1);
    await sleep(1_500);
    expect(calls).toEqual([
      [runId, "interrupt"],
      [next, "rollback"],
    ]);
  }, 60_000);

  it("ignores malformed messages on its cancel channel and malformed durable requests, and keeps working", async () => {
    const logger = capturingLogger();
    const { coordinator: a } = instance({ logger });
    const { coordinator: b } = instance();
    const channel = `${prefix}cancel:${a.instanceId}`;
    const calls: [string, CancelAction][] = [];
    a.onCancelRequest((runId, action) => void calls.push([runId, action]));
    const runId = uniqueName("run");
    const foreign = uniqueName("run");
    expect(await a.acquire(runId)).toBe(true);
    await waitFor("A subscribed", async () => (await subscribers(channel)) === 1);

    await admin.publish(channel, "not json");
    await admin.publish(channel, JSON.stringify({ runId, action: "explode" }));
    await admin.publish(channel, JSON.stringify({ runId: 7, action: "interrupt" }));
    await admin.publish(channel, JSON.stringify(null));
    // A well-formed request for a run A does not hold is not A's business.
    await admin.publish(channel, JSON.stringify({ runId: foreign, action: "interrupt" }));
    await admin.set(`${prefix}cancel:${runId}`, "garbage", "PX", 10_000);
    // Wait for the warnings rather than a fixed time: on a loaded machine the messages can take longer than any sleep.
    const malformed = () => logger.lines.filter((l) => l.level === "warn" && /malformed/.test(l.msg)).length;
    await waitFor("four malformed messages were reported", () => malformed() >= 4);
    expect(calls).toEqual([]);

    await admin.del(`${prefix}cancel:${runId}`);
    expect(await b.requestCancel(runId, "rollback")).toBe("delivered");
    await waitFor("the valid request arrived", () => calls.length > 0);
    expect(calls).toEqual([[runId, "rollback"]]);
  });

  it("handles run ids with separators, spaces and unicode as opaque", async () => {
    const { coordinator: a } = instance();
    const { coordinator: b } = instance();
    const calls: string[] = [];
    a.onCancelRequest((runId) => void calls.push(runId));
    for (const runId of ["a:b:c", "with space", "ünï‹code›", '"quoted"\n']) {
      expect(await a.acquire(runId + uniqueName(""))).toBe(true);
    }
    const weird = `lease:${uniqueName("x")} "}`;
    expect(await a.acquire(weird)).toBe(true);
    expect(await b.ownerOf(weird)).toBe(a.instanceId);
    expect(await b.requestCancel(weird, "interrupt")).toBe("delivered");
    await waitFor("the request arrived", () => calls.length > 0);
    expect(calls).toEqual([weird]);
  });

  it("a coordinator created from a url owns and closes its connections; a caller's client stays open", async () => {
    const owned = new RedisRunCoordinator({
      url: url!,
      keyPrefix: prefix,
      leaseMs: 1_500,
      instanceId: uniqueName("owned"),
    });
    const { coordinator: borrowed, redis } = instance();
    const runId = uniqueName("run");
    expect(await owned.acquire(runId)).toBe(true);
    expect(await borrowed.acquire(uniqueName("run"))).toBe(true);
    await waitFor(
      "both subscribed",
      async () =>
        (await subscriberIds(owned.instanceId)).length === 1 && (await subscriberIds(borrowed.instanceId)).length === 1,
    );
    await owned.close();
    await borrowed.close();
    expect(await admin.get(`${prefix}lease:${runId}`)).toBeNull();
    await waitFor(
      "subscriber connections closed",
      async () =>
        (await subscriberIds(owned.instanceId)).length + (await subscriberIds(borrowed.instanceId)).length === 0,
    );
    expect(await redis.ping()).toBe("PONG");
    await expect(owned.ownerOf(runId)).rejects.toMatchObject({ code: "CLOSED" });
  });
});
