/**
 * `RedisRunCoordinator` when it closes while its subscriber connection is
 * re-subscribing after a reconnect. ioredis' own automatic resubscription sends
 * SUBSCRIBE with nobody listening for its outcome, so a close at that moment
 * used to surface as an unhandled rejection (`Connection is closed.`), which
 * crashes a Node server. A proxy holds the SUBSCRIBE reply back so the moment
 * is reached on purpose, not by timing.
 */
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { RedisRunCoordinator } from "../../src/coordination/redis-run-coordinator.js";
import type { Logger } from "../../src/logger.js";
import { HoldingProxy } from "../support/holding-proxy.js";
import { requireRedis, uniqueName } from "../support/services.js";

const redisUrl = await requireRedis();

async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function capturingLogger(): Logger & { lines: { level: string; msg: string }[] } {
  const lines: { level: string; msg: string }[] = [];
  const at = (level: string) => (_obj: Record<string, unknown>, msg: string) => void lines.push({ level, msg });
  return { lines, debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

describe.skipIf(redisUrl === null)("RedisRunCoordinator across subscriber reconnects", () => {
  let proxy: HoldingProxy;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown): void => void unhandled.push(reason);

  beforeAll(async () => {
    const url = new URL(redisUrl as string);
    proxy = await HoldingProxy.start({ host: url.hostname, port: Number(url.port || 6379) });
    process.on("unhandledRejection", onUnhandled);
  });
  afterEach(() => {
    unhandled.length = 0;
  });
  afterAll(async () => {
    process.off("unhandledRejection", onUnhandled);
    await proxy?.close();
  });

  async function subscribedCoordinator(logger?: Logger): Promise<RedisRunCoordinator> {
    const coordinator = new RedisRunCoordinator({
      url: proxy.url,
      keyPrefix: `${uniqueName("reconnect")}:`,
      leaseMs: 2_000,
      ...(logger ? { logger } : {}),
    });
    // acquire() waits for the first subscription (bounded), so the channel is live afterwards.
    const admin = new Redis(redisUrl as string);
    try {
      await waitFor("the cancel channel has its subscriber", async () => {
        const counts = (await admin.call(
          "PUBSUB",
          "NUMSUB",
          `${(coordinator as unknown as { channel: string }).channel}`,
        )) as [string, number];
        return Number(counts[1]) === 1;
      });
    } finally {
      admin.disconnect();
    }
    return coordinator;
  }

  it("closes without an unhandled rejection while a resubscription is unanswered", async () => {
    const logger = capturingLogger();
    const coordinator = await subscribedCoordinator(logger);
    proxy.holdRepliesAfter("subscribe");
    const heldBefore = proxy.heldConnections;
    proxy.dropAll();
    await waitFor("the subscriber re-sent SUBSCRIBE after reconnecting", () => proxy.heldConnections > heldBefore);
    await coordinator.close();
    // Unhandled rejections are reported after the microtask queue drains.
    await new Promise((r) => setTimeout(r, 100));
    expect(unhandled).toEqual([]);
  });

  it("resubscribes after a reconnect: a cancel request published later is delivered", async () => {
    proxy.holdRepliesAfter("__nothing__");
    const logger = capturingLogger();
    const owner = await subscribedCoordinator(logger);
    const requester = new RedisRunCoordinator({
      url: redisUrl as string,
      keyPrefix: (owner as unknown as { prefix: string }).prefix,
      leaseMs: 2_000,
    });
    try {
      const runId = uniqueName("run");
      const delivered: string[] = [];
      owner.onCancelRequest((id) => void delivered.push(id));
      expect(await owner.acquire(runId)).toBe(true);
      proxy.dropAll();
      const admin = new Redis(redisUrl as string);
      try {
        const channel = (owner as unknown as { channel: string }).channel;
        await waitFor(
          "the subscriber is back on its channel",
          async () => Number(((await admin.call("PUBSUB", "NUMSUB", channel)) as [string, number])[1]) === 1,
        );
      } finally {
        admin.disconnect();
      }
      expect(await requester.requestCancel(runId, "interrupt")).toBe("delivered");
      await waitFor("the cancel request reached the owner", () => delivered.length === 1);
      expect(unhandled).toEqual([]);
    } finally {
      await requester.close();
      await owner.close();
    }
  });
});
