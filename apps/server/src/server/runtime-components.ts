/**
 * Builds the runtime components a deployment is configured with: the run store
 * (memory, SQLite file, PostgreSQL or a plugin), the stream bridge (memory,
 * Redis Streams or a plugin), the run coordinator (Redis whenever runs are
 * shared through Redis, else in-process), the checkpointer (memory, SQLite
 * file, PostgreSQL or a plugin) and the long-term store (`graph-store.ts`),
 * plus the health checks of the shared ones.
 */
import {
  LocalRunCoordinator,
  MemoryRunStore,
  MemoryStreamBridge,
  createCheckpointer,
  createGraphStore,
  type CheckpointerConfig,
  type RunCoordinator,
  type RunStore,
  type StreamBridge,
} from "@deerflow/runtime";
import type { BaseCheckpointSaver, BaseStore } from "@langchain/langgraph-checkpoint";
import { Redis } from "ioredis";
import pg from "pg";
import type { LoadedConfig } from "../config/load-config.js";
import type { CheckpointerSettings, PluginChoice, RunStoreSettings, StreamBridgeSettings } from "../config/types.js";
import { maskUrl } from "../config/mask.js";
import type { Logger } from "../logger.js";
import { loadPlugin } from "../plugins/index.js";
import type { DeploymentSettings } from "./deployment.js";
import { graphStoreConfigOf } from "./graph-store.js";
import { ServerStartError } from "./errors.js";

/** A named readiness probe of `GET /health`. */
export type HealthCheck = () => Promise<void>;

/** What {@link createRuntimeComponents} built. */
export interface RuntimeComponents {
  readonly store: RunStore;
  readonly bridge: StreamBridge;
  readonly coordinator: RunCoordinator;
  readonly checkpointer: BaseCheckpointSaver;
  /**
   * The long-term store (LangGraph's `BaseStore`): SQLite `store.sqlite` under the data dir embedded,
   * PostgreSQL with a PostgreSQL checkpointer (`graph-store.ts`). The one instance of the server: runs get it
   * (`getStore()`), the lead agent is compiled with it, the gateway serves it at `/api/store/...`, and
   * other parts keeping long-lived per-user data use it. Closed by {@link RuntimeComponents.close}.
   */
  readonly graphStore: BaseStore;
  /**
   * The PostgreSQL pool of the run store (`runtime.run_store` postgres), for stores that live beside it
   * (the account store); closed by {@link RuntimeComponents.close}. `undefined` for other run stores.
   */
  readonly postgresPool: pg.Pool | undefined;
  /** `run_store` (a read), `stream_bridge` (a Redis PING for the Redis bridge), `coordinator` (Redis PING with a plugin bridge). */
  readonly healthChecks: Readonly<Record<string, HealthCheck>>;
  /**
   * Closes the long-term store, checkpointer, bridge, run store and coordinator, then the shared
   * connections. `abandon` leaves the coordinator's leases to expire (crash semantics).
   * Errors are logged, never thrown. Idempotent.
   */
  close(options?: { abandon?: boolean }): Promise<void>;
}

/** Options of {@link createRuntimeComponents}. */
export interface RuntimeComponentsOptions {
  readonly deployment: DeploymentSettings;
  readonly logger: Logger;
  /** Working directory for plugin lookup. */
  readonly cwd: string;
  /** Environment (`REDIS_URL` for plugin bridges). */
  readonly env: NodeJS.ProcessEnv;
}

/** The health-check thread id: a syntactically valid id no run ever uses. */
const PROBE_THREAD_ID = "00000000-0000-4000-8000-000000000000";

interface Closer {
  readonly what: string;
  /** `abandon`: crash semantics (only the coordinator cares). */
  close(abandon: boolean): Promise<unknown>;
}

function componentFailed(what: string, err: unknown, where?: string): ServerStartError {
  return new ServerStartError(
    "SERVER_COMPONENT_FAILED",
    `${what}${where === undefined ? "" : ` (${where})`} could not be started: ${(err as Error).message ?? String(err)}`,
    { cause: err },
  );
}

const isFunction = (v: unknown, key: string): boolean =>
  typeof (v as Record<string, unknown> | null)?.[key] === "function";

function isRunStore(v: unknown): v is RunStore {
  return ["admitRun", "getRun", "tryStartRun", "finishRun", "getThread", "close"].every((k) => isFunction(v, k));
}

function isStreamBridge(v: unknown): v is StreamBridge {
  return ["publish", "publishEnd", "subscribe", "cleanup", "close"].every((k) => isFunction(v, k));
}

function isCheckpointer(v: unknown): v is BaseCheckpointSaver {
  return ["getTuple", "put", "list"].every((k) => isFunction(v, k));
}

function isCheckpointerHandle(v: unknown): v is { checkpointer: BaseCheckpointSaver; close?: () => Promise<void> } {
  return isCheckpointer((v as { checkpointer?: unknown } | null)?.checkpointer);
}

/**
 * Creates the configured runtime components. A component that cannot be
 * created or reached stops the server (nothing already opened is leaked).
 *
 * @param loaded - result of `loadConfig`
 * @param options - deployment settings, logger, working directory
 * @returns the components, their health checks and `close()`
 * @throws ServerStartError `SERVER_COMPONENT_FAILED` (Redis or PostgreSQL unreachable, SQLite file not writable...);
 *   PluginLoadError for `use:` plugins
 */
export async function createRuntimeComponents(
  loaded: LoadedConfig,
  options: RuntimeComponentsOptions,
): Promise<RuntimeComponents> {
  const { config } = loaded;
  const { deployment, logger } = options;
  const lookup = { cwd: options.cwd, configDir: loaded.baseDir };
  const closers: Closer[] = [];
  const healthChecks: Record<string, HealthCheck> = {};
  let closing: Promise<void> | undefined;

  const closeAll = async (abandon: boolean): Promise<void> => {
    for (const c of closers.splice(0).reverse()) {
      try {
        await c.close(abandon);
      } catch (err) {
        logger.warn({ component: c.what, err: (err as Error).message }, "closing a runtime component failed");
      }
    }
  };

  try {
    // Shared Redis client of the bridge, the coordinator and the health check (the bridge
    // duplicates it for blocking reads, the coordinator for its subscription).
    const rt = config.runtime;
    const redisUrl = redisUrlOf(rt.streamBridge, options.env);
    let redis: Redis | undefined;
    if (redisUrl !== undefined) {
      redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 2 });
      redis.on("error", (err: Error) => logger.debug({ err: err.message }, "redis connection error"));
      const client = redis;
      closers.push({ what: "redis", close: () => client.quit().catch(() => client.disconnect()) });
      try {
        await redis.connect();
        await redis.ping();
      } catch (err) {
        throw componentFailed("Redis", err, maskUrl(redisUrl));
      }
      // Redis carries the stream bridge (or, with a plugin bridge, the coordinator).
      healthChecks[rt.streamBridge.type === "redis" ? "stream_bridge" : "coordinator"] = async () =>
        void (await client.ping());
    }

    const pools: { postgres?: pg.Pool } = {};
    const store = await createRunStore(rt.runStore, { ...options, lookup, closers, pools });
    healthChecks["run_store"] = async () => void (await store.getThread(PROBE_THREAD_ID));

    const bridge = await createBridge(rt.streamBridge, redis, { ...options, lookup, closers });
    // The in-process bridge has nothing to reach; reported for a uniform /health shape.
    if (rt.streamBridge.type === "memory") healthChecks["stream_bridge"] = async () => {};

    const coordinator: RunCoordinator =
      redis === undefined
        ? new LocalRunCoordinator({
            leaseMs: deployment.leaseMs,
            logger,
            ...(deployment.instanceId === undefined ? {} : { instanceId: deployment.instanceId }),
          })
        : await createRedisCoordinator(redis, options);
    closers.push({ what: "coordinator", close: (abandon) => coordinator.close({ abandon }) });

    const checkpointer = await createCheckpointerFor(rt.checkpointer, { ...options, lookup, closers });

    const graphStoreConfig = graphStoreConfigOf(config, deployment, options.env);
    let graphStore: BaseStore;
    try {
      const handle = await createGraphStore(graphStoreConfig);
      closers.push({ what: "long-term store", close: () => handle.close() });
      graphStore = handle.store;
    } catch (err) {
      const where =
        graphStoreConfig.type === "postgres"
          ? maskUrl(graphStoreConfig.connectionString)
          : graphStoreConfig.type === "file"
            ? graphStoreConfig.path
            : undefined;
      throw componentFailed(`${graphStoreConfig.type} long-term store`, err, where);
    }

    const sharedStore = rt.runStore.type === "postgres" || rt.runStore.type === "plugin";
    if (bridge.supportsCrossProcess && !sharedStore) {
      logger.warn(
        {},
        "the stream bridge is shared but the run store is not: other instances cannot see this instance's runs (set DATABASE_URL for many instances)",
      );
    } else if (!bridge.supportsCrossProcess && rt.runStore.type === "postgres") {
      logger.warn(
        {},
        "the run store is shared but the stream bridge is per-process: runs stream only through the instance executing them (set REDIS_URL for many instances)",
      );
    }

    return {
      store,
      bridge,
      coordinator,
      checkpointer,
      graphStore,
      postgresPool: pools.postgres,
      healthChecks,
      close(closeOptions = {}) {
        closing ??= closeAll(closeOptions.abandon === true);
        return closing;
      },
    };
  } catch (err) {
    await closeAll(false);
    throw err;
  }
}

/** Redis serves the bridge when configured so; a plugin bridge is coordinated through `REDIS_URL` when set. */
function redisUrlOf(bridge: StreamBridgeSettings, env: NodeJS.ProcessEnv): string | undefined {
  if (bridge.type === "redis") return bridge.redisUrl;
  if (bridge.type === "plugin") {
    const url = env["REDIS_URL"];
    return url === undefined || url.trim() === "" ? undefined : url;
  }
  return undefined;
}

interface BuildContext extends RuntimeComponentsOptions {
  readonly lookup: { cwd: string; configDir: string };
  readonly closers: Closer[];
}

async function createRunStore(
  settings: RunStoreSettings,
  ctx: BuildContext & { readonly pools: { postgres?: pg.Pool } },
): Promise<RunStore> {
  const { logger, closers } = ctx;
  switch (settings.type) {
    case "memory": {
      const store = new MemoryRunStore();
      closers.push({ what: "run store", close: () => store.close() });
      return store;
    }
    case "file": {
      const store = await createSqliteRunStore(settings.path, logger);
      closers.push({ what: "run store", close: () => store.close() });
      return store;
    }
    case "postgres": {
      const { PostgresRunStore } = await import("@deerflow/runtime/postgres");
      const pool = new pg.Pool({ connectionString: settings.databaseUrl, connectionTimeoutMillis: 10_000 });
      pool.on("error", (err) =>
        logger.warn({ err: err.message }, "idle PostgreSQL connection of the run store failed"),
      );
      closers.push({ what: "postgres pool", close: () => pool.end() });
      ctx.pools.postgres = pool;
      const store = new PostgresRunStore({ pool, schema: ctx.deployment.postgresSchema, logger });
      try {
        await store.setup();
      } catch (err) {
        throw componentFailed("PostgreSQL run store", err, maskUrl(settings.databaseUrl));
      }
      closers.push({ what: "run store", close: () => store.close() });
      return store;
    }
    case "plugin":
      return createPluginRunStore(settings, ctx);
  }
}

/**
 * `WorkerSqliteRunStore` of `@deerflow/runtime/sqlite` (better-sqlite3 is an optional peer of the
 * runtime, loaded only when chosen): the run store's SQL and WAL checkpoints run on a worker thread,
 * off the event loop that serves the runs.
 */
async function createSqliteRunStore(file: string, logger: Logger): Promise<RunStore> {
  try {
    const { WorkerSqliteRunStore } = await import("@deerflow/runtime/sqlite");
    return await WorkerSqliteRunStore.open({ path: file, logger });
  } catch (err) {
    throw componentFailed("SQLite run store", err, file);
  }
}

async function createPluginRunStore(settings: PluginChoice, ctx: BuildContext): Promise<RunStore> {
  const store = await loadPlugin(settings.use, {
    ...ctx.lookup,
    options: { ...settings.options, logger: ctx.logger },
    purpose: "run store",
    shape: "a RunStore (admitRun, getRun, tryStartRun, finishRun, getThread, close...)",
    check: isRunStore,
  });
  ctx.closers.push({ what: "run store", close: () => store.close() });
  const setup = (store as { setup?: () => Promise<void> }).setup;
  if (typeof setup === "function") {
    try {
      await setup.call(store);
    } catch (err) {
      throw componentFailed("run store plugin", err, settings.use);
    }
  }
  return store;
}

async function createBridge(
  settings: StreamBridgeSettings,
  redis: Redis | undefined,
  ctx: BuildContext,
): Promise<StreamBridge> {
  const { logger, closers, deployment } = ctx;
  let bridge: StreamBridge;
  switch (settings.type) {
    case "memory":
      bridge = new MemoryStreamBridge({
        logger,
        ...(settings.maxEventsPerRun === undefined ? {} : { maxEventsPerRun: settings.maxEventsPerRun }),
      });
      break;
    case "redis": {
      const { RedisStreamBridge } = await import("@deerflow/runtime/redis");
      bridge = new RedisStreamBridge({
        redis: redis as Redis,
        keyPrefix: `${deployment.redisKeyPrefix}stream:`,
        logger,
        ...(settings.maxEventsPerRun === undefined ? {} : { maxEventsPerRun: settings.maxEventsPerRun }),
      });
      break;
    }
    case "plugin":
      bridge = await loadPlugin(settings.use, {
        ...ctx.lookup,
        options: { ...settings.options, logger },
        purpose: "stream bridge",
        shape: "a StreamBridge (publish, publishEnd, subscribe, cleanup, close)",
        check: isStreamBridge,
      });
      break;
  }
  closers.push({ what: "stream bridge", close: () => bridge.close() });
  return bridge;
}

async function createRedisCoordinator(redis: Redis, ctx: RuntimeComponentsOptions): Promise<RunCoordinator> {
  const { RedisRunCoordinator } = await import("@deerflow/runtime/redis");
  const { deployment, logger } = ctx;
  return new RedisRunCoordinator({
    redis,
    keyPrefix: `${deployment.redisKeyPrefix}runtime:`,
    leaseMs: deployment.leaseMs,
    logger,
    ...(deployment.instanceId === undefined ? {} : { instanceId: deployment.instanceId }),
  });
}

async function createCheckpointerFor(settings: CheckpointerSettings, ctx: BuildContext): Promise<BaseCheckpointSaver> {
  const { logger, closers } = ctx;
  if (settings.type === "plugin") {
    const made = await loadPlugin(settings.use, {
      ...ctx.lookup,
      options: { ...settings.options, logger },
      purpose: "checkpointer",
      shape: "a LangGraph checkpoint saver (getTuple, put, list) or { checkpointer, close }",
      check: (v): v is unknown => isCheckpointer(v) || isCheckpointerHandle(v),
    });
    if (isCheckpointerHandle(made)) {
      const close = made.close;
      if (typeof close === "function") closers.push({ what: "checkpointer", close: () => close.call(made) });
      return made.checkpointer;
    }
    return made as BaseCheckpointSaver;
  }
  let config: CheckpointerConfig;
  if (settings.type === "postgres") {
    const schema = settings.schema ?? ctx.deployment.checkpointerSchema;
    config = { type: "postgres", connectionString: settings.databaseUrl, ...(schema === undefined ? {} : { schema }) };
  } else config = settings;
  try {
    // createCheckpointer serialises PostgreSQL migrations with an advisory lock, so replicas may start together.
    const handle = await createCheckpointer(config, { logger });
    closers.push({ what: "checkpointer", close: () => handle.close() });
    return handle.checkpointer;
  } catch (err) {
    const where =
      settings.type === "postgres"
        ? maskUrl(settings.databaseUrl)
        : settings.type === "file"
          ? settings.path
          : undefined;
    throw componentFailed(`${settings.type} checkpointer`, err, where);
  }
}
