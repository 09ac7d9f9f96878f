/** Argument and option checks shared by the stream bridges. */
import { RuntimeError, type RuntimeErrorCode } from "../errors.js";

/** Default idle time before a heartbeat, ms (DeerFlow's `heartbeat_interval`). */
export const DEFAULT_HEARTBEAT_MS = 15_000;
/** Default number of events kept per run. */
export const DEFAULT_MAX_EVENTS_PER_RUN = 1024;

/**
 * Returns `value` when it is an integer in `[min, max]`, `fallback` when it is
 * undefined; throws `code` naming the option otherwise.
 */
export function integerOption(name: string, value: number | undefined, fallback: number, min: number, code: RuntimeErrorCode = "CONFIG_INVALID", max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw new RuntimeError(code, `${name} must be an integer between ${min} and ${max}, got ${String(value)}`, { details: { option: name, value } });
  }
  return value;
}

/** Throws `INVALID_ARGUMENT` unless `runId` is a non-empty string. */
export function checkRunId(runId: unknown): asserts runId is string {
  if (typeof runId !== "string" || runId.length === 0) {
    throw new RuntimeError("INVALID_ARGUMENT", `runId must be a non-empty string, got ${JSON.stringify(runId) ?? String(runId)}`);
  }
}

/** Throws `INVALID_ARGUMENT` unless `event` is a non-empty string. */
export function checkEventName(runId: string, event: unknown): asserts event is string {
  if (typeof event !== "string" || event.length === 0) {
    throw new RuntimeError("INVALID_ARGUMENT", `event name for run "${runId}" must be a non-empty string, got ${JSON.stringify(event) ?? String(event)}`, {
      details: { runId },
    });
  }
}

/** The heartbeat of one subscription: its own option, else the bridge default. */
export function subscribeHeartbeat(runId: string, value: number | undefined, fallback: number): number {
  return integerOption(`heartbeatMs (subscription to run "${runId}")`, value, fallback, 1, "INVALID_ARGUMENT", 2_147_483_647);
}
