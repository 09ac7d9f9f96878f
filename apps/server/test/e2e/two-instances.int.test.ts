/**
 * Two server processes on different ports sharing Redis and PostgreSQL (one schema
 * and one key prefix for this test), driven by the real LangGraph SDK client:
 * a run started through instance 1 is streamed (from the first event) and joined
 * through instance 2, another is cancelled through instance 2, and when instance 1
 * is killed with SIGKILL mid-run, instance 2 recovers its run (status error) once
 * the lease expires. The slow runs are demo-model turns calling the sandbox's
 * `bash` with `sleep` (host commands allowed in this test's config).
 */
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDirs, writeFiles } from "../support/temp-dir.js";
import { ServerProcess } from "../support/server-process.js";
import { deleteRedisKeys, dropSchemas, requirePostgres, requireRedis, uniqueName } from "../support/services.js";
import path from "node:path";

const ASSISTANT = "lead_agent";
const LEASE_SECONDS = 3;
const temp = tempDirs();
let redisUrl: string | null = null;
let databaseUrl: string | null = null;
const schema = uniqueName("srv_e2e");
const prefix = `${uniqueName("srve2e")}:`;
const processes: ServerProcess[] = [];
let one: ServerProcess;
let two: ServerProcess;
let client1: Client;
let client2: Client;

function userMessage(content: string): { messages: { role: string; content: string }[] } {
  return { messages: [{ role: "user", content }] };
}

async function until<T>(check: () => Promise<T | undefined>): Promise<T> {
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function startInstance(name: string): Promise<ServerProcess> {
  const dir = await temp.make(`deerflow-e2e-${name}-`);
  await writeFiles(dir, {
    "config.yaml": "sandbox:\n  allow_host_bash: true\nstorage:\n  data_dir: ./data\nskills:\n  enabled: false\n",
  });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    REDIS_URL: redisUrl ?? "",
    DATABASE_URL: databaseUrl ?? "",
    DEERFLOW_POSTGRES_SCHEMA: schema,
    DEERFLOW_REDIS_KEY_PREFIX: prefix,
    DEERFLOW_RUN_LEASE_SECONDS: String(LEASE_SECONDS),
    DEERFLOW_INSTANCE_ID: `${name}-${process.pid}`,
    LOG_LEVEL: "info",
  };
  const server = await ServerProcess.start(["--config", path.join(dir, "config.yaml")], env);
  processes.push(server);
  return server;
}

beforeAll(async () => {
  redisUrl = await requireRedis();
  databaseUrl = await requirePostgres();
  if (redisUrl === null || databaseUrl === null) return;
  // One after the other: both run the schema migrations, which must not race the first time.
  one = await startInstance("one");
  two = await startInstance("two");
  client1 = new Client({ apiUrl: `${one.url}/api` });
  client2 = new Client({ apiUrl: `${two.url}/api` });
}, 120_000);

afterAll(async () => {
  await Promise.all(processes.map((p) => p.stop("SIGKILL")));
  if (databaseUrl !== null) await dropSchemas(databaseUrl, [schema]);
  if (redisUrl !== null) await deleteRedisKeys(redisUrl, prefix);
  await temp.cleanup();
});

describe("two server instances on Redis and PostgreSQL", () => {
  it("both instances use the shared components", (ctx) => {
    if (redisUrl === null || databaseUrl === null) return ctx.skip();
    for (const p of [one, two]) {
      const runtime = p.records.find((r) => r["event"] === "runtime");
      expect(runtime).toMatchObject({
        store: "PostgresRunStore",
        bridge: "RedisStreamBridge",
        coordinator: "RedisRunCoordinator",
      });
    }
    expect(one.url).not.toBe(two.url);
  });

  it("a run started through instance 1 is streamed from the start and joined through instance 2", async (ctx) => {
    if (redisUrl === null || databaseUrl === null) return ctx.skip();
    const thread = await client1.threads.create();
    const run = await client1.runs.create(thread.thread_id, ASSISTANT, {
      input: userMessage("run `sleep 2`"),
      streamMode: ["values", "messages-tuple", "updates"],
    });
    expect(await client2.threads.get(thread.thread_id)).toMatchObject({ thread_id: thread.thread_id });

    const events: string[] = [];
    let sawBash = false;
    for await (const chunk of client2.runs.joinStream(thread.thread_id, run.run_id, { lastEventId: "-1" })) {
      events.push(chunk.event);
      if (JSON.stringify(chunk.data ?? null).includes("sleep 2")) sawBash = true;
    }
    expect(events[0]).toBe("metadata");
    expect(events).toEqual(expect.arrayContaining(["values", "messages", "updates"]));
    expect(events).not.toContain("error");
    expect(sawBash).toBe(true);

    const values = (await client2.runs.join(thread.thread_id, run.run_id)) as {
      messages?: { type: string; content: unknown }[];
    };
    expect(JSON.stringify(values.messages?.at(-1)?.content)).toContain("[DeerFlow demo model");
    expect((await client2.runs.get(thread.thread_id, run.run_id)).status).toBe("success");
    // The run executed on instance 1.
    expect(one.records.some((r) => r["msg"] === "run starting" && r["runId"] === run.run_id)).toBe(true);
    expect(two.records.some((r) => r["runId"] === run.run_id)).toBe(false);
  });

  it("a run started through instance 1 is cancelled through instance 2", async (ctx) => {
    if (redisUrl === null || databaseUrl === null) return ctx.skip();
    const thread = await client1.threads.create();
    const run = await client1.runs.create(thread.thread_id, ASSISTANT, { input: userMessage("run `sleep 45`") });
    await until(async () =>
      (await client2.runs.get(thread.thread_id, run.run_id)).status === "running" ? true : undefined,
    );

    await client2.runs.cancel(thread.thread_id, run.run_id, true, "interrupt");
    const cancelled = await client2.runs.get(thread.thread_id, run.run_id);
    expect(cancelled.status).toBe("interrupted");
    // Both instances see the thread usable again.
    expect((await client1.runs.get(thread.thread_id, run.run_id)).status).toBe("interrupted");
    const next = await client2.runs.create(thread.thread_id, ASSISTANT, { input: userMessage("Hello again") });
    await client2.runs.join(thread.thread_id, next.run_id);
    expect((await client1.runs.get(thread.thread_id, next.run_id)).status).toBe("success");
  });

  it("instance 2 recovers the run of instance 1 after a SIGKILL, within the lease", async (ctx) => {
    if (redisUrl === null || databaseUrl === null) return ctx.skip();
    const thread = await client1.threads.create();
    const run = await client1.runs.create(thread.thread_id, ASSISTANT, { input: userMessage("run `sleep 45`") });
    await until(async () =>
      (await client2.runs.get(thread.thread_id, run.run_id)).status === "running" ? true : undefined,
    );

    // A client following the run through instance 2 sees its stream end once the run is recovered.
    const followed = (async () => {
      const events: string[] = [];
      for await (const chunk of client2.runs.joinStream(thread.thread_id, run.run_id, { lastEventId: "-1" }))
        events.push(chunk.event);
      return events;
    })();

    const killed = await one.stop("SIGKILL");
    expect(killed.signal).toBe("SIGKILL");
    const recovered = await until(async () => {
      const r = await client2.runs.get(thread.thread_id, run.run_id);
      return r.status === "running" || r.status === "pending" ? undefined : r;
    });
    expect(recovered.status).toBe("error");
    const events = await followed;
    expect(events[0]).toBe("metadata");
    expect(two.records.some((r) => r["msg"] === "recovered an orphaned run" && r["runId"] === run.run_id)).toBe(true);

    // The thread is usable through the surviving instance.
    const next = await client2.runs.create(thread.thread_id, ASSISTANT, { input: userMessage("Hello") });
    await client2.runs.join(thread.thread_id, next.run_id);
    expect((await client2.runs.get(thread.thread_id, next.run_id)).status).toBe("success");
  }, 120_000);

  it("instance 2 shuts down gracefully on SIGTERM with exit code 0", async (ctx) => {
    if (redisUrl === null || databaseUrl === null) return ctx.skip();
    const exit = await two.stop("SIGTERM");
    expect(exit.code).toBe(0);
    expect(two.messages()).toContain("shutdown complete");
  });
});
