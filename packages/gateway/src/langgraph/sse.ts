/**
 * The SSE wire format of run streams (DeerFlow's and the LangGraph API's),
 * safe for both LangGraph SDK lines:
 *
 * ```
 * event: <name>\n
 * data: <one line of JSON>\n
 * id: <event id>\n          (every run event: ids are resumable)
 * \n
 * ```
 *
 * - heartbeat: the lone comment line `: heartbeat\n`, without a blank line
 *   after it. A blank line after a comment makes SDK 2.0.0 (and 1.9.x) yield a
 *   phantom `{event: "", data: null}` event carrying the last id; a lone
 *   comment line is skipped by every SDK, and still feeds SDK 1.15's idle watchdog.
 * - end: `event: end\ndata: null\n\n`, no id, always the last frame of a complete stream.
 * - gap: `event: gap` with the resume hints, no id, no end after it.
 */
import type { StreamGap } from "@deerflow/runtime";

/** The heartbeat: one comment line, no blank line. */
export const SSE_HEARTBEAT = ": heartbeat\n";

/** The last frame of a complete stream. */
export const SSE_END = "event: end\ndata: null\n\n";

/** Response headers of every run stream (plus `Content-Location` / `Location` on some routes). */
export const SSE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache",
  connection: "keep-alive",
  "x-accel-buffering": "no",
});

/** One JSON line: `JSON.stringify` never emits raw CR or LF, so the frame cannot be split. */
function jsonLine(data: unknown): string {
  return JSON.stringify(data ?? null) ?? "null";
}

/**
 * One event frame.
 *
 * @param event - event name (`values`, `messages|tools:abc`...); must not contain CR or LF.
 * @param data - JSON data.
 * @param id - the event id, omitted when absent.
 */
export function sseFrame(event: string, data: unknown, id?: string): string {
  return `event: ${event}\ndata: ${jsonLine(data)}\n${id === undefined || id === "" ? "" : `id: ${id}\n`}\n`;
}

/** The `gap` frame: DeerFlow's payload telling the client to reload durable state. */
export function gapFrame(gap: StreamGap): string {
  return sseFrame("gap", {
    code: "stream_replay_gap",
    run_id: gap.runId,
    requested_event_id: gap.requestedEventId,
    earliest_available_event_id: gap.earliestAvailableEventId,
    latest_available_event_id: gap.latestAvailableEventId,
    recovery: "reload_durable_state",
  });
}
