/**
 * One "server instance" for multi-instance tests: its own PostgreSQL pool, Redis
 * connections, checkpointer and run manager, sharing the deployment's schema and
 * key prefix with the other instances.
 */
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { Redis } from "ioredis";
import { RedisRunCoordinator } from "../../../src/coordination/redis-run-coordinator.js";
import { RunManager } from "../../../src/manager/run-manager.js";
import { PostgresRunStore } from "../../../src/runs/postgres/postgres-run-store.js";
import { RedisStreamBridge } from "../../../src/stream/redis-stream-bridge.js";
import { Trace, workGraphFactory } from "./graphs.js";

/** Where the deployment's shared state lives. */
export interface Deployment {
  redisUrl: string;
  databaseUrl: string;
  /** PostgreSQL schema of the run store; the checkpointer uses `${schema}_cp`. */
  schema: string;
  /** Redis key prefix. */
  prefix: string;
  leaseMs: number;
}

/** A running instance and a way to stop it. */
export interface Instance {
  manager: RunManager;
  coordinator: RedisRunCoordinator;
  checkpointer: PostgresSaver;
  stop(): Promise<void>;
}

/** Starts an instance of the deployment. */
export async function startInstance(deployment: Deployment, trace = new Trace()): Promise<Instance> {
  const store = new PostgresRunStore({ connectionString: deployment.databaseUrl, schema: deployment.schema });
  await store.setup();
  const checkpointer = PostgresSaver.fromConnString(deployment.databaseUrl, { schema: `${deployment.schema}_cp` });
  await checkpointer.setup();
  const redis = new Redis(deployment.redisUrl);
  const bridge = new RedisStreamBridge({ redis, keyPrefix: `${deployment.prefix}:stream:` });
  const coordinator = new RedisRunCoordinator({
    redis,
    keyPrefix: `${deployment.prefix}:runtime:`,
    leaseMs: deployment.leaseMs,
  });
  const manager = new RunManager({
    graphs: { work: workGraphFactory(trace) },
    store,
    bridge,
    coordinator,
    checkpointer,
    sweepIntervalMs: 200,
    maxStartPollMs: 100,
  });
  await manager.start();
  return {
    manager,
    coordinator,
    checkpointer,
    async stop() {
      await manager.shutdown({ drain: false, timeoutMs: 2_000 });
      await coordinator.close();
      await bridge.close();
      await store.close();
      await checkpointer.end();
      redis.disconnect();
    },
  };
}
