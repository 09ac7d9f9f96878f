/**
 * The stream bridge carries the events of a run from the worker that produces
 * them to every client that streams or joins the run, on this instance or, for
 * cross-process bridges, on any instance.
 *
 * Event ids are strings of the form `"<ms>-<seq>"` (a Redis Stream id shape),
 * strictly increasing per run (in `(ms, seq)` order), identical for every
 * subscriber and on replay, so they are usable as SSE `id:` lines and
 * `Last-Event-ID` cursors.
 *
 * `MemoryStreamBridge` and `RedisStreamBridge` implement it;
 * `streamBridgeConformance` (from `@deerflow/runtime/testing`) checks a plugin.
 */

/** One event of a run. */
export interface StreamEvent {
  kind: "event";
  /** Bridge-assigned id, usable as an SSE id. */
  id: string;
  /** SSE event name, e.g. `metadata`, `values`, `messages`, `custom`, `error`. */
  event: string;
  /** JSON-serializable payload. */
  data: unknown;
}

/** Yielded when the subscriber was idle for `heartbeatMs`. Carries no data. */
export interface StreamHeartbeat {
  kind: "heartbeat";
}

/**
 * Yielded (then the subscription ends) when events the subscriber needs are no
 * longer kept: the resume cursor is older than the earliest retained event, or a
 * live subscriber fell further behind than the bridge keeps. The run itself goes on.
 */
export interface StreamGap {
  kind: "gap";
  runId: string;
  /** The cursor that could not be honoured (null when none was given). */
  requestedEventId: string | null;
  earliestAvailableEventId: string | null;
  latestAvailableEventId: string | null;
}

/** The run's stream is complete; always the last item. */
export interface StreamEnd {
  kind: "end";
}

/** What a subscription yields. */
export type StreamItem = StreamEvent | StreamHeartbeat | StreamGap | StreamEnd;

/** Options of {@link StreamBridge.subscribe}. */
export interface SubscribeOptions {
  /**
   * Resume cursor: events strictly after this id are delivered. Absent, `null`,
   * `"-1"`, `"0"` and `"0-0"` mean "from the earliest retained event". A
   * well-formed id older than the retention window yields a {@link StreamGap};
   * a malformed id throws `INVALID_ARGUMENT`.
   */
  lastEventId?: string | null;
  /** Idle time after which a heartbeat is yielded. Default 15 000 ms. */
  heartbeatMs?: number;
  /** Ends the subscription (the iterator returns) when aborted. */
  signal?: AbortSignal;
  /**
   * Names the subscriber in the bridge's log lines (e.g. the HTTP request id).
   * Default: a label the bridge generates (`sub-<n>`).
   */
  subscriber?: string;
}

/**
 * Why a subscription ended with a {@link StreamGap}:
 * - `slowSubscriber`: a live subscriber that had received events fell further
 *   behind than the bridge keeps;
 * - `staleCursor`: the resume cursor was already older than what is kept;
 * - `streamDeleted`: the run's stream was deleted (`cleanup`) under the subscriber.
 */
export type GapReason = "slowSubscriber" | "staleCursor" | "streamDeleted";

/** Counters of a bridge since it was created (see {@link StreamBridge.stats}). */
export interface StreamBridgeStats {
  /** Subscriptions ended with a gap, by reason. */
  readonly gaps: Readonly<Record<GapReason, number>>;
}

/** Transport of run events from producer to subscribers. */
export interface StreamBridge {
  /** True when a subscriber in another process sees events published here. */
  readonly supportsCrossProcess: boolean;

  /**
   * Appends an event to the run's stream and returns its id. A caller may issue
   * further publishes of the run before earlier ones settle (the worker keeps
   * many in flight); the bridge must append them in call order and resolve
   * each with its own id.
   */
  publish(runId: string, event: string, data: unknown): Promise<string>;

  /** Marks the run's stream complete. Never evicts retained events. Idempotent. */
  publishEnd(runId: string): Promise<void>;

  /**
   * Replays retained events after the cursor, then follows live events until
   * the end marker, a gap, or the signal. Subscribing to a run that has no
   * stream yet waits for its first event.
   *
   * Argument errors (`INVALID_ARGUMENT`, or `CLOSED` after {@link close}) may
   * be thrown by `subscribe` itself or at the first pull; the built-in bridges
   * throw synchronously, so an HTTP layer can answer before sending headers.
   */
  subscribe(runId: string, options?: SubscribeOptions): AsyncIterable<StreamItem>;

  /** True when the run's stream exists (has events or an end marker). */
  exists(runId: string): Promise<boolean>;

  /** Deletes the run's stream, after `delayMs` when given (the promise resolves at once). */
  cleanup(runId: string, options?: { delayMs?: number }): Promise<void>;

  /** Ends every subscription and releases connections. */
  close(): Promise<void>;

  /**
   * Optional: counters for health reports. The built-in bridges count every
   * gap they yield, and log it with the run, the subscriber and how far
   * behind it was.
   */
  stats?(): StreamBridgeStats;
}
