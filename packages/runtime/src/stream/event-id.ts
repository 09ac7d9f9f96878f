/**
 * Event ids and resume cursors shared by the stream bridges.
 *
 * An event id is `"<ms>-<seq>"`, two unsigned decimal integers (the shape of a
 * Redis Stream entry id, at most 2^64-1 each). Both bridges assign `seq` as the
 * run's 0-based event counter and keep `ms` non-decreasing per run, so ids
 * increase in `(ms, seq)` order and in `seq` order alike.
 */
import { RuntimeError } from "../errors.js";

/** A parsed, well-formed event id. */
export interface ParsedEventId {
  /** The id as given. */
  readonly id: string;
  readonly ms: bigint;
  readonly seq: bigint;
}

const ID_SHAPE = /^(\d{1,20})-(\d{1,20})$/;
const MAX_PART = 2n ** 64n - 1n;
/** Cursors that mean "from the earliest retained event". */
const FROM_START = new Set(["-1", "0", "0-0"]);

/** Formats an id. */
export function formatEventId(ms: number | bigint, seq: number | bigint): string {
  return `${ms}-${seq}`;
}

/** Parses a well-formed id, or returns null. */
export function parseEventId(id: string): ParsedEventId | null {
  const match = ID_SHAPE.exec(id);
  if (match === null) return null;
  const ms = BigInt(match[1] as string);
  const seq = BigInt(match[2] as string);
  if (ms > MAX_PART || seq > MAX_PART) return null;
  return { id, ms, seq };
}

/** Orders two parsed ids as Redis does: by `ms`, then by `seq`. */
export function compareEventIds(a: ParsedEventId, b: ParsedEventId): number {
  if (a.ms !== b.ms) return a.ms < b.ms ? -1 : 1;
  if (a.seq !== b.seq) return a.seq < b.seq ? -1 : 1;
  return 0;
}

/**
 * Normalises a `SubscribeOptions.lastEventId`: null for "from the earliest
 * retained event" (absent, `null`, `"-1"`, `"0"`, `"0-0"`), else the parsed id.
 *
 * @throws RuntimeError `INVALID_ARGUMENT` for anything else (including `""`,
 *   a bare `"5"` and parts above 2^64-1), naming the run and the cursor.
 */
export function parseCursor(runId: string, lastEventId: string | null | undefined): ParsedEventId | null {
  if (lastEventId === undefined || lastEventId === null) return null;
  if (typeof lastEventId !== "string") {
    throw new RuntimeError(
      "INVALID_ARGUMENT",
      `lastEventId for run "${runId}" must be a string, got ${typeof lastEventId}`,
      { details: { runId } },
    );
  }
  if (FROM_START.has(lastEventId)) return null;
  const parsed = parseEventId(lastEventId);
  if (parsed === null) {
    throw new RuntimeError(
      "INVALID_ARGUMENT",
      `Malformed lastEventId ${JSON.stringify(lastEventId.slice(0, 100))} for run "${runId}": expected "<ms>-<seq>" (e.g. "1718000000000-5"), or "-1" / "0" / "0-0" to replay from the start`,
      { details: { runId, lastEventId: lastEventId.slice(0, 100) } },
    );
  }
  return parsed;
}
