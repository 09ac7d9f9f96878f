/**
 * Options of {@link RedisStreamBridge} and their validation: every value the
 * bridge runs with, checked once at construction.
 */
import type { Redis } from "ioredis";
import { RuntimeError } from "../errors.js";
import type { BackoffOptions } from "../internal/backoff.js";
import { silentLogger, type Logger } from "../logger.js";
import { DEFAULT_STREAM_KEY_PREFIX } from "./redis-entries.js";
import { DEFAULT_HEARTBEAT_MS, DEFAULT_MAX_EVENTS_PER_RUN, integerOption } from "./validate.js";

/** Options shared by both ways of giving {@link RedisStreamBridge} a connection. */
export interface RedisStreamBridgeCommonOptions {
  /** Prefix of every stream key. Default `"deerflow:stream:"`. */
  keyPrefix?: string;
  /** Events kept per run (exact `MAXLEN`); the end marker comes on top. Default 1024. */
  maxEventsPerRun?: number;
  /** Expiry of a run's stream, refreshed on every publish; 0 disables it. Default 86 400 (24 h). */
  ttlSeconds?: number;
  /** Default idle time before a heartbeat item, ms. Default 15 000. */
  heartbeatMs?: number;
  /**
   * Backoff for transient Redis failures (lost connection, `LOADING`,
   * `TRYAGAIN`, ...). Defaults: 6 attempts, 100 ms base, 2 000 ms cap (about
   * 15-20 s in all with the bridge's own client while Redis is down). A
   * subscriber counts consecutive failures only.
   */
  retry?: { attempts?: number; baseDelayMs?: number; maxDelayMs?: number };
  /**
   * Longest time one publish, end marker, `exists` or `cleanup` may take,
   * retries included, before it fails with `BRIDGE_UNAVAILABLE`: the bound on
   * how long a run waits for Redis during an outage (a caller's client may
   * hold commands for as long as the outage lasts). Default 15 000 ms.
   */
  operationTimeoutMs?: number;
  /**
   * Group commit: publishes of one run that queue up while an append of the
   * run is in flight are sent in one script call of at most `maxEvents`
   * events (default 256) and `maxBytes` bytes of event names and JSON data
   * (default 1 MiB; a larger single event is sent alone). `maxEvents: 1`
   * sends one call per event.
   */
  batch?: { maxEvents?: number; maxBytes?: number };
  /** Receives retry warnings, every gap (a slow subscriber as a warning) and connection errors; silent by default. */
  logger?: Logger;
}

/**
 * Options of {@link RedisStreamBridge}: either `redis`, a client the caller
 * owns (the bridge never quits it; it is duplicated for blocking reads), or
 * `url`, from which the bridge creates and owns its client.
 */
export type RedisStreamBridgeOptions = RedisStreamBridgeCommonOptions &
  ({ redis: Redis; url?: never } | { url: string; redis?: never });

/** The validated options, defaults applied. */
export interface RedisBridgeSettings {
  readonly keyPrefix: string;
  readonly maxEvents: number;
  readonly ttlSeconds: number;
  readonly heartbeatMs: number;
  readonly retry: BackoffOptions;
  readonly operationTimeoutMs: number;
  readonly maxBatchEvents: number;
  readonly maxBatchBytes: number;
  readonly logger: Logger;
}

/**
 * Checks the options (not yet the `url` itself) and applies the defaults.
 *
 * @throws RuntimeError `CONFIG_INVALID` when neither or both of `redis`/`url`
 *   are given, or an option is out of range.
 */
export function resolveRedisBridgeOptions(options: RedisStreamBridgeOptions): RedisBridgeSettings {
  const given = options as { redis?: unknown; url?: unknown };
  if ((given.redis === undefined) === (given.url === undefined)) {
    throw new RuntimeError(
      "CONFIG_INVALID",
      "RedisStreamBridge needs exactly one of `redis` (a client you own) or `url` (the bridge owns its client)",
    );
  }
  if (options.keyPrefix !== undefined && typeof options.keyPrefix !== "string") {
    throw new RuntimeError("CONFIG_INVALID", `keyPrefix must be a string, got ${typeof options.keyPrefix}`);
  }
  return {
    keyPrefix: options.keyPrefix ?? DEFAULT_STREAM_KEY_PREFIX,
    maxEvents: integerOption("maxEventsPerRun", options.maxEventsPerRun, DEFAULT_MAX_EVENTS_PER_RUN, 1),
    ttlSeconds: integerOption("ttlSeconds", options.ttlSeconds, 86_400, 0),
    heartbeatMs: integerOption(
      "heartbeatMs",
      options.heartbeatMs,
      DEFAULT_HEARTBEAT_MS,
      1,
      "CONFIG_INVALID",
      2_147_483_647,
    ),
    retry: {
      attempts: integerOption("retry.attempts", options.retry?.attempts, 6, 1),
      baseDelayMs: integerOption("retry.baseDelayMs", options.retry?.baseDelayMs, 100, 0),
      maxDelayMs: integerOption("retry.maxDelayMs", options.retry?.maxDelayMs, 2_000, 0),
    },
    operationTimeoutMs: integerOption(
      "operationTimeoutMs",
      options.operationTimeoutMs,
      15_000,
      1,
      "CONFIG_INVALID",
      2_147_483_647,
    ),
    maxBatchEvents: integerOption("batch.maxEvents", options.batch?.maxEvents, 256, 1),
    maxBatchBytes: integerOption("batch.maxBytes", options.batch?.maxBytes, 1_048_576, 1),
    logger: options.logger ?? silentLogger,
  };
}
