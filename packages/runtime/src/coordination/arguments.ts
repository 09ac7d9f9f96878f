/**
 * Validation shared by the coordinators: caller-supplied values fail with
 * `INVALID_ARGUMENT`, construction options with `CONFIG_INVALID`, each naming
 * the offending value.
 */
import { RuntimeError } from "../errors.js";
import type { CancelAction } from "../runs/types.js";

const CANCEL_ACTIONS: ReadonlySet<string> = new Set<CancelAction>(["interrupt", "rollback"]);

/** True when `value` is a {@link CancelAction}. */
export function isCancelAction(value: unknown): value is CancelAction {
  return typeof value === "string" && CANCEL_ACTIONS.has(value);
}

/** Throws `INVALID_ARGUMENT` unless `runId` is a non-empty string. */
export function checkRunId(runId: unknown, operation: string): asserts runId is string {
  if (typeof runId !== "string" || runId.length === 0) {
    throw new RuntimeError(
      "INVALID_ARGUMENT",
      `${operation}: runId must be a non-empty string, got ${describe(runId)}`,
      {
        details: { operation },
      },
    );
  }
}

/** Throws `INVALID_ARGUMENT` unless `action` is `interrupt` or `rollback`. */
export function checkCancelAction(action: unknown, runId: string): asserts action is CancelAction {
  if (!isCancelAction(action)) {
    throw new RuntimeError(
      "INVALID_ARGUMENT",
      `requestCancel(${runId}): action must be "interrupt" or "rollback", got ${describe(action)}`,
      {
        details: { runId },
      },
    );
  }
}

/** Returns `ttlMs` rounded up to whole milliseconds; throws `INVALID_ARGUMENT` unless it is a positive finite number. */
export function checkTtl(ttlMs: unknown, runId: string): number {
  if (typeof ttlMs !== "number" || !Number.isFinite(ttlMs) || ttlMs <= 0) {
    throw new RuntimeError(
      "INVALID_ARGUMENT",
      `claimRecovery(${runId}): ttlMs must be a positive number of milliseconds, got ${describe(ttlMs)}`,
      {
        details: { runId },
      },
    );
  }
  return Math.ceil(ttlMs);
}

/** Timing options after defaults and validation. */
export interface LeaseTiming {
  readonly leaseMs: number;
  readonly renewIntervalMs: number;
}

/**
 * Resolves `leaseMs` / `renewIntervalMs` (default a third of the lease) and
 * throws `CONFIG_INVALID` when the lease is not an integer of at least
 * `minLeaseMs`, or the renewal interval is not shorter than the lease.
 */
export function resolveLeaseTiming(
  component: string,
  leaseMs: unknown,
  renewIntervalMs: unknown,
  minLeaseMs: number,
): LeaseTiming {
  const lease = leaseMs ?? 30_000;
  if (typeof lease !== "number" || !Number.isInteger(lease) || lease < minLeaseMs) {
    throw new RuntimeError(
      "CONFIG_INVALID",
      `${component}: leaseMs must be an integer of at least ${minLeaseMs}, got ${describe(lease)}`,
      {
        details: { leaseMs: lease },
      },
    );
  }
  const interval = renewIntervalMs ?? Math.max(1, Math.floor(lease / 3));
  if (typeof interval !== "number" || !Number.isFinite(interval) || interval <= 0 || interval >= lease) {
    throw new RuntimeError(
      "CONFIG_INVALID",
      `${component}: renewIntervalMs must be a positive number below leaseMs (${lease}), got ${describe(interval)}`,
      { details: { leaseMs: lease, renewIntervalMs: interval } },
    );
  }
  return { leaseMs: lease, renewIntervalMs: interval };
}

/** Throws `CONFIG_INVALID` unless `instanceId` is a non-empty string. */
export function checkInstanceId(component: string, instanceId: unknown): asserts instanceId is string {
  if (typeof instanceId !== "string" || instanceId.length === 0) {
    throw new RuntimeError(
      "CONFIG_INVALID",
      `${component}: instanceId must be a non-empty string, got ${describe(instanceId)}`,
    );
  }
}

function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
  if (typeof value === "number" || typeof value === "boolean" || value === null || value === undefined)
    return String(value);
  return typeof value;
}
