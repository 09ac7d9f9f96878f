/**
 * Config- and environment-driven selection of the runtime components, on real
 * Redis and PostgreSQL: memory / SQLite / PostgreSQL run stores, memory / Redis
 * bridges, the matching coordinator, health checks of the shared services, and
 * a clear start error when a service is unreachable.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { loadConfig } from "../../src/config/load-config.js";
import { createServer } from "../../src/server/create-server.js";
import { readDeploymentSettings } from "../../src/server/deployment.js";
import { createRuntimeComponents } from "../../src/server/runtime-components.js";
import { ServerStartError } from "../../src/server/errors.js";
import { LEAD_AGENT_ASSISTANT_ID } from "../../src/server/create-server.js";
import { tempDirs } from "../support/temp-dir.js";
import { deleteRedisKeys, dropSchemas, requirePostgres, requireRedis, uniqueName } from "../support/services.js";
import { captureLogger, embeddedEnv, startServer } from "../support/server-harness.js";

const temp = tempDirs();
let redisUrl: string | null = null;
let databaseUrl: string | null = null;
const schemas: string[] = [];
const prefixes: string[] = [];

beforeAll(async () => {
  redisUrl = await requireRedis();
  databaseUrl = await requirePostgres();
});

afterAll(async () => {
  if (databaseUrl !== null && schemas.length > 0) await dropSchemas(databaseUrl, schemas);
  if (redisUrl !== null) for (const p of prefixes) await deleteRedisKeys(redisUrl, p);
  await temp.cleanup();
});

function names(server: Awaited<ReturnType<typeof startServer>>["server"]): string[] {
  return [
    server.manager.store.constructor.name,
    server.manager.bridge.constructor.name,
    server.manager.coordinator.constructor.name,
  ];
}

describe("runtime selection", () => {
  it("SQLite run store, memory bridge and local coordinator by default", async () => {
    const dir = await temp.make();
    const { server } = await startServer(dir, "storage:\n  data_dir: ./data\n");
    try {
      expect(names(server)).toEqual(["WorkerSqliteRunStore", "MemoryStreamBridge", "LocalRunCoordinator"]);
    } finally {
      await server.close();
    }
  });

  it("runtime.checkpointer.durability: runs write their checkpoints once, at their end, unless they ask otherwise", async () => {
    const dir = await temp.make();
    const { server, client } = await startServer(
      dir,
      "storage:\n  data_dir: ./data\nruntime:\n  checkpointer:\n    durability: exit\n",
    );
    try {
      const history = async (durability?: "sync"): Promise<{ kwargs: unknown; checkpoints: number }> => {
        const thread = await client.threads.create();
        const run = await client.runs.create(thread.thread_id, LEAD_AGENT_ASSISTANT_ID, {
          input: { messages: [{ role: "user", content: "Hello" }] },
          ...(durability === undefined ? {} : { durability }),
        });
        await client.runs.join(thread.thread_id, run.run_id);
        expect((await client.runs.get(thread.thread_id, run.run_id)).status).toBe("success");
        const record = await server.manager.get(run.run_id);
        return {
          kwargs: record?.kwargs.durability,
          checkpoints: (await client.threads.getHistory(thread.thread_id, { limit: 100 })).length,
        };
      };
      const once = await history();
      const everyStep = await history("sync");
      expect([once.kwargs, everyStep.kwargs]).toEqual(["exit", "sync"]);
      expect(once.checkpoints).toBeLessThan(everyStep.checkpoints);
    } finally {
      await server.close();
    }
  });

  it("run_store type file: the SQLite run store under the data dir, kept across restarts", async () => {
    const dir = await temp.make();
    const yaml = "storage:\n  data_dir: ./data\nruntime:\n  run_store:\n    type: file\n";
    const first = await startServer(dir, yaml);
    let threadId: string;
    let runId: string;
    try {
      expect(names(first.server)[0]).toBe("WorkerSqliteRunStore");
      const thread = await first.client.threads.create();
      threadId = thread.thread_id;
      const run = await first.client.runs.create(threadId, LEAD_AGENT_ASSISTANT_ID, {
        input: { messages: [{ role: "user", content: "Hello" }] },
      });
      runId = run.run_id;
      await first.client.runs.join(threadId, runId);
    } finally {
      await first.server.close();
    }
    const second = await startServer(dir, yaml);
    try {
      expect((await second.client.runs.get(threadId, runId)).status).toBe("success");
    } finally {
      await second.server.close();
    }
  });

  it("REDIS_URL and DATABASE_URL: Redis bridge and coordinator, PostgreSQL run store and checkpointer, in the configured namespaces", async (ctx) => {
    if (redisUrl === null || databaseUrl === null) return ctx.skip();
    const schema = uniqueName("srv_sel");
    const prefix = `${uniqueName("srvsel")}:`;
    schemas.push(schema);
    prefixes.push(prefix);
    const dir = await temp.make();
    const env = embeddedEnv({
      REDIS_URL: redisUrl,
      DATABASE_URL: databaseUrl,
      DEERFLOW_POSTGRES_SCHEMA: schema,
      DEERFLOW_REDIS_KEY_PREFIX: prefix,
    });
    const { server, client, url, logs } = await startServer(dir, "storage:\n  data_dir: ./data\n", { env });
    try {
      expect(names(server)).toEqual(["PostgresRunStore", "RedisStreamBridge", "RedisRunCoordinator"]);
      expect(logs.messages().some((m) => m.startsWith("stream bridge: redis ") && m.includes("REDIS_URL is set"))).toBe(
        true,
      );
      expect(logs.messages().some((m) => m.startsWith("checkpointer: postgres "))).toBe(true);
      const health = await fetch(`${url}/health`);
      expect(await health.json()).toEqual({
        status: "ok",
        checks: { run_store: "ok", stream_bridge: "ok" },
        details: {
          local_runs: 0,
          stream_bridge: { slow_subscriber_gaps: 0, stale_cursor_gaps: 0, stream_deleted_gaps: 0 },
        },
      });

      const thread = await client.threads.create();
      const run = await client.runs.create(thread.thread_id, LEAD_AGENT_ASSISTANT_ID, {
        input: { messages: [{ role: "user", content: "Hello" }] },
      });
      await client.runs.join(thread.thread_id, run.run_id);
      expect((await client.runs.get(thread.thread_id, run.run_id)).status).toBe("success");

      // Runs and checkpoints live in the schema; stream keys under the prefix.
      const db = new pg.Client({ connectionString: databaseUrl });
      await db.connect();
      try {
        const tables = await db.query<{ table_name: string }>(
          "SELECT table_name FROM information_schema.tables WHERE table_schema = $1",
          [schema],
        );
        const tableNames = tables.rows.map((r) => r.table_name);
        expect(tableNames).toEqual(expect.arrayContaining(["runs", "threads", "checkpoints"]));
      } finally {
        await db.end();
      }
    } finally {
      await server.close();
    }
  });

  it("replicas starting together on a fresh schema all set up their PostgreSQL stores", async (ctx) => {
    if (redisUrl === null || databaseUrl === null) return ctx.skip();
    const schema = uniqueName("srv_race");
    const prefix = `${uniqueName("srvrace")}:`;
    schemas.push(schema);
    prefixes.push(prefix);
    const dir = await temp.make();
    const env = embeddedEnv({
      REDIS_URL: redisUrl,
      DATABASE_URL: databaseUrl,
      DEERFLOW_POSTGRES_SCHEMA: schema,
      DEERFLOW_REDIS_KEY_PREFIX: prefix,
    });
    const loaded = await loadConfig({ cwd: dir, env });
    const { logger } = captureLogger();
    const deployment = readDeploymentSettings(env);
    const all = await Promise.all(
      [0, 1, 2, 3].map(() => createRuntimeComponents(loaded, { deployment, logger, cwd: dir, env })),
    );
    try {
      expect(all.map((c) => c.store.constructor.name)).toEqual([
        "PostgresRunStore",
        "PostgresRunStore",
        "PostgresRunStore",
        "PostgresRunStore",
      ]);
      for (const c of all) await c.healthChecks["run_store"]?.();
    } finally {
      await Promise.all(all.map((c) => c.close()));
    }
  });

  it("an unreachable Redis stops the start with SERVER_COMPONENT_FAILED and a masked URL", async () => {
    const dir = await temp.make();
    const env = embeddedEnv({ REDIS_URL: "redis://:secret@127.0.0.1:1/0" });
    const loaded = await loadConfig({ cwd: dir, env });
    const { logger } = captureLogger();
    const err = await createServer(loaded, { env, cwd: dir, logger }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(ServerStartError.isInstance(err)).toBe(true);
    expect((err as ServerStartError).code).toBe("SERVER_COMPONENT_FAILED");
    expect((err as Error).message).toContain("Redis (redis://:****@127.0.0.1:1/0) could not be started");
    expect((err as Error).message).not.toContain("secret");
  });
});
