/**
 * The reading side of {@link RedisStreamBridge}: one subscriber following a
 * run's stream.
 *
 * A subscriber reads with the atomic snapshot (earliest/latest ids and new
 * entries after its cursor in one step, so a gap is detected exactly) and,
 * once caught up, waits with `XREAD BLOCK` on a dedicated connection, created
 * on first wait and disconnected when the subscription ends. A blocking read
 * that returns fewer entries than it asked for (`min(64, maxEventsPerRun)`) is
 * delivered directly: trimming removes the oldest entries first, so if any
 * entry after the cursor had been trimmed, at least `maxEventsPerRun` entries
 * after the cursor would be left (this assumes every writer of the run uses a
 * `maxEventsPerRun` at least that large). A full read is delivered once a
 * bounds-only snapshot shows the cursor still retained (else it is a gap); a
 * heartbeat or a failure goes back to the full snapshot. The subscriber tracks
 * the last delivered id and continues exactly after it after any failure.
 */
import type { Redis } from "ioredis";
import { RuntimeError } from "../errors.js";
import { backoffDelay, sleep, type BackoffOptions } from "../internal/backoff.js";
import type { Logger } from "../logger.js";
import { compareEventIds, parseEventId, type ParsedEventId } from "./event-id.js";
import type { GapLog } from "./gap-log.js";
import { END, gapItem, HEARTBEAT } from "./items.js";
import { linkSignals } from "./linked-signal.js";
import type { BlockingConnections } from "./redis-connections.js";
import { decodeEntries, type RedisEntry } from "./redis-entries.js";
import { isTransientRedisError } from "./redis-errors.js";
import { blockingRead, readSnapshot, type Snapshot } from "./redis-reads.js";
import type { StreamGap, StreamItem } from "./stream-bridge.js";

/** Entries read per snapshot. */
const BATCH = 64;

/** What a subscription needs from its bridge. */
export interface SubscriptionContext {
  /** The bridge's command client (snapshots). */
  readonly redis: Redis;
  readonly connections: BlockingConnections;
  /** Events kept per run. */
  readonly maxEvents: number;
  /** Backoff of consecutive failed reads. */
  readonly retry: BackoffOptions;
  readonly gaps: GapLog;
  readonly logger: Logger;
  /** Aborted when the bridge closes. */
  readonly closing: AbortSignal;
}

/** One validated `subscribe` call. */
export interface SubscriptionRequest {
  readonly runId: string;
  readonly key: string;
  /** The last event the subscriber has; null: from the start. */
  readonly cursor: ParsedEventId | null;
  readonly heartbeatMs: number;
  /** Its label in logs. */
  readonly subscriber: string;
  readonly signal: AbortSignal | undefined;
}

/** A read failed (counted, backoff waited) or the subscription stopped meanwhile: read again from a snapshot. */
const REREAD = Symbol("reread");

/** Follows a run's stream until its end marker, a gap, the caller's signal or the bridge's close. */
export async function* followRedisStream(
  context: SubscriptionContext,
  request: SubscriptionRequest,
): AsyncGenerator<StreamItem> {
  const stop = linkSignals(context.closing, request.signal);
  const reader = new StreamReader(context, request, stop.signal);
  try {
    let snapshotNeeded = true;
    while (!stop.signal.aborted) {
      if (snapshotNeeded) {
        const view = await reader.attempt(reader.snapshot(BATCH));
        if (view === REREAD) continue;
        if (!view.exists) {
          if (reader.hasDelivered) {
            yield reader.gap(null, "streamDeleted");
            return;
          }
        } else {
          const gap = reader.evictedGap(view);
          if (gap !== undefined) {
            yield gap;
            return;
          }
          if (yield* reader.deliver(view.entries)) return;
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
      const raw = await reader.attempt(reader.blockingRead());
      if (raw === REREAD || raw === null) {
        // A heartbeat (the wait timed out) is followed by a snapshot too: it notices a deleted stream.
        if (raw === null) yield HEARTBEAT;
        snapshotNeeded = true;
        continue;
      }
      // Trimming removes the oldest entries first: once an entry after the cursor is trimmed, the
      // stream holds `maxEventsPerRun` (≥ the read's count) entries, all after the cursor. So a
      // short read skipped nothing and its entries directly follow the cursor. A full read may have
      // skipped trimmed entries unless the cursor is still retained now (then it was at the read
      // too): check the bounds, with the same gap rule as the snapshot.
      if (reader.isFullRead(raw)) {
        const bounds = await reader.attempt(reader.snapshot(0));
        if (bounds === REREAD || !bounds.exists) {
          snapshotNeeded = true;
          continue;
        }
        const gap = reader.evictedGap(bounds);
        if (gap !== undefined) {
          yield gap;
          return;
        }
      }
      if (yield* reader.deliver(decodeEntries(raw))) return;
    }
  } finally {
    stop.dispose();
    reader.release();
  }
}

/** The state of one subscription: its cursor, what it delivered, its failures and connection. */
class StreamReader {
  /** The last event delivered (or the given cursor). */
  private position: ParsedEventId | null;
  private delivered = 0;
  private failures = 0;
  private connection: Redis | undefined;
  private readonly blockCount: number;
  // Disconnecting is the only way to interrupt a blocking XREAD.
  private readonly interrupt = (): void => this.connection?.disconnect();

  constructor(
    private readonly context: SubscriptionContext,
    private readonly request: SubscriptionRequest,
    private readonly signal: AbortSignal,
  ) {
    this.position = request.cursor;
    this.blockCount = Math.min(BATCH, context.maxEvents);
    signal.addEventListener("abort", this.interrupt, { once: true });
  }

  /** True once an event was delivered. */
  get hasDelivered(): boolean {
    return this.delivered > 0;
  }

  /** The snapshot after the cursor, with up to `count` entries (0: bounds only). */
  snapshot(count: number): Promise<Snapshot> {
    return readSnapshot(this.context.redis, this.request.key, this.position?.id ?? null, count);
  }

  /** The blocking read after the cursor, on the subscriber's own connection (opened on first use). */
  blockingRead(): Promise<unknown[] | null> {
    const connection = (this.connection ??= this.context.connections.acquire(this.request.heartbeatMs));
    return blockingRead(
      connection,
      this.request.key,
      this.position?.id ?? null,
      this.blockCount,
      this.request.heartbeatMs,
    );
  }

  /** True when a blocking read may have skipped trimmed entries (see `followRedisStream`). */
  isFullRead(raw: readonly unknown[]): boolean {
    return raw.length >= this.blockCount && this.position !== null;
  }

  /**
   * Awaits one read. A failure is counted and its backoff waited ({@link REREAD});
   * `BRIDGE_UNAVAILABLE` once the error is not transient or `retry.attempts`
   * consecutive reads failed.
   */
  async attempt<T>(read: Promise<T>): Promise<T | typeof REREAD> {
    let result: T;
    try {
      result = await read;
    } catch (error) {
      if (!this.signal.aborted) await this.failed(error);
      return REREAD;
    }
    this.failures = 0;
    return this.signal.aborted ? REREAD : result;
  }

  /**
   * Yields the entries in order, moving the cursor past each; true when the
   * subscription is over (the end marker, or it stopped).
   */
  *deliver(entries: Iterable<RedisEntry>): Generator<StreamItem, boolean> {
    for (const entry of entries) {
      if (entry.kind === "end") {
        yield END;
        return true;
      }
      yield entry;
      this.delivered += 1;
      this.position = parseEventId(entry.id) ?? this.position;
      if (this.signal.aborted) return true;
    }
    return false;
  }

  /** The gap when the stream no longer holds the cursor, counted and logged; undefined when it does. */
  evictedGap(view: Snapshot): StreamGap | undefined {
    // Conservative, like DeerFlow: an evicted cursor is a gap even if the entry right after it is still kept.
    const position = this.position;
    if (position === null || view.earliest === null || compareEventIds(view.earliest, position) <= 0) return undefined;
    return this.gap(view, this.delivered > 0 ? "slowSubscriber" : "staleCursor");
  }

  /** A gap after the cursor, counted and logged; `view` null: the stream is gone. */
  gap(view: Snapshot | null, reason: "slowSubscriber" | "staleCursor" | "streamDeleted"): StreamGap {
    const item = gapItem(
      this.request.runId,
      this.position?.id ?? null,
      view?.earliest?.id ?? null,
      view?.latestId ?? null,
    );
    return this.context.gaps.record(item, reason, this.request.subscriber);
  }

  /** Ends the subscription's use of its connection. */
  release(): void {
    this.signal.removeEventListener("abort", this.interrupt);
    if (this.connection !== undefined) this.context.connections.release(this.connection);
  }

  private async failed(error: unknown): Promise<void> {
    const count = this.failures + 1;
    const { runId } = this.request;
    if (!isTransientRedisError(error) || count >= this.context.retry.attempts) {
      throw new RuntimeError(
        "BRIDGE_UNAVAILABLE",
        `Redis stream bridge: subscription to run "${runId}" failed after ${count} attempt(s): ${(error as Error).message}`,
        {
          cause: error,
          details: { runId, attempts: count },
        },
      );
    }
    const delayMs = backoffDelay(count, this.context.retry);
    this.context.logger.warn(
      { runId, attempt: count, delayMs, err: (error as Error).message },
      "stream bridge: subscription read failed, retrying",
    );
    await sleep(delayMs, this.signal);
    this.failures = count;
  }
}
