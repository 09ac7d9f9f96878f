/** The non-event items both bridges yield. */
import type { StreamEnd, StreamGap, StreamHeartbeat } from "./stream-bridge.js";

/** The (shared, frozen) heartbeat item. */
export const HEARTBEAT: StreamHeartbeat = Object.freeze({ kind: "heartbeat" });

/** The (shared, frozen) end item. */
export const END: StreamEnd = Object.freeze({ kind: "end" });

/** Builds a gap item. */
export function gapItem(
  runId: string,
  requestedEventId: string | null,
  earliestAvailableEventId: string | null,
  latestAvailableEventId: string | null,
): StreamGap {
  return { kind: "gap", runId, requestedEventId, earliestAvailableEventId, latestAvailableEventId };
}
