import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { RedisStreamBridge } from "../../src/stream/redis-stream-bridge.js";
import { streamBridgeConformance } from "../../src/testing/stream-bridge-conformance.js";
import { requireRedis, uniqueName } from "../support/services.js";

const url = await requireRedis();
const prefix = `${uniqueName("stream_conf")}:`;

async function dropKeys(redis: Redis, pattern: string): Promise<void> {
  let cursor = "0";
  do {
    const [next, keys] = await redis.scan(cursor, "MATCH", pattern, "COUNT", 1000);
    cursor = next;
    if (keys.length > 0) await redis.del(...keys);
  } while (cursor !== "0");
}

describe.skipIf(!url)("RedisStreamBridge conformance", () => {
  let admin: Redis;
  beforeAll(() => {
    admin = new Redis(url as string);
  });
  afterAll(async () => {
    await dropKeys(admin, `${prefix}*`);
    admin.disconnect();
  });

  it("uses a fresh key prefix", async () => {
    expect(await admin.keys(`${prefix}*`)).toEqual([]);
  });
});

if (url) {
  const runner = { describe, it, expect, beforeEach, afterEach };
  // Bridge owns its client (url), small retention.
  streamBridgeConformance({
    name: "RedisStreamBridge (url, maxEventsPerRun 16)",
    makeBridge: async () => ({
      bridge: new RedisStreamBridge({ url, keyPrefix: `${prefix}owned:`, maxEventsPerRun: 16 }),
    }),
    maxEventsPerRun: 16,
    ...runner,
  });
  // Caller-owned client, default retention.
  streamBridgeConformance({
    name: "RedisStreamBridge (caller's client, default retention)",
    makeBridge: async () => {
      const redis = new Redis(url);
      return {
        bridge: new RedisStreamBridge({ redis, keyPrefix: `${prefix}shared:` }),
        cleanup: async () => void (await redis.quit()),
      };
    },
    ...runner,
  });
}
