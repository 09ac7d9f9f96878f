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
 * wait with `XREAD BLOCK` on a dedicated `duplicate()` connection, created on
 * first wait and disconnected when the subscription ends. A blocking read that
 * returns fewer entries than it asked for (`min(64, maxEventsPerRun)`) is
 * delivered directly: trimming removes the oldest entries first, so if any
 * entry after the cursor had been trimmed, at least `maxEventsPerRun` entries
 * after the cursor would be left (this assumes every writer of the run uses a
 * `maxEventsPerRun` at least that large). A full read is delivered once a
 * bounds-only snapshot shows the cursor still retained (else it is a gap); a
 * heartbeat or a failure goes back to the full snapshot. Subscribers track the last delivered id
 * and continue exactly after it after any failure.
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
import { Redis, type RedisOptions } from "ioredis";
import { setMaxListeners } from "node:events";
import { RuntimeError } from "../errors.js";
import { backoffDelay, retryWithBackoff, sleep, type BackoffOptions } from "../internal/backoff.js";
import { raceAbort } from "../internal/race-abort.js";
import { silentLogger, type Logger } from "../logger.js";
import { compareEventIds, parseCursor, parseEventId, type ParsedEventId } from "./event-id.js";
import { GapLog } from "./gap-log.js";
import { END, gapItem, HEARTBEAT } from "./items.js";
import { linkSignals } from "./linked-signal.js";
import { decodeEntry, encodeData, type RedisEntry } from "./redis-entries.js";
import { isTransientRedisError } from "./redis-errors.js";
import { RedisPublisher } from "./redis-publisher.js";
import { runScript, SNAPSHOT } from "./redis-scripts.js";
import type { StreamBridge, StreamBridgeStats, StreamItem, SubscribeOptions } from "./stream-bridge.js";
import { checkEventName, checkRunId, DEFAULT_HEARTBEAT_MS, DEFAULT_MAX_EVENTS_PER_RUN, integerOption, subscribeHeartbeat } from "./validate.js";

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
export type RedisStreamBridgeOptions = RedisStreamBridgeCommonOptions & ({ redis: Redis; url?: never } | { url: string; redis?: never });

/** Entries read per snapshot. */
const BATCH = 64;
/**
 * ioredis settings of the connections the bridge creates: a queued command
 * fails after 2 failed reconnects (instead of 20), and reconnect delays stop
 * growing at ~1 s (instead of 5 s), so each of the bridge's own attempts ends
 * within a few seconds while Redis is down and `retry` alone sets the budget.
 */
const OWNED_CLIENT_OPTIONS = {
  maxRetriesPerRequest: 2,
  retryStrategy: (times: number): number => Math.min(50 * 2 ** (times - 1), 1_000) + Math.floor(Math.random() * 100),
} satisfies Partial<RedisOptions>;
/** How long `close` waits for in-flight publishes. */
const CLOSE_DRAIN_MS = 2_000;
/** Default of `operationTimeoutMs`. */
const DEFAULT_OPERATION_TIMEOUT_MS = 15_000;

/** What the snapshot script returned. */
interface Snapshot {
  exists: boolean;
  earliest: ParsedEventId | null;
  latestId: string | null;
  latestIsEnd: boolean;
  entries: RedisEntry[];
  /** The read hit the batch size: more entries may follow. */
  full: boolean;
}

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
  private readonly redis: Redis;
  private readonly ownsClient: boolean;
  private readonly keyPrefix: string;
  private readonly maxEvents: number;
  private readonly ttlSeconds: number;
  private readonly heartbeatMs: number;
  private readonly retry: BackoffOptions;
  private readonly operationTimeoutMs: number;
  private readonly logger: Logger;
  private readonly gaps: GapLog;
  private readonly publisher: RedisPublisher;
  private readonly dedicated = new Set<Redis>();
  private readonly cleanupTimers = new Set<NodeJS.Timeout>();
  private readonly closing = new AbortController();

  /**
   * @param options - the connection (`redis` or `url`) and tuning.
   * @throws RuntimeError `CONFIG_INVALID` when neither or both of `redis`/`url`
   *   are given, or an option is out of range.
   */
  constructor(options: RedisStreamBridgeOptions) {
    const given = options as { redis?: unknown; url?: unknown };
    if ((given.redis === undefined) === (given.url === undefined)) {
      throw new RuntimeError("CONFIG_INVALID", "RedisStreamBridge needs exactly one of `redis` (a client you own) or `url` (the bridge owns its client)");
    }
    if (options.keyPrefix !== undefined && typeof options.keyPrefix !== "string") {
      throw new RuntimeError("CONFIG_INVALID", `keyPrefix must be a string, got ${typeof options.keyPrefix}`);
    }
    this.keyPrefix = options.keyPrefix ?? "deerflow:stream:";
    this.maxEvents = integerOption("maxEventsPerRun", options.maxEventsPerRun, DEFAULT_MAX_EVENTS_PER_RUN, 1);
    this.ttlSeconds = integerOption("ttlSeconds", options.ttlSeconds, 86_400, 0);
    this.heartbeatMs = integerOption("heartbeatMs", options.heartbeatMs, DEFAULT_HEARTBEAT_MS, 1, "CONFIG_INVALID", 2_147_483_647);
    this.retry = {
      attempts: integerOption("retry.attempts", options.retry?.attempts, 6, 1),
      baseDelayMs: integerOption("retry.baseDelayMs", options.retry?.baseDelayMs, 100, 0),
      maxDelayMs: integerOption("retry.maxDelayMs", options.retry?.maxDelayMs, 2_000, 0),
    };
    this.operationTimeoutMs = integerOption("operationTimeoutMs", options.operationTimeoutMs, DEFAULT_OPERATION_TIMEOUT_MS, 1, "CONFIG_INVALID", 2_147_483_647);
    this.logger = options.logger ?? silentLogger;
    this.gaps = new GapLog("RedisStreamBridge", this.logger);
    const maxBatchEvents = integerOption("batch.maxEvents", options.batch?.maxEvents, 256, 1);
    const maxBatchBytes = integerOption("batch.maxBytes", options.batch?.maxBytes, 1_048_576, 1);
    // Every live subscription and pending retry listens for close.
    setMaxListeners(0, this.closing.signal);
    if (options.redis !== undefined) {
      this.redis = options.redis;
      this.ownsClient = false;
    } else {
      if (typeof options.url !== "string" || options.url.length === 0) throw new RuntimeError("CONFIG_INVALID", "url must be a non-empty Redis URL");
      this.redis = new Redis(options.url, OWNED_CLIENT_OPTIONS);
      this.redis.on("error", (error: Error) => this.logger.debug({ err: error.message }, "stream bridge: Redis connection error"));
      this.ownsClient = true;
    }
    this.publisher = new RedisPublisher({
      redis: this.redis,
      key: (runId) => this.key(runId),
      maxEvents: this.maxEvents,
      ttlSeconds: this.ttlSeconds,
      maxBatchEvents,
      maxBatchBytes,
      call: (what, operation) => this.call(what, operation),
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
    checkRunId(runId);
    const cursor = parseCursor(runId, options.lastEventId);
    const heartbeatMs = subscribeHeartbeat(runId, options.heartbeatMs, this.heartbeatMs);
    const subscriber = this.gaps.label(runId, options.subscriber);
    return this.follow(runId, cursor, heartbeatMs, options.signal, subscriber);
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
    const delayMs = integerOption("delayMs", options.delayMs, 0, 0, "INVALID_ARGUMENT");
    if (delayMs === 0) {
      await this.delete(runId);
      return;
    }
    const timer = setTimeout(() => {
      this.cleanupTimers.delete(timer);
      this.delete(runId).catch((error: unknown) => this.logger.warn({ runId, err: (error as Error).message }, "stream bridge: delayed cleanup failed"));
    }, delayMs);
    timer.unref();
    this.cleanupTimers.add(timer);
  }

  /**
   * Ends every subscription (their iterators return), waits briefly for
   * in-flight publishes, disconnects the dedicated connections and quits the
   * client when the bridge created it. Idempotent.
   */
  async close(): Promise<void> {
    if (this.closing.signal.aborted) return;
    this.closing.abort();
    for (const timer of this.cleanupTimers) clearTimeout(timer);
    this.cleanupTimers.clear();
    await Promise.race([this.publisher.drained(), sleep(CLOSE_DRAIN_MS)]);
    for (const connection of this.dedicated) connection.disconnect();
    this.dedicated.clear();
    if (!this.ownsClient) return;
    if (this.redis.status === "ready") await this.redis.quit().catch(() => this.redis.disconnect());
    else this.redis.disconnect();
  }

  private key(runId: string): string {
    return `${this.keyPrefix}${runId}`;
  }

  private checkOpen(): void {
    if (this.closing.signal.aborted) throw new RuntimeError("CLOSED", "RedisStreamBridge is closed");
  }

  private async delete(runId: string): Promise<void> {
    await this.call(`cleanup of run "${runId}"`, () => this.redis.del(this.key(runId)));
    this.publisher.forget(runId);
  }

  /**
   * One Redis operation with retries, bounded by `operationTimeoutMs`; failures
   * become `BRIDGE_UNAVAILABLE` (or `CLOSED`).
   */
  private async call<T>(what: string, operation: () => Promise<T>): Promise<T> {
    let attempts = 0;
    const timeout = AbortSignal.timeout(this.operationTimeoutMs);
    const stop = linkSignals(this.closing.signal, timeout);
    try {
      const retried = retryWithBackoff(
        (attempt) => {
          attempts = attempt;
          return operation();
        },
        {
          ...this.retry,
          isTransient: isTransientRedisError,
          signal: stop.signal,
          onRetry: (error, attempt, delayMs) => this.logger.warn({ what, attempt, delayMs, err: (error as Error).message }, "stream bridge: Redis call failed, retrying"),
        },
      );
      // An attempt can hang in the client's offline queue for the whole outage: stop waiting at the deadline.
      return await raceAbort(retried, stop.signal);
    } catch (error) {
      if (this.closing.signal.aborted) throw new RuntimeError("CLOSED", `RedisStreamBridge closed during ${what}`, { cause: error });
      if (timeout.aborted) {
        throw new RuntimeError("BRIDGE_UNAVAILABLE", `Redis stream bridge: ${what} did not complete within ${this.operationTimeoutMs} ms (${attempts} attempt(s)); is Redis reachable?`, {
          cause: error,
          details: { attempts, timeoutMs: this.operationTimeoutMs, transient: true },
        });
      }
      throw new RuntimeError("BRIDGE_UNAVAILABLE", `Redis stream bridge: ${what} failed after ${attempts} attempt(s): ${(error as Error).message}`, {
        cause: error,
        details: { attempts, transient: isTransientRedisError(error) },
      });
    } finally {
      stop.dispose();
    }
  }

  /** A connection of its own for one subscriber's blocking reads. */
  private openDedicated(heartbeatMs: number): Redis {
    const connection = this.redis.duplicate({
      lazyConnect: false,
      enableOfflineQueue: true,
      autoResendUnfulfilledCommands: true,
      maxRetriesPerRequest: OWNED_CLIENT_OPTIONS.maxRetriesPerRequest,
      // A blocking read must not be cut by a command timeout, but must not hang on a dead socket either.
      commandTimeout: undefined,
      blockingTimeout: heartbeatMs,
    } satisfies Partial<RedisOptions>);
    connection.on("error", (error: Error) => this.logger.debug({ err: error.message }, "stream bridge: subscriber connection error"));
    this.dedicated.add(connection);
    return connection;
  }

  /**
   * Counts a subscriber failure and waits its backoff; throws when the error is
   * not transient or `retry.attempts` consecutive failures are spent.
   */
  private async subscriberFailure(runId: string, error: unknown, failures: number, signal: AbortSignal): Promise<number> {
    const count = failures + 1;
    if (!isTransientRedisError(error) || count >= this.retry.attempts) {
      throw new RuntimeError("BRIDGE_UNAVAILABLE", `Redis stream bridge: subscription to run "${runId}" failed after ${count} attempt(s): ${(error as Error).message}`, {
        cause: error,
        details: { runId, attempts: count },
      });
    }
    const delayMs = backoffDelay(count, this.retry);
    this.logger.warn({ runId, attempt: count, delayMs, err: (error as Error).message }, "stream bridge: subscription read failed, retrying");
    await sleep(delayMs, signal);
    return count;
  }

  /** The atomic snapshot: bounds and up to `count` entries after the cursor (0: bounds only). */
  private async snapshot(runId: string, cursor: string | null, count = BATCH): Promise<Snapshot> {
    return decodeSnapshot(await runScript(this.redis, SNAPSHOT, this.key(runId), [cursor ?? "-", count]), count);
  }

  private async *follow(runId: string, cursor: ParsedEventId | null, heartbeatMs: number, callerSignal: AbortSignal | undefined, subscriber: string): AsyncGenerator<StreamItem> {
    const stop = linkSignals(this.closing.signal, callerSignal);
    let connection: Redis | undefined;
    // Disconnecting is the only way to interrupt a blocking XREAD.
    const interrupt = (): void => connection?.disconnect();
    stop.signal.addEventListener("abort", interrupt, { once: true });
    const key = this.key(runId);
    const blockCount = Math.min(BATCH, this.maxEvents);
    let position = cursor;
    let delivered = 0;
    let failures = 0;
    let snapshotNeeded = true;
    try {
      while (!stop.signal.aborted) {
        if (snapshotNeeded) {
          let view: Snapshot;
          try {
            view = await this.snapshot(runId, position?.id ?? null);
            failures = 0;
          } catch (error) {
            if (stop.signal.aborted) return;
            failures = await this.subscriberFailure(runId, error, failures, stop.signal);
            continue;
          }
          if (stop.signal.aborted) return;
          if (!view.exists) {
            if (delivered > 0) {
              yield this.gaps.record(gapItem(runId, position?.id ?? null, null, null), "streamDeleted", subscriber);
              return;
            }
          } else {
            // Conservative, like DeerFlow: an evicted cursor is a gap even if the entry right after it is still kept.
            if (position !== null && view.earliest !== null && compareEventIds(view.earliest, position) > 0) {
              const gap = gapItem(runId, position.id, view.earliest.id, view.latestId);
              yield this.gaps.record(gap, delivered > 0 ? "slowSubscriber" : "staleCursor", subscriber);
              return;
            }
            for (const entry of view.entries) {
              if (entry.kind === "end") {
                yield END;
                return;
              }
              yield entry;
              delivered += 1;
              position = parseEventId(entry.id) ?? position;
              if (stop.signal.aborted) return;
            }
            if (view.full) continue;
            if (view.entries.length === 0 && view.latestIsEnd) {
              // The end marker is at or before the cursor.
              yield END;
              return;
            }
          }
          snapshotNeeded = false;
        }
        // Caught up as of the last read: wait on the subscriber's own connection.
        connection ??= this.openDedicated(heartbeatMs);
        let reply: unknown;
        try {
          reply = await connection.xread("COUNT", blockCount, "BLOCK", heartbeatMs, "STREAMS", key, position?.id ?? "0-0");
          failures = 0;
        } catch (error) {
          if (stop.signal.aborted) return;
          failures = await this.subscriberFailure(runId, error, failures, stop.signal);
          snapshotNeeded = true;
          continue;
        }
        if (stop.signal.aborted) return;
        const raw = xreadEntries(reply);
        if (raw === null) {
          yield HEARTBEAT;
          // Also notices a deleted stream.
          snapshotNeeded = true;
          continue;
        }
        // Trimming removes the oldest entries first: once an entry after the cursor is trimmed, the
        // stream holds `maxEventsPerRun` (≥ blockCount) entries, all after the cursor. So a read
        // of fewer than `blockCount` entries skipped nothing and they directly follow the cursor.
        // A full read may have skipped trimmed entries unless the cursor is still retained now
        // (then it was at the read too): check the bounds, with the same gap rule as the snapshot.
        if (raw.length >= blockCount && position !== null) {
          let bounds: Snapshot;
          try {
            bounds = await this.snapshot(runId, position.id, 0);
          } catch (error) {
            if (stop.signal.aborted) return;
            failures = await this.subscriberFailure(runId, error, failures, stop.signal);
            snapshotNeeded = true;
            continue;
          }
          if (stop.signal.aborted) return;
          if (!bounds.exists) {
            snapshotNeeded = true;
            continue;
          }
          if (bounds.earliest !== null && compareEventIds(bounds.earliest, position) > 0) {
            const gap = gapItem(runId, position.id, bounds.earliest.id, bounds.latestId);
            yield this.gaps.record(gap, delivered > 0 ? "slowSubscriber" : "staleCursor", subscriber);
            return;
          }
        }
        for (const item of raw) {
          const entry = decodeEntry(item);
          if (entry === null) continue;
          if (entry.kind === "end") {
            yield END;
            return;
          }
          yield entry;
          delivered += 1;
          position = parseEventId(entry.id) ?? position;
          if (stop.signal.aborted) return;
        }
      }
    } finally {
      stop.signal.removeEventListener("abort", interrupt);
      stop.dispose();
      if (connection !== undefined) {
        this.dedicated.delete(connection);
        connection.disconnect();
      }
    }
  }
}

/**
 * The entries of a single-stream XREAD reply, or null when it timed out.
 * Accepts the RESP2/legacy shape `[[key, entries]]` and a RESP3 map `{key: entries}`.
 */
function xreadEntries(reply: unknown): unknown[] | null {
  if (reply === null || reply === undefined) return null;
  const streams: unknown[] = Array.isArray(reply) ? reply : Object.entries(reply as Record<string, unknown>);
  const first = streams[0];
  if (!Array.isArray(first) || !Array.isArray(first[1])) return null;
  return first[1] as unknown[];
}

function decodeSnapshot(reply: unknown, count: number): Snapshot {
  if (!Array.isArray(reply) || (reply[0] !== 0 && reply[0] !== 1)) {
    throw new RuntimeError("BRIDGE_UNAVAILABLE", `unexpected reply of the snapshot script: ${JSON.stringify(reply)?.slice(0, 200)}`);
  }
  if (reply[0] === 0) return { exists: false, earliest: null, latestId: null, latestIsEnd: false, entries: [], full: false };
  const earliest = typeof reply[1] === "string" ? parseEventId(reply[1]) : null;
  const latestId = typeof reply[2] === "string" ? reply[2] : null;
  const rawEntries: unknown[] = Array.isArray(reply[4]) ? reply[4] : [];
  const entries: RedisEntry[] = [];
  for (const raw of rawEntries) {
    const entry = decodeEntry(raw);
    if (entry !== null) entries.push(entry);
  }
  return { exists: true, earliest, latestId, latestIsEnd: reply[3] === 1, entries, full: count > 0 && rawEntries.length >= count };
}
