/**
 * Several instances of one deployment sharing real PostgreSQL (runs, threads,
 * checkpoints) and real Redis (streams, leases, cancel delivery).
 */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { RunManager } from "../../src/manager/run-manager.js";
import type { StreamItem } from "../../src/stream/stream-bridge.js";
import { requirePostgres, requireRedis, uniqueName } from "../support/services.js";
import { Trace, buildWorkGraph } from "../support/manager/graphs.js";
import { startInstance, type Deployment, type Instance } from "../support/manager/instance.js";

const redisUrl = await requireRedis();
const databaseUrl = await requirePostgres();
const pkgDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

async function collect(items: AsyncIterable<StreamItem>): Promise<StreamItem[]> {
  const out: StreamItem[] = [];
  for await (const item of items) {
    if (item.kind !== "heartbeat") out.push(item);
    if (item.kind === "end" || item.kind === "gap") break;
  }
  return out;
}

const names = (items: StreamItem[]) => items.map((i) => (i.kind === "event" ? i.event : i.kind));

async function started(manager: RunManager, runId: string): Promise<void> {
  for await (const item of manager.stream(runId)) if (item.kind === "event" && item.event === "custom") return;
}

describe.skipIf(!redisUrl || !databaseUrl)("RunManager across instances on Redis and PostgreSQL", () => {
  const deployment: Deployment = {
    redisUrl: redisUrl ?? "",
    databaseUrl: databaseUrl ?? "",
    schema: uniqueName("rt_multi"),
    prefix: uniqueName("rt-multi"),
    leaseMs: 1_500,
  };
  const trace = new Trace();
  let a: Instance;
  let b: Instance;
  const extra: Instance[] = [];

  beforeAll(async () => {
    a = await startInstance(deployment, trace);
    b = await startInstance(deployment, trace);
  });

  afterEach(async () => {
    for (const i of extra.splice(0)) await i.stop();
  });

  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    const client = new pg.Client({ connectionString: deployment.databaseUrl });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS ${deployment.schema} CASCADE`);
    await client.query(`DROP SCHEMA IF EXISTS ${deployment.schema}_cp CASCADE`);
    await client.end();
    const redis = new Redis(deployment.redisUrl);
    const keys = await redis.keys(`${deployment.prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it("a run started through A is streamed from the start, joined and cancelled through B", async () => {
    const threadId = randomUUID();
    const run = await a.manager.create({
      threadId,
      assistantId: "work",
      input: { log: ["x"], delayMs: 60_000 },
      streamMode: ["values", "custom"],
    });
    await started(b.manager, run.runId);
    const fromB = collect(b.manager.stream(run.runId, { lastEventId: "-1" }));
    expect(await b.manager.cancel(run.runId)).toBe("requested");
    const final = await b.manager.join(run.runId);
    expect(final.status).toBe("interrupted");
    const items = await fromB;
    expect(names(items)[0]).toBe("metadata");
    expect(names(items)).toContain("custom");
    expect(names(items).at(-1)).toBe("end");
    // Replay through A gives the very same ids and events.
    expect(await collect(a.manager.stream(run.runId, { lastEventId: "-1" }))).toEqual(items);
    expect((await b.manager.store.getThread(threadId))?.status).not.toBe("busy");
  });

  it("a rollback requested through B restores the thread's state written by A", async () => {
    const threadId = randomUUID();
    await a.manager.join((await a.manager.create({ threadId, assistantId: "work", input: { log: ["z"] } })).runId);
    const run = await a.manager.create({
      threadId,
      assistantId: "work",
      input: { log: ["y"], delayMs: 60_000 },
      streamMode: "custom",
    });
    await started(b.manager, run.runId);
    await b.manager.cancel(run.runId, { action: "rollback", wait: true });
    const state = await buildWorkGraph(b.checkpointer).getState({ configurable: { thread_id: threadId } });
    expect(state.values).toMatchObject({ log: ["z", "done:z"] });
    expect((await b.manager.get(run.runId))?.error).toBe("Rolled back by user");
  });

  it("conflicting runs on one thread from both instances: `reject` admits exactly one", async () => {
    const threadId = randomUUID();
    const attempts = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 ? a : b).manager.create({ threadId, assistantId: "work", input: { log: [`r${i}`], delayMs: 200 } }),
      ),
    );
    const admitted = attempts.filter((r) => r.status === "fulfilled");
    expect(admitted).toHaveLength(1);
    for (const r of attempts) if (r.status === "rejected") expect(r.reason).toMatchObject({ code: "THREAD_BUSY" });
    expect(await a.manager.list(threadId)).toHaveLength(1);
    const winner = admitted[0] as PromiseFulfilledResult<{ runId: string }>;
    expect((await b.manager.join(winner.value.runId)).status).toBe("success");
  });

  it("`enqueue` from both instances runs one thread's runs one at a time in creation order", async () => {
    const threadId = randomUUID();
    trace.events.length = 0;
    trace.maxActive = 0;
    const runs = [];
    for (let i = 0; i < 6; i++) {
      runs.push(
        await (i % 2 ? a : b).manager.create({
          threadId,
          assistantId: "work",
          input: { log: [`q${i}`], delayMs: 30 },
          multitaskStrategy: "enqueue",
        }),
      );
    }
    for (const run of runs) expect((await a.manager.join(run.runId)).status).toBe("success");
    expect(trace.events).toEqual(runs.flatMap((_, i) => [`start:q${i}`, `end:q${i}`]));
    expect(trace.maxActive).toBe(1);
  });

  it("`interrupt` from B stops the run A executes, then B's run continues the thread", async () => {
    const threadId = randomUUID();
    const first = await a.manager.create({
      threadId,
      assistantId: "work",
      input: { log: ["p"], delayMs: 60_000 },
      streamMode: "custom",
    });
    await started(b.manager, first.runId);
    const second = await b.manager.create({
      threadId,
      assistantId: "work",
      input: { log: ["s"], delayMs: 0 },
      multitaskStrategy: "interrupt",
    });
    expect((await b.manager.join(second.runId)).status).toBe("success");
    expect((await b.manager.get(first.runId))?.status).toBe("interrupted");
  });

  it("100 concurrent runs across two instances all succeed and stream completely from the other one", async () => {
    const runs = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        (i % 2 ? a : b).manager.create({
          threadId: randomUUID(),
          assistantId: "work",
          input: { log: [`c${i}`], delayMs: 10 },
          streamMode: ["values", "custom"],
        }),
      ),
    );
    const streams = await Promise.all(
      runs.map((run, i) => collect((i % 2 ? b : a).manager.stream(run.runId, { lastEventId: "-1" }))),
    );
    for (const items of streams) {
      expect(names(items)[0]).toBe("metadata");
      expect(names(items)).toContain("custom");
      expect(names(items).at(-1)).toBe("end");
    }
    const finals = await Promise.all(runs.map((r) => a.manager.join(r.runId)));
    expect(finals.filter((r) => r.status === "success")).toHaveLength(100);
  }, 180_000);

  it("recovers the run of an instance killed mid-run: status error and an end event for waiting clients", async () => {
    const threadId = randomUUID();
    const child = spawn(process.execPath, ["--import", "tsx", "test/support/manager/instance-main.ts"], {
      cwd: pkgDir,
      env: { ...process.env, DEPLOYMENT: JSON.stringify(deployment), THREAD_ID: threadId },
      stdio: ["ignore", "pipe", "inherit"],
    });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout }).once("line", resolve);
        child.once("exit", (code) => reject(new Error(`instance exited early with ${code}`)));
      });
      const { runId } = JSON.parse(line) as { runId: string };
      await started(b.manager, runId);
      expect(await b.manager.coordinator.ownerOf(runId)).not.toBeNull();
      const waiting = collect(b.manager.stream(runId));
      child.kill("SIGKILL");
      const final = await b.manager.join(runId);
      expect(final.status).toBe("error");
      expect(final.stopReason).toBe("orphan_recovered");
      expect(names(await waiting).at(-1)).toBe("end");
      // The thread is usable again.
      const next = await b.manager.create({ threadId, assistantId: "work", input: { log: ["after"], delayMs: 0 } });
      expect((await b.manager.join(next.runId)).status).toBe("success");
    } finally {
      child.kill("SIGKILL");
    }
  }, 60_000);
});
