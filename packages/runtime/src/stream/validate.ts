/** Argument and option checks shared by the stream bridges. */
import { RuntimeError, type RuntimeErrorCode } from "../errors.js";
import { parseCursor, type ParsedEventId } from "./event-id.js";
import type { GapLog } from "./gap-log.js";
import type { SubscribeOptions } from "./stream-bridge.js";

/** Default idle time before a heartbeat, ms (DeerFlow's `heartbeat_interval`). */
export const DEFAULT_HEARTBEAT_MS = 15_000;
/** Default number of events kept per run. */
export const DEFAULT_MAX_EVENTS_PER_RUN = 1024;

/**
 * Returns `value` when it is an integer in `[min, max]`, `fallback` when it is
 * undefined; throws `code` naming the option otherwise.
 */
export function integerOption(
  name: string,
  value: number | undefined,
  fallback: number,
  min: number,
  code: RuntimeErrorCode = "CONFIG_INVALID",
  max = Number.MAX_SAFE_INTEGER,
): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw new RuntimeError(code, `${name} must be an integer between ${min} and ${max}, got ${String(value)}`, {
      details: { option: name, value },
    });
  }
  return value;
}

/** Throws `INVALID_ARGUMENT` unless `runId` is a non-empty string. */
export function checkRunId(runId: unknown): asserts runId is string {
  if (typeof runId !== "string" || runId.length === 0) {
    throw new RuntimeError(
      "INVALID_ARGUMENT",
      `runId must be a non-empty string, got ${JSON.stringify(runId) ?? String(runId)}`,
    );
  }
}

/** Throws `INVALID_ARGUMENT` unless `event` is a non-empty string. */
export function checkEventName(runId: string, event: unknown): asserts event is string {
  if (typeof event !== "string" || event.length === 0) {
    throw new RuntimeError(
      "INVALID_ARGUMENT",
      `event name for run "${runId}" must be a non-empty string, got ${JSON.stringify(event) ?? String(event)}`,
      {
        details: { runId },
      },
    );
  }
}

/** The heartbeat of one subscription: its own option, else the bridge default. */
function subscribeHeartbeat(runId: string, value: number | undefined, fallback: number): number {
  return integerOption(
    `heartbeatMs (subscription to run "${runId}")`,
    value,
    fallback,
    1,
    "INVALID_ARGUMENT",
    2_147_483_647,
  );
}

/** The arguments of one `subscribe` call, validated. */
export interface SubscribeArguments {
  /** The last event the subscriber has; null: from the start. */
  readonly cursor: ParsedEventId | null;
  readonly heartbeatMs: number;
  /** The subscriber's label in logs (see {@link GapLog.label}). */
  readonly subscriber: string;
}

/**
 * Validates a `subscribe` call synchronously, so an HTTP layer can answer 400
 * before sending headers.
 *
 * @throws RuntimeError `INVALID_ARGUMENT` for a malformed run id, `lastEventId`, `heartbeatMs` or `subscriber`.
 */
export function checkSubscribe(
  runId: string,
  options: SubscribeOptions,
  defaultHeartbeatMs: number,
  gaps: GapLog,
): SubscribeArguments {
  checkRunId(runId);
  const cursor = parseCursor(runId, options.lastEventId);
  const heartbeatMs = subscribeHeartbeat(runId, options.heartbeatMs, defaultHeartbeatMs);
  return { cursor, heartbeatMs, subscriber: gaps.label(runId, options.subscriber) };
}
