/**
 * The writing side of {@link RedisStreamBridge}: the ids it picks, the per-run
 * publish chain, and group commit.
 *
 * **Ids.** Each entry id is explicit, `"<ms>-<seq>"` with `seq` the run's
 * 0-based event counter and `ms = max(now, ms of the previous event)`, fixed
 * before the first attempt, so a retried append (by the bridge, or resent by
 * ioredis after a lost reply) is recognised instead of written twice. Without
 * state for a run (another instance wrote it, or this one after `publishEnd`)
 * the first id is `"<now>-0"`; when the stream's top is newer, the writer
 * continues after that top.
 *
 * **Group commit.** Operations of one run run one after the other on a promise
 * chain. Publishes that arrive while the run's chain is busy join one batch,
 * sent as a single script call ({@link APPEND_EVENTS}: one round trip, atomic,
 * exact `MAXLEN` per entry, one expiry refresh) when the chain reaches it; each
 * caller's promise resolves with its own id, in call order. A batch is sealed
 * when it starts, at `maxBatchEvents` events or `maxBatchBytes` bytes of data,
 * and by `publishEnd`, so the end marker stays after every event published
 * before it. A publish that finds the chain idle waits no longer than it did
 * before: batching adds no delay, it only merges what is already queued.
 *
 * **No holes.** When a batch fails (the retry budget is spent, or Redis refuses
 * an entry), the batches already queued behind it on the run fail too, without
 * being sent: they were published after the failed events and must not land
 * without them. Publishes made after the failure are attempted normally.
 */
import type { Redis } from "ioredis";
import { RuntimeError } from "../errors.js";
import type { Logger } from "../logger.js";
import { parseEventId } from "./event-id.js";
import type { RedisCall } from "./redis-call.js";
import { APPEND_END, APPEND_EVENTS, runScript } from "./redis-scripts.js";

/** What {@link RedisPublisher} needs from its bridge. */
export interface RedisPublisherOptions {
  readonly redis: Redis;
  /** Stream key of a run. */
  readonly key: (runId: string) => string;
  /** Events kept per run (exact `MAXLEN`). */
  readonly maxEvents: number;
  /** Expiry refreshed by every append; 0 = none. */
  readonly ttlSeconds: number;
  /** Most events sent in one script call (≥ 1). */
  readonly maxBatchEvents: number;
  /** Most bytes of event names and data in one script call; a larger single event is sent alone. */
  readonly maxBatchBytes: number;
  readonly call: RedisCall;
  readonly logger: Logger;
}

/** Bound on re-picking ids when another writer keeps moving the stream's top. */
const MAX_REBASES = 16;

/** One publish waiting for its batch. */
interface PendingEvent {
  readonly event: string;
  readonly payload: string;
  resolve(id: string): void;
  reject(error: unknown): void;
}

/** Events sent together. */
interface Batch {
  readonly events: PendingEvent[];
  bytes: number;
  /** The run's failure count when the batch was opened: a later failure dooms it. */
  readonly failuresBefore: number;
}

/** Publisher state of one run. */
interface RunWriter {
  /** `ms` part of the last id written. */
  ms: number;
  /** Seq of the next event. */
  seq: number;
  /** False until this bridge wrote to the run (ids are then provisional). */
  known: boolean;
  ended: boolean;
  /** Tail of the run's publish chain. */
  tail: Promise<void>;
  /** Operations queued or running on the chain. */
  pending: number;
  /** The batch that publishes join, until it starts or is sealed. */
  open: Batch | undefined;
  /** Batches of the run that failed so far. */
  failures: number;
}

/** Outcome of one call of {@link APPEND_EVENTS}. */
interface BatchReply {
  status: "ok" | "conflict" | "failed";
  /** Leading events of the call that are in the stream. */
  written: number;
  /** `conflict`: the stream's top id (null when none); `failed`: Redis' error. */
  detail: string | null;
}

/** Per-run publish chains and group commit of one {@link RedisStreamBridge}. */
export class RedisPublisher {
  private readonly writers = new Map<string, RunWriter>();

  constructor(private readonly options: RedisPublisherOptions) {}

  /** Appends an event (`payload`: its data as JSON) after every earlier operation of the run; resolves with its id. */
  publish(runId: string, event: string, payload: string): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      const writer = this.writerOf(runId);
      const bytes = Buffer.byteLength(payload) + Buffer.byteLength(event);
      let batch = writer.open;
      if (
        batch === undefined ||
        batch.events.length >= this.options.maxBatchEvents ||
        batch.bytes + bytes > this.options.maxBatchBytes
      ) {
        const opened: Batch = { events: [], bytes: 0, failuresBefore: writer.failures };
        writer.open = opened;
        batch = opened;
        void this.enqueue(runId, writer, async () => {
          // Sealed once it starts: later publishes queue behind it.
          if (writer.open === opened) writer.open = undefined;
          await this.send(runId, writer, opened);
        });
      }
      batch.events.push({ event, payload, resolve, reject });
      batch.bytes += bytes;
    });
  }

  /** Appends the end marker (`MAXLEN` one above the events' cap, so it never evicts one) after every earlier operation. */
  async publishEnd(runId: string): Promise<void> {
    const writer = this.writerOf(runId);
    writer.open = undefined;
    await this.enqueue(runId, writer, async () => {
      const ms = Math.max(Date.now(), writer.ms);
      // Without state the next seq is unknown; `*` is always after the top.
      const id = writer.known ? `${ms}-${writer.seq}` : "*";
      const reply = await this.options.call(`publishEnd of run "${runId}"`, () =>
        runScript(this.options.redis, APPEND_END, this.options.key(runId), [
          id,
          this.options.maxEvents + 1,
          this.options.ttlSeconds,
        ]),
      );
      if (endReply(reply) === "added" && writer.known) {
        writer.ms = ms;
        writer.seq += 1;
      }
      writer.ended = true;
    });
  }

  /** Forgets a run's state when nothing is queued for it (its stream was deleted). */
  forget(runId: string): void {
    const writer = this.writers.get(runId);
    if (writer !== undefined && writer.pending === 0) this.writers.delete(runId);
  }

  /** Settles once every operation queued so far has. */
  drained(): Promise<unknown> {
    return Promise.allSettled([...this.writers.values()].map((writer) => writer.tail));
  }

  private writerOf(runId: string): RunWriter {
    let writer = this.writers.get(runId);
    if (writer === undefined) {
      writer = {
        ms: 0,
        seq: 0,
        known: false,
        ended: false,
        tail: Promise.resolve(),
        pending: 0,
        open: undefined,
        failures: 0,
      };
      this.writers.set(runId, writer);
    }
    return writer;
  }

  /** Runs `task` after every earlier operation of the run. */
  private enqueue(runId: string, writer: RunWriter, task: () => Promise<void>): Promise<void> {
    writer.pending += 1;
    const result = writer.tail.then(task);
    writer.tail = result.then(
      () => this.settle(runId, writer),
      () => this.settle(runId, writer),
    );
    return result;
  }

  /** Forgets a run's state once it ended and nothing is queued. */
  private settle(runId: string, writer: RunWriter): void {
    writer.pending -= 1;
    if (writer.pending === 0 && writer.ended && this.writers.get(runId) === writer) this.writers.delete(runId);
  }

  /** Writes a batch; settles every caller's promise and never rejects. */
  private async send(runId: string, writer: RunWriter, batch: Batch): Promise<void> {
    if (writer.failures !== batch.failuresBefore) {
      const error = new RuntimeError(
        "BRIDGE_UNAVAILABLE",
        `publish to run "${runId}" not attempted: an earlier publish of the run failed`,
        { details: { runId } },
      );
      for (const pending of batch.events) pending.reject(error);
      return;
    }
    let rest = batch.events;
    try {
      for (let rebase = 0; ; rebase++) {
        const reply = await this.attempt(runId, writer, rest);
        rest = rest.slice(reply.written);
        if (reply.status === "ok") return;
        if (reply.status === "failed") {
          throw new RuntimeError(
            "BRIDGE_UNAVAILABLE",
            `Redis stream bridge: publish of "${rest[0]?.event}" to run "${runId}" refused: ${reply.detail}`,
            {
              details: { runId, transient: false },
            },
          );
        }
        this.rebase(runId, writer, reply.detail, rebase);
      }
    } catch (error) {
      writer.failures += 1;
      // Publishes made from now on are attempted in a batch of their own.
      writer.open = undefined;
      for (const pending of rest) pending.reject(error);
    }
  }

  /** One script call for `events`; resolves the callers of the events written and advances the run's ids past them. */
  private async attempt(runId: string, writer: RunWriter, events: readonly PendingEvent[]): Promise<BatchReply> {
    // Chosen once per call: every retry and every ioredis resend carries the same ids.
    const ms = Math.max(Date.now(), writer.ms);
    const ids = events.map((_, j) => `${ms}-${writer.seq + j}`);
    const args: Array<string | number> = [this.options.maxEvents, this.options.ttlSeconds];
    for (const [j, pending] of events.entries()) args.push(ids[j] as string, pending.event, pending.payload);
    const what =
      events.length === 1
        ? `publish of "${events[0]?.event}" to run "${runId}"`
        : `publish of ${events.length} events to run "${runId}"`;
    const reply = batchReply(
      await this.options.call(what, () => runScript(this.options.redis, APPEND_EVENTS, this.options.key(runId), args)),
      events.length,
    );
    if (reply.written > 0) {
      writer.ms = ms;
      writer.seq += reply.written;
      writer.known = true;
      for (let j = 0; j < reply.written; j++) events[j]?.resolve(ids[j] as string);
    }
    return reply;
  }

  /** After a conflict: the next ids follow the stream's top. */
  private rebase(runId: string, writer: RunWriter, topId: string | null, rebase: number): void {
    const top = topId === null ? null : parseEventId(topId);
    if (
      top === null ||
      rebase >= MAX_REBASES ||
      top.ms > BigInt(Number.MAX_SAFE_INTEGER) ||
      top.seq >= BigInt(Number.MAX_SAFE_INTEGER)
    ) {
      throw new RuntimeError(
        "BRIDGE_UNAVAILABLE",
        `publish to run "${runId}": cannot append after the stream's top entry ${JSON.stringify(topId)} (another writer?)`,
        {
          details: { runId, top: topId },
        },
      );
    }
    this.options.logger.debug(
      { runId, seq: writer.seq, top: topId },
      "stream bridge: stream top is newer than the next id; continuing after it",
    );
    writer.ms = Math.max(writer.ms, Number(top.ms));
    writer.seq = Math.max(writer.seq, Number(top.seq) + 1);
  }
}

/** Decodes a reply of {@link APPEND_EVENTS} for a call of `count` events. */
function batchReply(reply: unknown, count: number): BatchReply {
  if (Array.isArray(reply)) {
    const [status, written, detail] = reply as unknown[];
    const valid = typeof written === "number" && Number.isInteger(written) && written >= 0 && written <= count;
    if (status === "ok" && written === count) return { status, written, detail: null };
    if ((status === "conflict" || status === "failed") && valid && written < count) {
      return { status, written, detail: typeof detail === "string" ? detail : null };
    }
  }
  throw new RuntimeError(
    "BRIDGE_UNAVAILABLE",
    `unexpected reply of the append script: ${JSON.stringify(reply)?.slice(0, 200)}`,
  );
}

/** Status of an {@link APPEND_END} reply. */
function endReply(reply: unknown): "added" | "exists" {
  if (Array.isArray(reply) && (reply[0] === "added" || reply[0] === "exists") && typeof reply[1] === "string")
    return reply[0];
  throw new RuntimeError(
    "BRIDGE_UNAVAILABLE",
    `unexpected reply of the end-marker script: ${JSON.stringify(reply)?.slice(0, 200)}`,
  );
}
