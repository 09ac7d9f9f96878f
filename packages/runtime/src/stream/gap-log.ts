/**
 * The gaps a stream bridge yields, logged and counted. A gap ends a client's
 * stream (the SSE `gap` frame), so an operator needs to see each one: which
 * run, which subscriber, and how far behind it was; and how often it happens
 * (`/health`).
 */
import { RuntimeError } from "../errors.js";
import type { Logger } from "../logger.js";
import { parseEventId } from "./event-id.js";
import type { GapReason, StreamBridgeStats, StreamGap } from "./stream-bridge.js";

/** Longest subscriber label kept in log lines. */
const MAX_LABEL = 200;

const MESSAGES: Readonly<Record<GapReason, string>> = {
  slowSubscriber: "a subscriber fell further behind than the retained events; its stream ends with a gap",
  staleCursor: "a resume cursor is older than the retained events; the stream ends with a gap",
  streamDeleted: "the run's stream was deleted under a subscriber; its stream ends with a gap",
};

/** Counts and logs the gaps of one bridge. */
export class GapLog {
  private readonly counts: Record<GapReason, number> = { slowSubscriber: 0, staleCursor: 0, streamDeleted: 0 };
  private generated = 0;

  /**
   * @param bridge - the bridge's name, prefixed to log messages
   * @param logger - where the lines go (a slow subscriber is a warning, the other reasons are info)
   */
  constructor(
    private readonly bridge: string,
    private readonly logger: Logger,
  ) {}

  /**
   * The label of a new subscription: the caller's `subscriber`, else `sub-<n>`.
   *
   * @throws RuntimeError `INVALID_ARGUMENT` when `label` is given but is not a non-empty string
   */
  label(runId: string, label: unknown): string {
    if (label === undefined) return `sub-${++this.generated}`;
    if (typeof label !== "string" || label.length === 0) {
      throw new RuntimeError(
        "INVALID_ARGUMENT",
        `subscriber (subscription to run "${runId}") must be a non-empty string, got ${typeof label}`,
        { details: { runId } },
      );
    }
    return label.slice(0, MAX_LABEL);
  }

  /** Counts and logs a gap about to be yielded to `subscriber`; returns it. */
  record(gap: StreamGap, reason: GapReason, subscriber: string): StreamGap {
    this.counts[reason] += 1;
    this.logger[reason === "slowSubscriber" ? "warn" : "info"](
      {
        runId: gap.runId,
        subscriber,
        reason,
        lastEventId: gap.requestedEventId,
        earliestAvailableEventId: gap.earliestAvailableEventId,
        latestAvailableEventId: gap.latestAvailableEventId,
        ...distance(gap),
      },
      `${this.bridge}: ${MESSAGES[reason]}`,
    );
    return gap;
  }

  /** A snapshot of the counters. */
  stats(): StreamBridgeStats {
    return { gaps: { ...this.counts } };
  }
}

/**
 * How far behind the subscriber was, from the `seq` part of the ids (both
 * bridges number a run's events 0, 1, 2...): `eventsBehind` published after its
 * cursor, of which `missedEvents` are no longer kept. Null when unknown.
 */
function distance(gap: StreamGap): { eventsBehind: number | null; missedEvents: number | null } {
  const cursor = gap.requestedEventId === null ? null : parseEventId(gap.requestedEventId);
  const earliest = gap.earliestAvailableEventId === null ? null : parseEventId(gap.earliestAvailableEventId);
  const latest = gap.latestAvailableEventId === null ? null : parseEventId(gap.latestAvailableEventId);
  const after = cursor === null ? -1n : cursor.seq;
  return {
    eventsBehind: latest === null || latest.seq < after ? null : Number(latest.seq - after),
    missedEvents: earliest === null || earliest.seq <= after ? null : Number(earliest.seq - after - 1n),
  };
}
