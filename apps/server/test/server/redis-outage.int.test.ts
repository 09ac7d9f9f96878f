/**
 * What a client sees while the server's Redis is down (a throwaway
 * `redis-server` the test stops): a new run is answered 503 with `Retry-After`
 * once `DEERFLOW_COORDINATOR_TIMEOUT_SECONDS` has passed, instead of waiting for
 * Redis to come back; requests that do not need Redis keep working.
 */
import { afterAll, describe, expect, it } from "vitest";
import { LEAD_AGENT_ASSISTANT_ID } from "../../src/server/create-server.js";
import { tempDirs } from "../support/temp-dir.js";
import { canStartRedisServer, startThrowawayRedis, type ThrowawayRedis } from "../support/throwaway-redis.js";
import { HOST_BASH_CONFIG, startServer } from "../support/server-harness.js";

const temp = tempDirs();
const servers: ThrowawayRedis[] = [];
afterAll(async () => {
  for (const redis of servers) await redis.destroy();
  await temp.cleanup();
});

describe.skipIf(!canStartRedisServer())("the server while Redis is down", () => {
  it("answers a new run 503 with Retry-After after the coordinator timeout", async () => {
    const redis = await startThrowawayRedis();
    servers.push(redis);
    const dir = await temp.make();
    const config = `${HOST_BASH_CONFIG}runtime:\n  stream_bridge:\n    type: redis\n    redis_url: ${redis.url}\n`;
    const { server, url, client } = await startServer(dir, config, { deployment: { coordinatorTimeoutMs: 500 } });
    try {
      const thread = await client.threads.create();
      await redis.stop();

      const startedAt = performance.now();
      const res = await fetch(`${url}/api/threads/${thread.thread_id}/runs`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          assistant_id: LEAD_AGENT_ASSISTANT_ID,
          input: { messages: [{ role: "user", content: "Hello" }] },
        }),
      });
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("5");
      expect(await res.json()).toEqual({ detail: "Service Unavailable" });
      // Bounded by the coordinator timeout, not by the outage (a generous allowance for a loaded machine).
      expect(performance.now() - startedAt).toBeLessThan(10_000);
      // The thread is untouched: no run was admitted.
      expect(await client.runs.list(thread.thread_id)).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
