/**
 * `MemoryStreamBridge`: the in-process stream bridge (DeerFlow's default).
 *
 * Each run keeps its latest `maxEventsPerRun` events in a ring buffer; ids are
 * `"<ms>-<seq>"` with `seq` the run's 0-based event counter and `ms` the
 * publish time (clamped to be non-decreasing per run). Ids compare by `seq`.
 * The end of a stream is a flag, not an entry. Subscribers are woken by
 * publishes (no polling).
 *
 * @example
 * ```ts
 * const bridge = new MemoryStreamBridge({ maxEventsPerRun: 256 });
 * await bridge.publish(runId, "metadata", { run_id: runId, thread_id: threadId });
 * for await (const item of bridge.subscribe(runId, { lastEventId: req.headers["last-event-id"] ?? null })) {
 *   if (item.kind === "event") reply.sse({ id: item.id, event: item.event, data: item.data });
 * }
 * ```
 */
import { setMaxListeners } from "node:events";
import { RuntimeError } from "../errors.js";
import { silentLogger, type Logger } from "../logger.js";
import { DelayedCleanups } from "./delayed-cleanups.js";
import type { ParsedEventId } from "./event-id.js";
import { GapLog } from "./gap-log.js";
import { linkSignals } from "./linked-signal.js";
import { RunBuffer } from "./run-buffer.js";
import { END, gapItem, HEARTBEAT } from "./items.js";
import type { StreamBridge, StreamBridgeStats, StreamItem, SubscribeOptions } from "./stream-bridge.js";
import {
  checkEventName,
  checkRunId,
  checkSubscribe,
  DEFAULT_HEARTBEAT_MS,
  DEFAULT_MAX_EVENTS_PER_RUN,
  integerOption,
} from "./validate.js";
import { WaitList } from "./waiters.js";

/** Options of {@link MemoryStreamBridge}. */
export interface MemoryStreamBridgeOptions {
  /** Events kept per run; older ones are dropped (a late cursor gets a gap). Default 1024. */
  maxEventsPerRun?: number;
  /** Default idle time before a heartbeat item, ms. Default 15 000. */
  heartbeatMs?: number;
  /** Receives every gap (a slow subscriber as a warning) and debug records (cleanup); silent by default. */
  logger?: Logger;
}

/**
 * In-process {@link StreamBridge}: fast, but only subscribers in this process
 * see the events (`supportsCrossProcess` is false) and nothing survives a restart.
 *
 * Behaviour beyond the contract:
 * - Published `data` is delivered as the same value (no copy): do not mutate it
 *   after publishing.
 * - `cleanup` (immediate or when its delay elapses) ends the live
 *   subscriptions of the deleted stream with a {@link StreamGap} whose
 *   earliest/latest ids are null: their events are gone, so a client should
 *   reload durable state. DeerFlow cleans up 60 s after the end, when
 *   subscribers are normally done.
 * - Events published after `publishEnd` are stored but never delivered;
 *   subscribers stop at the end.
 * - `subscribe` validates its arguments synchronously: it throws
 *   `INVALID_ARGUMENT` (malformed cursor or heartbeat) or `CLOSED` before any
 *   iteration, so an HTTP layer can answer 400 before sending headers.
 * - Every gap is logged (run, subscriber, how far behind) and counted in {@link stats}.
 */
export class MemoryStreamBridge implements StreamBridge {
  /** Always false: subscribers must live in the publishing process. */
  readonly supportsCrossProcess = false;
  private readonly capacity: number;
  private readonly heartbeatMs: number;
  private readonly logger: Logger;
  private readonly gaps: GapLog;
  private readonly runs = new Map<string, RunBuffer>();
  /** Subscribers waiting for a run that has no stream yet. */
  private readonly pending = new Map<string, WaitList>();
  private readonly cleanups = new DelayedCleanups();
  private readonly closing = new AbortController();

  /**
   * @param options - retention, heartbeat and logger.
   * @throws RuntimeError `CONFIG_INVALID` for a non-integer or out-of-range option.
   */
  constructor(options: MemoryStreamBridgeOptions = {}) {
    this.capacity = integerOption(
      "maxEventsPerRun",
      options.maxEventsPerRun,
      DEFAULT_MAX_EVENTS_PER_RUN,
      1,
      "CONFIG_INVALID",
      10_000_000,
    );
    this.heartbeatMs = integerOption(
      "heartbeatMs",
      options.heartbeatMs,
      DEFAULT_HEARTBEAT_MS,
      1,
      "CONFIG_INVALID",
      2_147_483_647,
    );
    this.logger = options.logger ?? silentLogger;
    this.gaps = new GapLog("MemoryStreamBridge", this.logger);
    // Every live subscription listens for close.
    setMaxListeners(0, this.closing.signal);
  }

  /** {@inheritDoc StreamBridge.publish} */
  async publish(runId: string, event: string, data: unknown): Promise<string> {
    this.checkOpen();
    checkRunId(runId);
    checkEventName(runId, event);
    return this.buffer(runId).append(event, data).id;
  }

  /** {@inheritDoc StreamBridge.publishEnd} */
  async publishEnd(runId: string): Promise<void> {
    this.checkOpen();
    checkRunId(runId);
    this.buffer(runId).end();
  }

  /**
   * {@inheritDoc StreamBridge.subscribe}
   *
   * @throws RuntimeError `INVALID_ARGUMENT` (synchronously) for a malformed
   *   `lastEventId`, `heartbeatMs` or run id; `CLOSED` after {@link close}.
   */
  subscribe(runId: string, options: SubscribeOptions = {}): AsyncIterable<StreamItem> {
    this.checkOpen();
    const { cursor, heartbeatMs, subscriber } = checkSubscribe(runId, options, this.heartbeatMs, this.gaps);
    return this.follow(runId, cursor, heartbeatMs, options.signal, subscriber);
  }

  /** {@inheritDoc StreamBridge.stats} */
  stats(): StreamBridgeStats {
    return this.gaps.stats();
  }

  /** {@inheritDoc StreamBridge.exists} */
  async exists(runId: string): Promise<boolean> {
    return this.runs.has(runId);
  }

  /** {@inheritDoc StreamBridge.cleanup} */
  async cleanup(runId: string, options: { delayMs?: number } = {}): Promise<void> {
    checkRunId(runId);
    const delayMs = DelayedCleanups.delayOf(options);
    if (delayMs === 0) this.delete(runId);
    else this.cleanups.schedule(delayMs, () => this.delete(runId));
  }

  /** Ends every subscription (their iterators return) and drops all streams. Idempotent. */
  async close(): Promise<void> {
    if (this.closing.signal.aborted) return;
    this.closing.abort();
    this.cleanups.cancelAll();
    this.runs.clear();
    this.pending.clear();
  }

  private checkOpen(): void {
    if (this.closing.signal.aborted) throw new RuntimeError("CLOSED", "MemoryStreamBridge is closed");
  }

  private buffer(runId: string): RunBuffer {
    let buffer = this.runs.get(runId);
    if (buffer === undefined) {
      buffer = new RunBuffer(this.capacity);
      this.runs.set(runId, buffer);
      const waiting = this.pending.get(runId);
      this.pending.delete(runId);
      waiting?.wakeAll();
    }
    return buffer;
  }

  private delete(runId: string): void {
    const buffer = this.runs.get(runId);
    if (buffer === undefined) return;
    this.runs.delete(runId);
    buffer.deleted = true;
    buffer.waiters.wakeAll();
    this.logger.debug({ runId }, "stream bridge: run stream deleted");
  }

  /** Parks until the run's stream is created, a heartbeat is due, or the subscription stops. */
  private async waitForStream(
    runId: string,
    heartbeatMs: number,
    signal: AbortSignal,
  ): Promise<"wake" | "timeout" | "stop"> {
    let list = this.pending.get(runId);
    if (list === undefined) {
      list = new WaitList();
      this.pending.set(runId, list);
    }
    const outcome = await list.wait(heartbeatMs, signal);
    if (list.size === 0 && this.pending.get(runId) === list) this.pending.delete(runId);
    return outcome;
  }

  private async *follow(
    runId: string,
    cursor: ParsedEventId | null,
    heartbeatMs: number,
    callerSignal: AbortSignal | undefined,
    subscriber: string,
  ): AsyncGenerator<StreamItem> {
    const stop = linkSignals(this.closing.signal, callerSignal);
    try {
      // The cursor is the last event the subscriber has (given or delivered); null = from the start.
      let cursorId = cursor?.id ?? null;
      let cursorSeq = cursor === null ? null : Number(cursor.seq);
      let delivered = 0;
      let buffer: RunBuffer | undefined;
      while (!stop.signal.aborted) {
        if (buffer === undefined) {
          buffer = this.runs.get(runId);
          if (buffer === undefined) {
            const outcome = await this.waitForStream(runId, heartbeatMs, stop.signal);
            if (outcome === "timeout") yield HEARTBEAT;
            continue;
          }
        }
        if (buffer.deleted) {
          yield this.gaps.record(gapItem(runId, cursorId, null, null), "streamDeleted", subscriber);
          return;
        }
        // Conservative, like DeerFlow: an evicted cursor is a gap even if the event right after it is still kept.
        if (cursorSeq !== null && cursorSeq < buffer.startSeq) {
          const gap = gapItem(runId, cursorId, buffer.earliestId, buffer.latestId);
          yield this.gaps.record(gap, delivered > 0 ? "slowSubscriber" : "staleCursor", subscriber);
          return;
        }
        const next = cursorSeq === null ? buffer.startSeq : cursorSeq + 1;
        if (next < buffer.visibleEnd) {
          const item = buffer.at(next);
          yield item;
          cursorSeq = next;
          cursorId = item.id;
          delivered += 1;
          continue;
        }
        if (buffer.endSeq !== null) {
          yield END;
          return;
        }
        const outcome = await buffer.waiters.wait(heartbeatMs, stop.signal);
        if (outcome === "timeout") yield HEARTBEAT;
      }
    } finally {
      stop.dispose();
    }
  }
}
