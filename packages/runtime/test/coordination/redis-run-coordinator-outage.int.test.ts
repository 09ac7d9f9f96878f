/**
 * `RedisRunCoordinator` through Redis outages, on a throwaway `redis-server`
 * with AOF (a restart keeps the lease keys and their absolute expiry, like a
 * failover without data loss): an outage shorter than the lease is ridden out,
 * one longer than the lease fences the run.
 */
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { RedisRunCoordinator } from "../../src/coordination/redis-run-coordinator.js";
import type { Logger } from "../../src/logger.js";
import type { CancelAction } from "../../src/runs/types.js";
import { canStartRedis, pingRedis, ThrowawayRedis, uniqueName } from "../support/services.js";

const canStart = canStartRedis();
const prefix = `${uniqueName("coord_outage")}:`;

async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

type ClientKind = "queueing" | "fail-fast";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function capturingLogger(): Logger & { lines: { level: string; msg: string }[] } {
  const lines: { level: string; msg: string }[] = [];
  const at = (level: string) => (_obj: Record<string, unknown>, msg: string) => void lines.push({ level, msg });
  return { lines, debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

describe.skipIf(!canStart)("RedisRunCoordinator through Redis outages", () => {
  let server: ThrowawayRedis;
  const cleanups: (() => Promise<unknown>)[] = [];

  beforeAll(async () => {
    server = await ThrowawayRedis.start({ appendOnly: true });
  });
  afterEach(async () => {
    // A failed outage test must not leave the server down for the next one.
    if (server && !(await pingRedis("127.0.0.1", server.port))) await server.restart();
  });
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
    await server?.destroy();
  });

  /**
   * A coordinator on its own client that reconnects every 100 ms (so it is back soon after the server).
   * `queueing` clients hold commands while disconnected (renewals hang); fail-fast ones reject them at once.
   */
  function instance(
    leaseMs: number,
    logger?: Logger,
    client: ClientKind = "queueing",
    renewIntervalMs?: number,
  ): RedisRunCoordinator {
    const redis = new Redis(server.url, {
      retryStrategy: () => 100,
      ...(client === "queueing"
        ? { maxRetriesPerRequest: null }
        : { enableOfflineQueue: false, maxRetriesPerRequest: 0 }),
    });
    redis.on("error", () => {});
    const coordinator = new RedisRunCoordinator({
      redis,
      keyPrefix: prefix,
      leaseMs,
      instanceId: uniqueName("inst"),
      ...(logger ? { logger } : {}),
      ...(renewIntervalMs === undefined ? {} : { renewIntervalMs }),
    });
    cleanups.push(
      async () => redis.disconnect(),
      () => coordinator.close(),
    );
    return coordinator;
  }

  async function adminClient(): Promise<Redis> {
    const admin = new Redis(server.url, { retryStrategy: () => 100 });
    admin.on("error", () => {});
    cleanups.push(async () => admin.disconnect());
    return admin;
  }

  it.each<ClientKind>(["queueing", "fail-fast"])(
    "rides out an outage shorter than the lease (%s client): no loss, renewal and cancel delivery resume",
    async (client) => {
      // The outage lasts 1.5 s (queueing) or until a renewal has failed (fail-fast), plus Redis' start-up:
      // the lease leaves room for a loaded CI machine.
      const leaseMs = 6_000;
      const logger = capturingLogger();
      const a = instance(leaseMs, logger, client, 500);
      const b = instance(leaseMs);
      const lost: string[] = [];
      const cancels: [string, CancelAction][] = [];
      a.onLeaseLost((runId) => void lost.push(runId));
      a.onCancelRequest((runId, action) => void cancels.push([runId, action]));
      const runId = uniqueName("run");
      expect(await a.acquire(runId)).toBe(true);

      await server.stop();
      // A fail-fast client's renewal fails as soon as one is attempted: end the outage once one has (not
      // after a fixed time, which a stalled event loop can outlast); a queueing client's renewals just wait.
      if (client === "fail-fast")
        await waitFor(
          "a renewal failed during the outage",
          () => logger.lines.some((l) => /lease renewal failed/.test(l.msg)),
          leaseMs / 2,
        );
      else await sleep(1_500);
      await server.restart();

      // Past the lease's original expiry: only renewals after the restart can have kept it.
      await sleep(leaseMs + 1_000);
      expect(lost).toEqual([]);
      expect(await b.ownerOf(runId)).toBe(a.instanceId);
      expect(await b.acquire(runId)).toBe(false);
      expect(logger.lines.filter((l) => /lease lost/.test(l.msg))).toEqual([]);
      // The fail-fast client's renewals failed during the outage without the lease being declared lost.
      if (client === "fail-fast")
        expect(logger.lines.some((l) => /lease renewal succeeded again/.test(l.msg))).toBe(true);

      expect(await b.requestCancel(runId, "interrupt")).toBe("delivered");
      await waitFor("the owner saw the cancel request", () => cancels.length > 0);
      expect(cancels).toEqual([[runId, "interrupt"]]);
    },
    60_000,
  );

  it.each<ClientKind>(["queueing", "fail-fast"])(
    "fences a run when an outage outlasts the lease (%s client): onLeaseLost fires during the outage, once, and the lease is not revived",
    async (client) => {
      const leaseMs = 2_000;
      const a = instance(leaseMs, undefined, client);
      const lost: string[] = [];
      a.onLeaseLost((runId) => void lost.push(runId));
      const runId = uniqueName("run");
      const released = uniqueName("released");
      expect(await a.acquire(runId)).toBe(true);
      expect(await a.acquire(released)).toBe(true);
      await a.release(released);

      await server.stop();
      // Reported while Redis is still down: the owner must stop before anyone else may take the run.
      await waitFor("the lease was declared lost", () => lost.length > 0, leaseMs * 5);
      expect(lost).toEqual([runId]);

      await server.restart();
      const admin = await adminClient();
      const b = instance(leaseMs);
      await waitFor("the lease expired in Redis", async () => (await admin.exists(`${prefix}lease:${runId}`)) === 0);
      await sleep(leaseMs);
      expect(await b.ownerOf(runId)).toBeNull();
      expect(await b.acquire(runId)).toBe(true);
      expect(lost).toEqual([runId]);
      // A released run is not reported as lost, and A does not renew B's lease or fight over it.
      await sleep(leaseMs);
      expect(await b.ownerOf(runId)).toBe(b.instanceId);
      await expect(a.acquire(runId)).resolves.toBe(false);
    },
    60_000,
  );

  it("closes within the lease while Redis is down, leaving the leases to expire", async () => {
    const leaseMs = 1_500;
    const a = instance(leaseMs);
    const runId = uniqueName("run");
    expect(await a.acquire(runId)).toBe(true);
    await server.stop();
    try {
      await a.close();
      await expect(a.acquire(uniqueName("run"))).rejects.toMatchObject({ code: "CLOSED" });
    } finally {
      await server.restart();
    }
    const admin = await adminClient();
    await waitFor("the lease expired", async () => (await admin.exists(`${prefix}lease:${runId}`)) === 0);
  }, 60_000);
});
