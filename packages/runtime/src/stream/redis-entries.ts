/**
 * The data model of {@link RedisStreamBridge} (DeerFlow's): one stream per
 * run, at `{keyPrefix}{runId}`; data events are
 * `{kind: "event", event: <name>, data: <compact JSON>}`, the end marker is
 * `{kind: "end"}`. Reading is lenient so hand-written or foreign entries never
 * break a subscriber: undecodable JSON is passed through as the raw string, a
 * missing `event` is `"message"`, missing `data` is null.
 */
import { RuntimeError } from "../errors.js";
import type { StreamEvent } from "./stream-bridge.js";

/** Default prefix of the stream keys. */
export const DEFAULT_STREAM_KEY_PREFIX = "deerflow:stream:";

/** The key of a run's stream. */
export function streamKey(keyPrefix: string, runId: string): string {
  return `${keyPrefix}${runId}`;
}

/** A decoded stream entry. */
export type RedisEntry = StreamEvent | { kind: "end"; id: string };

/**
 * Serialises event data as compact JSON. `undefined` becomes `null`; bigints
 * become decimal strings (DeerFlow serialises unknown values with `str`).
 *
 * @throws RuntimeError `INVALID_ARGUMENT` when the value cannot be serialised (a cycle).
 */
export function encodeData(runId: string, event: string, data: unknown): string {
  try {
    return JSON.stringify(data) ?? "null";
  } catch {
    // Only now pay for a replacer (it disables V8's fast path): most data has no bigint.
  }
  try {
    return (
      JSON.stringify(data, (_key, value: unknown) => (typeof value === "bigint" ? value.toString() : value)) ?? "null"
    );
  } catch (error) {
    throw new RuntimeError(
      "INVALID_ARGUMENT",
      `data of event "${event}" for run "${runId}" is not JSON-serialisable: ${(error as Error).message}`,
      {
        cause: error,
        details: { runId, event },
      },
    );
  }
}

/** Decodes one raw entry `[id, [field, value, ...]]`; null for a shape that is not an entry. */
export function decodeEntry(raw: unknown): RedisEntry | null {
  if (!Array.isArray(raw) || typeof raw[0] !== "string") return null;
  const id = raw[0];
  const fields: unknown[] = Array.isArray(raw[1]) ? raw[1] : [];
  let kind: unknown;
  let event: unknown;
  let data: unknown;
  // Pairs: the first occurrence of a field wins, like the Lua scripts' end check.
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const name = fields[i];
    const value = fields[i + 1];
    if (name === "kind" && kind === undefined) kind = value;
    else if (name === "event" && event === undefined) event = value;
    else if (name === "data" && data === undefined) data = value;
  }
  if (kind === "end") return { kind: "end", id };
  return {
    kind: "event",
    id,
    event: typeof event === "string" && event.length > 0 ? event : "message",
    data: decodeData(data),
  };
}

/** Decodes raw entries, skipping what is not an entry. */
export function decodeEntries(raw: readonly unknown[]): RedisEntry[] {
  const entries: RedisEntry[] = [];
  for (const item of raw) {
    const entry = decodeEntry(item);
    if (entry !== null) entries.push(entry);
  }
  return entries;
}

function decodeData(raw: unknown): unknown {
  if (typeof raw !== "string") return null;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}
