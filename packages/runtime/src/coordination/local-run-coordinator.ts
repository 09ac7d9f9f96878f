/**
 * `LocalRunCoordinator`: run ownership for a single process. Leases live in a
 * {@link LocalCoordinationHub}; several coordinators on one hub act as the
 * instances of one deployment (for tests), a lone coordinator as the only one.
 */
import { randomUUID } from "node:crypto";
import os from "node:os";
import { RuntimeError } from "../errors.js";
import { silentLogger, type Logger } from "../logger.js";
import type { CancelAction } from "../runs/types.js";
import { checkCancelAction, checkInstanceId, checkRunId, checkTtl, resolveLeaseTiming } from "./arguments.js";
import { HandlerRegistry } from "./handler-registry.js";
import { LocalCoordinationHub, type LocalHubMember } from "./local-coordination-hub.js";
import type {
  CancelDelivery,
  CancelRequestHandler,
  LeaseLostHandler,
  RunCoordinator,
  RunLease,
} from "./run-coordinator.js";

export { LocalCoordinationHub };

/** Options of {@link LocalRunCoordinator}. */
export interface LocalRunCoordinatorOptions {
  /** Id of this instance; default `${hostname}:${random UUID}`. Must be unique on the hub. */
  instanceId?: string;
  /** Shared state; default a hub of this coordinator's own. */
  hub?: LocalCoordinationHub;
  /** Lease duration in milliseconds (integer ≥ 1); default 30 000. */
  leaseMs?: number;
  /** How often held leases are renewed; default a third of `leaseMs`. Must be below `leaseMs`. */
  renewIntervalMs?: number;
  /** Receives lease losses and handler errors; default silent. */
  logger?: Logger;
}

/**
 * In-process {@link RunCoordinator} (`supportsCrossProcess` false). Leases are
 * renewed by an unref'd timer, so they expire like real ones if the event loop
 * stalls past the lease, and a lease dropped with
 * {@link LocalCoordinationHub.breakLease} is reported through `onLeaseLost`.
 *
 * @example
 * ```ts
 * const coordinator = new LocalRunCoordinator();
 * coordinator.onCancelRequest((runId, action) => abortRun(runId, action));
 * if (await coordinator.acquire(runId)) { ... }
 * ```
 */
export class LocalRunCoordinator implements RunCoordinator {
  readonly instanceId: string;
  readonly supportsCrossProcess = false;
  /** The shared state this coordinator uses (for {@link LocalCoordinationHub.breakLease} in tests). */
  readonly hub: LocalCoordinationHub;

  private readonly leaseMs: number;
  private readonly logger: Logger;
  private readonly held = new Set<string>();
  /** Runs whose cancel request reached a handler: each request is handed over once. */
  private readonly cancelDelivered = new Set<string>();
  private readonly cancelHandlers: HandlerRegistry<[string, CancelAction]>;
  private readonly leaseLostHandlers: HandlerRegistry<[string]>;
  private readonly member: LocalHubMember = { deliverCancel: (runId, action) => this.deliverCancel(runId, action) };
  private readonly renewTimer: NodeJS.Timeout;
  private closed = false;

  /** @throws RuntimeError `CONFIG_INVALID` for a bad lease timing or an instance id already on the hub. */
  constructor(options: LocalRunCoordinatorOptions = {}) {
    const timing = resolveLeaseTiming("LocalRunCoordinator", options.leaseMs, options.renewIntervalMs, 1);
    const instanceId = options.instanceId ?? `${os.hostname()}:${randomUUID()}`;
    checkInstanceId("LocalRunCoordinator", instanceId);
    this.instanceId = instanceId;
    this.leaseMs = timing.leaseMs;
    this.logger = options.logger ?? silentLogger;
    this.hub = options.hub ?? new LocalCoordinationHub();
    this.cancelHandlers = new HandlerRegistry("cancel request", this.logger);
    this.leaseLostHandlers = new HandlerRegistry("lease lost", this.logger);
    this.hub.join(instanceId, this.member);
    this.renewTimer = setInterval(() => this.renew(), timing.renewIntervalMs);
    this.renewTimer.unref();
  }

  async acquire(runId: string): Promise<boolean> {
    checkRunId(runId, "acquire");
    this.assertOpen("acquire", runId);
    if (!this.hub.acquire(runId, this.instanceId, this.leaseMs)) return false;
    if (!this.held.has(runId)) {
      this.held.add(runId);
      this.cancelDelivered.delete(runId);
    }
    return true;
  }

  async release(runId: string): Promise<void> {
    checkRunId(runId, "release");
    if (this.closed) return;
    this.forget(runId);
    this.hub.release(runId, this.instanceId);
  }

  async ownerOf(runId: string): Promise<string | null> {
    checkRunId(runId, "ownerOf");
    this.assertOpen("ownerOf", runId);
    return this.hub.ownerOf(runId);
  }

  async leaseOf(runId: string): Promise<RunLease | null> {
    checkRunId(runId, "leaseOf");
    this.assertOpen("leaseOf", runId);
    return this.hub.leaseOf(runId);
  }

  async requestCancel(runId: string, action: CancelAction): Promise<CancelDelivery> {
    checkRunId(runId, "requestCancel");
    checkCancelAction(action, runId);
    this.assertOpen("requestCancel", runId);
    return this.hub.requestCancel(runId, action);
  }

  onCancelRequest(handler: CancelRequestHandler): () => void {
    return this.closed ? () => {} : this.cancelHandlers.add(handler);
  }

  onLeaseLost(handler: LeaseLostHandler): () => void {
    return this.closed ? () => {} : this.leaseLostHandlers.add(handler);
  }

  async claimRecovery(runId: string, ttlMs: number): Promise<boolean> {
    checkRunId(runId, "claimRecovery");
    const ttl = checkTtl(ttlMs, runId);
    this.assertOpen("claimRecovery", runId);
    return this.hub.claimRecovery(runId, ttl);
  }

  async close(options: { abandon?: boolean } = {}): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.renewTimer);
    this.hub.leave(this.instanceId, this.member);
    // An abandoned (crashed) instance leaves its leases to expire; a clean shutdown hands them back now.
    if (options.abandon !== true) for (const runId of this.held) this.hub.release(runId, this.instanceId);
    this.held.clear();
    this.cancelDelivered.clear();
    this.cancelHandlers.clear();
    this.leaseLostHandlers.clear();
  }

  private renew(): void {
    for (const runId of [...this.held]) {
      if (this.closed) return;
      if (!this.hub.renew(runId, this.instanceId, this.leaseMs)) {
        this.loseLease(runId);
        continue;
      }
      // A request that arrived while no handler was registered is still pending on the lease.
      const pending = this.hub.pendingCancel(runId, this.instanceId);
      if (pending !== null) this.deliverCancel(runId, pending);
    }
  }

  private deliverCancel(runId: string, action: CancelAction): void {
    if (this.closed || !this.held.has(runId) || this.cancelDelivered.has(runId)) return;
    if (this.cancelHandlers.size === 0) return;
    this.cancelDelivered.add(runId);
    this.cancelHandlers.emit(runId, action);
  }

  private loseLease(runId: string): void {
    this.forget(runId);
    this.logger.warn({ runId, instanceId: this.instanceId }, "run lease lost: it expired or was taken before renewal");
    this.leaseLostHandlers.emit(runId);
  }

  private forget(runId: string): void {
    this.held.delete(runId);
    this.cancelDelivered.delete(runId);
  }

  private assertOpen(operation: string, runId: string): void {
    if (this.closed)
      throw new RuntimeError("CLOSED", `LocalRunCoordinator ${this.instanceId} is closed (${operation} ${runId})`, {
        details: { runId },
      });
  }
}
