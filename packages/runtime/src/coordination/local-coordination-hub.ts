/**
 * The in-memory state that {@link LocalRunCoordinator}s share: leases with an
 * expiry, recovery claims and the routing of cancel requests to the coordinator
 * of the owning instance. Coordinators sharing one hub behave like the
 * instances of one deployment living in one process, which is how the run
 * manager's multi-instance behaviour is tested without Redis.
 */
import { RuntimeError } from "../errors.js";
import type { CancelAction } from "../runs/types.js";
import type { CancelDelivery, RunLease } from "./run-coordinator.js";

/** What a coordinator registers with its hub to receive cancel requests. @internal */
export interface LocalHubMember {
  /** Called with the first action requested for a run this member owns. */
  deliverCancel(runId: string, action: CancelAction): void;
}

interface Lease {
  readonly owner: string;
  expiresAt: number;
  /** The first cancel action requested while this lease lives. */
  cancel: CancelAction | null;
}

/** Expired entries are swept at most this often, so abandoned runs do not accumulate. */
const SWEEP_INTERVAL_MS = 1_000;

/**
 * Shared state of in-process coordinators. Pass one hub to several
 * `LocalRunCoordinator`s to simulate several instances; a coordinator created
 * without a hub gets a private one.
 *
 * @example
 * ```ts
 * const hub = new LocalCoordinationHub();
 * const a = new LocalRunCoordinator({ hub, instanceId: "a" });
 * const b = new LocalRunCoordinator({ hub, instanceId: "b" });
 * await a.acquire("run-1");          // true
 * await b.acquire("run-1");          // false: a holds it
 * hub.breakLease("run-1");           // a's next renewal reports the loss (onLeaseLost)
 * ```
 */
export class LocalCoordinationHub {
  private readonly leases = new Map<string, Lease>();
  private readonly recoveryClaims = new Map<string, number>();
  private readonly members = new Map<string, LocalHubMember>();
  private nextSweepAt = 0;

  /**
   * Drops the lease of a run as if it had been deleted behind its owner's back
   * (an operator, a store flush). The owner notices at its next renewal and
   * reports the loss through `onLeaseLost`; meanwhile any instance may acquire
   * the run. For tests of fencing. Returns false when no live lease existed.
   */
  breakLease(runId: string): boolean {
    const lease = this.live(runId);
    if (lease === undefined) return false;
    this.leases.delete(runId);
    return true;
  }

  /** Registers the coordinator of `instanceId`; a second live coordinator with the same id is a configuration error. @internal */
  join(instanceId: string, member: LocalHubMember): void {
    if (this.members.has(instanceId)) {
      throw new RuntimeError(
        "CONFIG_INVALID",
        `LocalRunCoordinator: instanceId "${instanceId}" is already used by another coordinator on this hub`,
        {
          details: { instanceId },
        },
      );
    }
    this.members.set(instanceId, member);
  }

  /** Unregisters the coordinator of `instanceId` (its leases stay until released or expired). @internal */
  leave(instanceId: string, member: LocalHubMember): void {
    if (this.members.get(instanceId) === member) this.members.delete(instanceId);
  }

  /** Takes or refreshes the lease for `instanceId`; false when another instance holds a live one. @internal */
  acquire(runId: string, instanceId: string, leaseMs: number): boolean {
    this.sweep();
    const lease = this.live(runId);
    if (lease !== undefined && lease.owner !== instanceId) return false;
    if (lease !== undefined) {
      lease.expiresAt = now() + leaseMs;
      return true;
    }
    this.leases.set(runId, { owner: instanceId, expiresAt: now() + leaseMs, cancel: null });
    return true;
  }

  /**
   * Extends a live lease held by `instanceId`. False when the lease expired,
   * was broken or belongs to someone else: the caller has lost it. @internal
   */
  renew(runId: string, instanceId: string, leaseMs: number): boolean {
    const lease = this.live(runId);
    if (lease === undefined || lease.owner !== instanceId) return false;
    lease.expiresAt = now() + leaseMs;
    return true;
  }

  /** Drops the lease if `instanceId` holds it. @internal */
  release(runId: string, instanceId: string): void {
    const lease = this.live(runId);
    if (lease !== undefined && lease.owner === instanceId) this.leases.delete(runId);
  }

  /** Owner of the live lease, or null. @internal */
  ownerOf(runId: string): string | null {
    return this.live(runId)?.owner ?? null;
  }

  /** The live lease and the time left on it, or null. @internal */
  leaseOf(runId: string): RunLease | null {
    const lease = this.live(runId);
    return lease === undefined ? null : { ownerId: lease.owner, expiresInMs: Math.max(1, lease.expiresAt - now()) };
  }

  /**
   * Records the request on the live lease (the first action wins) and hands
   * the recorded action to the owner's coordinator, if it is still running. @internal
   */
  requestCancel(runId: string, action: CancelAction): CancelDelivery {
    const lease = this.live(runId);
    if (lease === undefined) return "no_owner";
    lease.cancel ??= action;
    this.members.get(lease.owner)?.deliverCancel(runId, lease.cancel);
    return "delivered";
  }

  /** The cancel action recorded on the live lease `instanceId` holds, or null. @internal */
  pendingCancel(runId: string, instanceId: string): CancelAction | null {
    const lease = this.live(runId);
    return lease !== undefined && lease.owner === instanceId ? lease.cancel : null;
  }

  /** True for the first claim of a run until `ttlMs` passes. @internal */
  claimRecovery(runId: string, ttlMs: number): boolean {
    this.sweep();
    const expiresAt = this.recoveryClaims.get(runId);
    if (expiresAt !== undefined && expiresAt > now()) return false;
    this.recoveryClaims.set(runId, now() + ttlMs);
    return true;
  }

  private live(runId: string): Lease | undefined {
    const lease = this.leases.get(runId);
    if (lease === undefined) return undefined;
    if (lease.expiresAt > now()) return lease;
    this.leases.delete(runId);
    return undefined;
  }

  private sweep(): void {
    const at = now();
    if (at < this.nextSweepAt) return;
    this.nextSweepAt = at + SWEEP_INTERVAL_MS;
    for (const [runId, lease] of this.leases) if (lease.expiresAt <= at) this.leases.delete(runId);
    for (const [runId, expiresAt] of this.recoveryClaims) if (expiresAt <= at) this.recoveryClaims.delete(runId);
  }
}

/** Monotonic milliseconds: lease expiry must not jump with the wall clock. */
function now(): number {
  return performance.now();
}
