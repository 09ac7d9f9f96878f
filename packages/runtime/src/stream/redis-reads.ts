/**
 * The two reads of a {@link RedisStreamBridge} subscriber: the atomic snapshot
 * script (bounds and new entries after a cursor in one step, so a gap is
 * detected exactly) and the blocking `XREAD` it waits with.
 */
import type { Redis } from "ioredis";
import { RuntimeError } from "../errors.js";
import { parseEventId, type ParsedEventId } from "./event-id.js";
import { decodeEntries, type RedisEntry } from "./redis-entries.js";
import { runScript, SNAPSHOT } from "./redis-scripts.js";

/** What the snapshot script returned. */
export interface Snapshot {
  exists: boolean;
  earliest: ParsedEventId | null;
  latestId: string | null;
  latestIsEnd: boolean;
  entries: RedisEntry[];
  /** The read hit the batch size: more entries may follow. */
  full: boolean;
}

/** The atomic snapshot of a stream: bounds and up to `count` entries after `cursor` (0: bounds only). */
export async function readSnapshot(redis: Redis, key: string, cursor: string | null, count: number): Promise<Snapshot> {
  return decodeSnapshot(await runScript(redis, SNAPSHOT, key, [cursor ?? "-", count]), count);
}

function decodeSnapshot(reply: unknown, count: number): Snapshot {
  if (!Array.isArray(reply) || (reply[0] !== 0 && reply[0] !== 1)) {
    throw new RuntimeError(
      "BRIDGE_UNAVAILABLE",
      `unexpected reply of the snapshot script: ${JSON.stringify(reply)?.slice(0, 200)}`,
    );
  }
  if (reply[0] === 0)
    return { exists: false, earliest: null, latestId: null, latestIsEnd: false, entries: [], full: false };
  const earliest = typeof reply[1] === "string" ? parseEventId(reply[1]) : null;
  const latestId = typeof reply[2] === "string" ? reply[2] : null;
  const rawEntries: unknown[] = Array.isArray(reply[4]) ? reply[4] : [];
  return {
    exists: true,
    earliest,
    latestId,
    latestIsEnd: reply[3] === 1,
    entries: decodeEntries(rawEntries),
    full: count > 0 && rawEntries.length >= count,
  };
}

/**
 * Waits up to `blockMs` for at most `count` entries after `cursor` (null: from
 * the start); the raw entries, or null when the wait timed out.
 */
export async function blockingRead(
  connection: Redis,
  key: string,
  cursor: string | null,
  count: number,
  blockMs: number,
): Promise<unknown[] | null> {
  return xreadEntries(await connection.xread("COUNT", count, "BLOCK", blockMs, "STREAMS", key, cursor ?? "0-0"));
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
