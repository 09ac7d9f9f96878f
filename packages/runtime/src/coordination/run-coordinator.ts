/**
 * Coordination of run ownership between the instances of one deployment.
 *
 * The instance that admits a run owns it and holds a lease on it, renewed in the
 * background; while the lease lives, cancel requests for the run are delivered to
 * that instance. When an instance dies its leases expire and any instance may
 * claim the run for recovery. `LocalRunCoordinator` (one process) and
 * `RedisRunCoordinator` (many) implement it; `runCoordinatorConformance` (from
 * `@deerflow/runtime/testing`) checks a plugin implementation.
 */
import type { CancelAction } from "../runs/types.js";

/** Called on the owning instance when a cancel request for one of its runs arrives. */
export type CancelRequestHandler = (runId: string, action: CancelAction) => void;

/**
 * Called when this instance could not renew the lease of a run it holds. Called
 * once per lost lease; the coordinator never renews that lease again, so the run
 * must be fenced (stopped, and its status never written again).
 */
export type LeaseLostHandler = (runId: string) => void;

/** A live lease, as {@link RunCoordinator.leaseOf} reports it. */
export interface RunLease {
  /** Instance holding the lease. */
  readonly ownerId: string;
  /** Milliseconds until the lease expires unless its owner renews it (> 0). */
  readonly expiresInMs: number;
}

/** Result of {@link RunCoordinator.requestCancel}. */
export type CancelDelivery =
  /** The request was handed to the live owner (possibly this instance). */
  | "delivered"
  /** No instance holds a live lease on the run. */
  | "no_owner";

/**
 * Run ownership leases and cancel delivery.
 *
 * Implementations reject a malformed run id or cancel action with
 * `INVALID_ARGUMENT`. A handler that throws is logged and does not keep the
 * other handlers from being called. After {@link RunCoordinator.close},
 * `acquire`, `ownerOf`, `requestCancel` and `claimRecovery` reject with `CLOSED`,
 * `release` does nothing and no handler is called again.
 */
export interface RunCoordinator {
  /** Id of this instance (unique per process). */
  readonly instanceId: string;
  /** True when leases and cancel requests cross process boundaries. */
  readonly supportsCrossProcess: boolean;

  /**
   * Takes the lease of a run for this instance and keeps renewing it until
   * {@link release}. False when another live instance holds it. Acquiring a run
   * this instance already holds returns true and refreshes the lease.
   */
  acquire(runId: string): Promise<boolean>;

  /** Stops renewing and drops the lease (only if this instance holds it). */
  release(runId: string): Promise<void>;

  /** Instance holding a live lease on the run, or null. */
  ownerOf(runId: string): Promise<string | null>;

  /**
   * Optional: the run's live lease with the time left on it, or null. With it
   * the run manager recovers an orphaned run as soon as its lease expires;
   * without it, at its next periodic sweep (up to one sweep interval later).
   * Rejects like {@link ownerOf}.
   */
  leaseOf?(runId: string): Promise<RunLease | null>;

  /**
   * Delivers a cancel request to the run's owner. Delivery survives a lost
   * notification: the owner also checks for requests whenever it renews.
   * The first action requested during a lease wins: the owner's handlers are
   * called once per run and lease, with that action (a request that arrives
   * while the owner has no handler stays pending until its next renewal).
   */
  requestCancel(runId: string, action: CancelAction): Promise<CancelDelivery>;

  /** Registers the handler for cancel requests addressed to this instance. Returns an unsubscribe function. */
  onCancelRequest(handler: CancelRequestHandler): () => void;

  /** Registers the handler for leases this instance lost. Returns an unsubscribe function. */
  onLeaseLost(handler: LeaseLostHandler): () => void;

  /**
   * Claims the right to recover a run whose owner's lease expired. At most one
   * caller across all instances gets true per run (the claim itself expires after `ttlMs`).
   */
  claimRecovery(runId: string, ttlMs: number): Promise<boolean>;

  /**
   * Stops renewing, releases this instance's leases (unless `abandon`, which
   * simulates a crash: the leases are left to expire) and closes connections.
   * Idempotent.
   */
  close(options?: { abandon?: boolean }): Promise<void>;
}
