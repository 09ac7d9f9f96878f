/**
 * `RedisStreamBridge`: a cross-process stream bridge on Redis Streams
 * (ioredis 6, Redis ≥ 6.2), DeerFlow's `RedisStreamBridge` data model.
 *
 * One stream per run, `{keyPrefix}{runId}`, holding at most `maxEventsPerRun`
 * event entries `{kind: "event", event, data: <compact JSON>}` plus one end
 * marker `{kind: "end"}` (written with `MAXLEN N+1`, so it never evicts an
 * event). Every append refreshes the key's expiry in the same Lua script.
 *
 * **No loss, no duplicates across reconnects.** The publisher picks each entry
 * id itself instead of `*`: `"<ms>-<seq>"` with `seq` the run's 0-based event
 * counter and `ms = max(now, ms of the previous event)`, fixed before the first
 * attempt. Publishes of one run are serialised in a per-run promise chain, so a
 * retry never reorders. When an attempt whose reply was lost (connection
 * dropped, Redis restarted) is retried — by this bridge or by ioredis resending
 * unfulfilled commands — Redis refuses the second copy ("equal or smaller than
 * the target stream top item") and the script reports the entry as already
 * there: success, written once. A publisher with no state for a run (another
 * instance, or this one after `publishEnd`) starts at `"<now>-0"`; if the
 * stream's top is newer (another writer), it continues after that top. An end
 * marker published without state uses `*`.
 *
 * **Group commit.** Publishes of a run that queue up behind an append in
 * flight are sent together in one script call (one round trip, all-or-nothing
 * per call, or resumed exactly after the last entry that landed when a lost
 * reply is retried), up to `batch.maxEvents` events / `batch.maxBytes` bytes;
 * each caller still gets its own id, in order. A caller that keeps several
 * publishes of a run in flight (the worker does) gets the throughput of
 * pipelining; one that awaits each publish sees no extra delay. When a batch
 * fails, the batches already queued behind it fail too, unsent, so a run's
 * stream never has a hole. See `redis-publisher.ts`.
 *
 * Subscribers read with the atomic snapshot script (earliest/latest ids and
 * new entries after their cursor in one step, so a gap is detected exactly) and
 * wait with `XREAD BLOCK` on a dedicated connection; they continue exactly
 * after the last delivered id after any failure. See `redis-subscription.ts`.
 *
 * ioredis behaviour relied on: the offline queue (`enableOfflineQueue`, default
 * true) and `autoResendUnfulfilledCommands` (default true) — both are safe
 * because appends are idempotent and reads are positioned by cursor (a command
 * ioredis resends after the bridge already retried it is harmless too). A
 * bounded `maxRetriesPerRequest` makes a command fail instead of waiting
 * forever while Redis is down; the bridge then retries with its own
 * exponential backoff and throws `BRIDGE_UNAVAILABLE` once `retry.attempts`
 * are spent. Whatever the client does, one operation (a publish, the end
 * marker, `exists`, `cleanup`) waits at most `operationTimeoutMs`, retries
 * included, before it fails with `BRIDGE_UNAVAILABLE`; a command still queued
 * in the client then may land later, which the explicit ids make harmless. The client the bridge creates from `url` uses
 * `maxRetriesPerRequest: 2` and reconnect delays capped at ~1 s; for a client
 * you pass in, prefer similar values (ioredis' defaults, 20 retries and 5 s
 * delays, make each attempt last up to ~20 s while Redis is down). Dedicated
 * subscriber connections set `maxRetriesPerRequest: 2` and `blockingTimeout`,
 * so a wait on a dead socket ends as a heartbeat.
 *
 * @example
 * ```ts
 * import { RedisStreamBridge } from "@deerflow/runtime/redis";
 * const bridge = new RedisStreamBridge({ url: process.env.REDIS_URL!, ttlSeconds: 86_400 });
 * const id = await bridge.publish(runId, "values", state);
 * for await (const item of bridge.subscribe(runId, { lastEventId: id, signal })) { ... }
 * await bridge.close();
 * ```
 */
import { setMaxListeners } from "node:events";
import type { Redis } from "ioredis";
import { RuntimeError } from "../errors.js";
import { sleep } from "../internal/backoff.js";
import type { Logger } from "../logger.js";
import { DelayedCleanups } from "./delayed-cleanups.js";
import { GapLog } from "./gap-log.js";
import {
  resolveRedisBridgeOptions,
  type RedisBridgeSettings,
  type RedisStreamBridgeOptions,
} from "./redis-bridge-options.js";
import { boundedRedisCall, type RedisCall } from "./redis-call.js";
import { BlockingConnections, closeOwnedClient, connectBridgeClient } from "./redis-connections.js";
import { encodeData, streamKey } from "./redis-entries.js";
import { RedisPublisher } from "./redis-publisher.js";
import { followRedisStream, type SubscriptionContext } from "./redis-subscription.js";
import type { StreamBridge, StreamBridgeStats, StreamItem, SubscribeOptions } from "./stream-bridge.js";
import { checkEventName, checkRunId, checkSubscribe } from "./validate.js";

/** How long `close` waits for in-flight publishes. */
const CLOSE_DRAIN_MS = 2_000;

/**
 * Cross-process {@link StreamBridge} on Redis Streams. See the module notes for
 * the id scheme that makes publishing idempotent across reconnects.
 *
 * Behaviour beyond the contract:
 * - `subscribe` throws synchronously for a malformed cursor (`INVALID_ARGUMENT`)
 *   or after `close` (`CLOSED`).
 * - A subscriber that has received events and then finds the stream gone
 *   (`cleanup`) ends with a gap whose earliest/latest ids are null, at its next
 *   wake-up (at the latest after `heartbeatMs`). One that has received nothing
 *   keeps waiting for the stream to be created.
 * - Entries not written by this bridge are read leniently (raw string data
 *   when not JSON, event `"message"` when missing).
 * - Every gap is logged (run, subscriber, how far behind) and counted in {@link stats}.
 */
export class RedisStreamBridge implements StreamBridge {
  /** Always true: any process reading the same Redis sees the events. */
  readonly supportsCrossProcess = true;
  private readonly settings: RedisBridgeSettings;
  private readonly redis: Redis;
  private readonly ownsClient: boolean;
  private readonly logger: Logger;
  private readonly gaps: GapLog;
  private readonly call: RedisCall;
  private readonly publisher: RedisPublisher;
  private readonly connections: BlockingConnections;
  private readonly subscriptions: SubscriptionContext;
  private readonly cleanups = new DelayedCleanups();
  private readonly closing = new AbortController();

  /**
   * @param options - the connection (`redis` or `url`) and tuning.
   * @throws RuntimeError `CONFIG_INVALID` when neither or both of `redis`/`url`
   *   are given, or an option is out of range.
   */
  constructor(options: RedisStreamBridgeOptions) {
    const settings = resolveRedisBridgeOptions(options);
    this.settings = settings;
    this.logger = settings.logger;
    this.gaps = new GapLog("RedisStreamBridge", this.logger);
    // Every live subscription and pending retry listens for close.
    setMaxListeners(0, this.closing.signal);
    const client = connectBridgeClient(options, this.logger);
    this.redis = client.redis;
    this.ownsClient = client.owned;
    this.connections = new BlockingConnections(this.redis, this.logger);
    const { redis, connections, gaps, logger } = this;
    this.subscriptions = {
      redis,
      connections,
      gaps,
      logger,
      maxEvents: settings.maxEvents,
      retry: settings.retry,
      closing: this.closing.signal,
    };
    this.call = boundedRedisCall({
      retry: settings.retry,
      operationTimeoutMs: settings.operationTimeoutMs,
      closing: this.closing.signal,
      logger: this.logger,
    });
    this.publisher = new RedisPublisher({
      redis: this.redis,
      key: (runId) => this.key(runId),
      maxEvents: settings.maxEvents,
      ttlSeconds: settings.ttlSeconds,
      maxBatchEvents: settings.maxBatchEvents,
      maxBatchBytes: settings.maxBatchBytes,
      call: this.call,
      logger: this.logger,
    });
  }

  /** {@inheritDoc StreamBridge.publish} */
  async publish(runId: string, event: string, data: unknown): Promise<string> {
    this.checkOpen();
    checkRunId(runId);
    checkEventName(runId, event);
    return this.publisher.publish(runId, event, encodeData(runId, event, data));
  }

  /** {@inheritDoc StreamBridge.publishEnd} */
  async publishEnd(runId: string): Promise<void> {
    this.checkOpen();
    checkRunId(runId);
    await this.publisher.publishEnd(runId);
  }

  /**
   * {@inheritDoc StreamBridge.subscribe}
   *
   * @throws RuntimeError `INVALID_ARGUMENT` (synchronously) for a malformed
   *   `lastEventId`, `heartbeatMs` or run id; `CLOSED` after {@link close}.
   *   While iterating: `BRIDGE_UNAVAILABLE` once `retry.attempts` consecutive
   *   Redis failures are spent.
   */
  subscribe(runId: string, options: SubscribeOptions = {}): AsyncIterable<StreamItem> {
    this.checkOpen();
    const { cursor, heartbeatMs, subscriber } = checkSubscribe(runId, options, this.settings.heartbeatMs, this.gaps);
    return followRedisStream(this.subscriptions, {
      runId,
      key: this.key(runId),
      cursor,
      heartbeatMs,
      subscriber,
      signal: options.signal,
    });
  }

  /** {@inheritDoc StreamBridge.stats} */
  stats(): StreamBridgeStats {
    return this.gaps.stats();
  }

  /** {@inheritDoc StreamBridge.exists} */
  async exists(runId: string): Promise<boolean> {
    this.checkOpen();
    checkRunId(runId);
    return (await this.call(`exists of run "${runId}"`, () => this.redis.exists(this.key(runId)))) === 1;
  }

  /**
   * {@inheritDoc StreamBridge.cleanup}
   *
   * A delayed cleanup runs on an unref'd timer; its failures are logged, and
   * the key's expiry removes the stream anyway. `close` cancels pending ones.
   */
  async cleanup(runId: string, options: { delayMs?: number } = {}): Promise<void> {
    this.checkOpen();
    checkRunId(runId);
    const delayMs = DelayedCleanups.delayOf(options);
    if (delayMs === 0) {
      await this.delete(runId);
      return;
    }
    this.cleanups.schedule(delayMs, () => {
      this.delete(runId).catch((error: unknown) =>
        this.logger.warn({ runId, err: (error as Error).message }, "stream bridge: delayed cleanup failed"),
      );
    });
  }

  /**
   * Ends every subscription (their iterators return), waits briefly for
   * in-flight publishes, disconnects the dedicated connections and quits the
   * client when the bridge created it. Idempotent.
   */
  async close(): Promise<void> {
    if (this.closing.signal.aborted) return;
    this.closing.abort();
    this.cleanups.cancelAll();
    await Promise.race([this.publisher.drained(), sleep(CLOSE_DRAIN_MS)]);
    this.connections.closeAll();
    if (this.ownsClient) await closeOwnedClient(this.redis);
  }

  private key(runId: string): string {
    return streamKey(this.settings.keyPrefix, runId);
  }

  private checkOpen(): void {
    if (this.closing.signal.aborted) throw new RuntimeError("CLOSED", "RedisStreamBridge is closed");
  }

  private async delete(runId: string): Promise<void> {
    await this.call(`cleanup of run "${runId}"`, () => this.redis.del(this.key(runId)));
    this.publisher.forget(runId);
  }
}
