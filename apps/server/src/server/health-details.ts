/**
 * The figures `GET /health` reports besides its checks: the gaps the stream
 * bridge ended subscriptions with (a slow subscriber means a client lost the
 * tail of a run's events) and the runs this instance executes.
 */
import type { RunManager, StreamBridge } from "@deerflow/runtime";

/** `details` of `/health`, snake_case as on the wire (a type, not an interface: it must index as a record). */
export type ServerHealthDetails = {
  /** Runs this instance executes or waits to start. */
  readonly local_runs: number;
  /** Gap counts since start; absent for a plugin bridge without `stats()`. */
  readonly stream_bridge?: {
    readonly slow_subscriber_gaps: number;
    readonly stale_cursor_gaps: number;
    readonly stream_deleted_gaps: number;
  };
};

/**
 * @param manager - the run manager (its local runs)
 * @param bridge - the stream bridge (its gap counters, when it keeps them)
 * @returns the provider given to the gateway's `healthDetails`
 */
export function healthDetailsOf(manager: RunManager, bridge: StreamBridge): () => ServerHealthDetails {
  return () => {
    const gaps = bridge.stats?.().gaps;
    return {
      local_runs: manager.localRunCount,
      ...(gaps === undefined
        ? {}
        : {
            stream_bridge: {
              slow_subscriber_gaps: gaps.slowSubscriber,
              stale_cursor_gaps: gaps.staleCursor,
              stream_deleted_gaps: gaps.streamDeleted,
            },
          }),
    };
  };
}
