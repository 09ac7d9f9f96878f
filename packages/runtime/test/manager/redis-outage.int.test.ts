/**
 * The run manager while its Redis is down, on a throwaway `redis-server` that
 * the tests stop: a new run is refused with `STORE_UNAVAILABLE` once
 * `coordinatorTimeoutMs` has passed (not when Redis comes back), and a run that
 * must publish fails once the bridge's `operationTimeoutMs` has passed. The
 * clients hold commands for the whole outage (`maxRetriesPerRequest: null`),
 * the worst case a caller's client can be configured for.
 */
import { randomUUID } from "node:crypto";
import { Annotation, END, MemorySaver, START, StateGraph, type LangGraphRunnableConfig } from "@langchain/langgraph";
import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import { RedisRunCoordinator } from "../../src/coordination/redis-run-coordinator.js";
import { RuntimeError } from "../../src/errors.js";
import { RunManager } from "../../src/manager/run-manager.js";
import { RedisStreamBridge } from "../../src/stream/redis-stream-bridge.js";
import type { GraphFactory } from "../../src/worker/types.js";
import { canStartRedis, pingRedis, ThrowawayRedis, uniqueName } from "../support/services.js";
import { workGraphFactory } from "../support/manager/graphs.js";

const canStart = canStartRedis();

/** Bounds a wait that must end well before the test's own timeout, so a hang fails with a message. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms)),
  );
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** A graph that emits `started`, waits for `gate`, then emits `after`: the test decides when it publishes. */
function gatedGraph(gate: Promise<void>): GraphFactory {
  const State = Annotation.Root({ log: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }) });
  return ({ checkpointer }) =>
    new StateGraph(State)
      .addNode("work", async (_state, config: LangGraphRunnableConfig) => {
        config.writer?.({ phase: "started" });
        await gate;
        config.writer?.({ phase: "after" });
        return { log: ["done"] };
      })
      .addEdge(START, "work")
      .addEdge("work", END)
      .compile(checkpointer === undefined ? {} : { checkpointer });
}

/** A coordinator that records the leases it has released (once the release settled). */
class RecordingCoordinator extends RedisRunCoordinator {
  readonly released: string[] = [];
  override async release(runId: string): Promise<void> {
    await super.release(runId);
    this.released.push(runId);
  }
}

describe.skipIf(!canStart)("RunManager while Redis is down", () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
  });

  async function deployment(options: {
    coordinatorTimeoutMs: number;
    operationTimeoutMs: number;
    gate?: Promise<void>;
  }) {
    const server = await ThrowawayRedis.start();
    cleanups.push(() => server.destroy());
    const redis = new Redis(server.url, { maxRetriesPerRequest: null, retryStrategy: () => 100 });
    redis.on("error", () => {});
    cleanups.push(async () => redis.disconnect());
    const prefix = `${uniqueName("outage")}:`;
    const bridge = new RedisStreamBridge({
      redis,
      keyPrefix: `${prefix}stream:`,
      operationTimeoutMs: options.operationTimeoutMs,
    });
    const coordinator = new RecordingCoordinator({ redis, keyPrefix: `${prefix}runtime:`, leaseMs: 60_000 });
    const manager = new RunManager({
      graphs: { work: workGraphFactory(), gated: gatedGraph(options.gate ?? Promise.resolve()) },
      bridge,
      coordinator,
      checkpointer: new MemorySaver(),
      coordinatorTimeoutMs: options.coordinatorTimeoutMs,
    });
    cleanups.push(
      () => bridge.close(),
      () => coordinator.close(),
      () => manager.shutdown({ drain: false, timeoutMs: 2_000 }),
    );
    await manager.start();
    return { server, redis, manager, coordinator, prefix };
  }

  it("refuses a new run with STORE_UNAVAILABLE after coordinatorTimeoutMs, and hands back a lease taken once Redis is back", async () => {
    const { server, redis, manager, coordinator, prefix } = await deployment({
      coordinatorTimeoutMs: 300,
      operationTimeoutMs: 15_000,
    });
    await server.stop();
    expect(await pingRedis("127.0.0.1", server.port)).toBe(false);

    const refused = await within(
      manager.create({ threadId: randomUUID(), assistantId: "work", input: { log: ["a"] } }).catch((e: unknown) => e),
      20_000,
      "create() while Redis is down",
    );
    expect(RuntimeError.isInstance(refused) && refused.code).toBe("STORE_UNAVAILABLE");
    expect((refused as RuntimeError).message).toMatch(/did not answer acquire for run .* within 300 ms/);
    const runId = (refused as RuntimeError).details?.["runId"] as string;
    expect(await manager.store.listActiveRuns()).toEqual([]);

    // The queued ACQUIRE still reaches Redis when it is back: the manager releases that lease at once.
    await server.restart();
    while (!coordinator.released.includes(runId)) await new Promise((r) => setTimeout(r, 20));
    expect(await redis.exists(`${prefix}runtime:lease:${runId}`)).toBe(0);
    // And new runs are admitted again.
    const run = await manager.create({ threadId: randomUUID(), assistantId: "work", input: { log: ["b"] } });
    expect((await manager.join(run.runId)).status).toBe("success");
  });

  it("a run that cannot publish while Redis is down ends with status error after operationTimeoutMs", async () => {
    let open = (): void => {};
    const gate = new Promise<void>((resolve) => (open = resolve));
    const { server, manager } = await deployment({ coordinatorTimeoutMs: 5_000, operationTimeoutMs: 300, gate });
    const run = await manager.create({
      threadId: randomUUID(),
      assistantId: "gated",
      input: { log: [] },
      streamMode: ["custom"],
    });
    for await (const item of manager.stream(run.runId)) if (item.kind === "event" && item.event === "custom") break;
    await server.stop();
    open(); // the graph now publishes its second custom event
    const final = await within(manager.join(run.runId), 20_000, "the run while Redis is down");
    expect(final.status).toBe("error");
    expect(final.error).toMatch(/did not complete within 300 ms/);
  });
});
