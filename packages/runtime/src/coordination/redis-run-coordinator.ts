/**
 * `RedisRunCoordinator`: run ownership across processes on Redis (ioredis 6).
 *
 * Keys (under `keyPrefix`, default `deerflow:runtime:`):
 * - `lease:{runId}` = owning instance id, `PX leaseMs`, renewed every `renewIntervalMs`;
 * - `cancel:{runId}` = the first cancel action requested for the run, `PX 2×leaseMs`;
 * - `recover:{runId}` = the instance that claimed the orphaned run, `PX ttlMs`.
 *
 * Cancel requests are published on `cancel:{ownerInstanceId}`, which each
 * coordinator subscribes to on a dedicated connection; because a message sent
 * while that connection is down is lost, the owner also reads the durable
 * request keys of its runs at every renewal.
 */
import { randomUUID } from "node:crypto";
import os from "node:os";
import { Redis } from "ioredis";
import { RuntimeError } from "../errors.js";
import { silentLogger, type Logger } from "../logger.js";
import type { CancelAction } from "../runs/types.js";
import {
  checkCancelAction,
  checkInstanceId,
  checkRunId,
  checkTtl,
  isCancelAction,
  resolveLeaseTiming,
} from "./arguments.js";
import { HandlerRegistry } from "./handler-registry.js";
import { ACQUIRE, LEASE_OF, RELEASE, RENEW, REQUEST_CANCEL, runScript } from "./redis-scripts.js";
import type {
  CancelDelivery,
  CancelRequestHandler,
  LeaseLostHandler,
  RunCoordinator,
  RunLease,
} from "./run-coordinator.js";

/** Options shared by both ways of connecting a {@link RedisRunCoordinator}. */
export interface RedisRunCoordinatorBaseOptions {
  /** Prefix of every key and channel; default `deerflow:runtime:`. */
  keyPrefix?: string;
  /**
   * Id of this instance; default `${hostname}:${random UUID}`. Must be unique across the deployment and not
   * reused by a later process: a restarted process with the same id would re-acquire its predecessor's leases.
   */
  instanceId?: string;
  /** Lease duration in milliseconds (integer ≥ 1000); default 30 000. */
  leaseMs?: number;
  /** How often held leases are renewed; default a third of `leaseMs`. Must be below `leaseMs`. */
  renewIntervalMs?: number;
  /** Receives lease losses, outages and handler errors; default silent. */
  logger?: Logger;
}

/**
 * Options of {@link RedisRunCoordinator}: either a connected client the caller
 * owns (`redis`; it is not closed by `close()`, only the subscriber connection
 * duplicated from it is) or a `url` the coordinator connects to and owns.
 */
export type RedisRunCoordinatorOptions = RedisRunCoordinatorBaseOptions &
  ({ redis: Redis; url?: never } | { url: string; redis?: never });

interface HeldLease {
  /** Monotonic time before which the lease surely still exists in Redis (send time of the last successful write + leaseMs). */
  confirmedUntil: number;
}

/**
 * {@link RunCoordinator} on Redis (`supportsCrossProcess` true).
 *
 * Renewal extends every held lease in one script call. A lease found missing or
 * owned by another instance is lost at once; when Redis is unreachable nothing
 * is declared until the last confirmed expiry passes, and then the lease is
 * lost (fencing: the run must stop, since another instance may now claim it).
 * Each loss is reported once through `onLeaseLost` and the lease is never
 * renewed again.
 *
 * @example
 * ```ts
 * const coordinator = new RedisRunCoordinator({ url: process.env.REDIS_URL! });
 * coordinator.onCancelRequest((runId, action) => abortRun(runId, action));
 * coordinator.onLeaseLost((runId) => fenceRun(runId));
 * if (await coordinator.acquire(runId)) { ... }
 * ```
 */
export class RedisRunCoordinator implements RunCoordinator {
  readonly instanceId: string;
  readonly supportsCrossProcess = true;

  private readonly redis: Redis;
  private readonly ownsRedis: boolean;
  private readonly subscriber: Redis;
  private readonly subscribed: Promise<void>;
  private readonly prefix: string;
  private readonly channel: string;
  private readonly leaseMs: number;
  private readonly renewIntervalMs: number;
  private readonly logger: Logger;
  private readonly held = new Map<string, HeldLease>();
  /** Requests made on this instance for its own runs: recorded without a round trip, the first action wins. */
  private readonly localRequests = new Map<string, CancelAction>();
  /** Runs whose cancel request reached a handler: each request is handed over once. */
  private readonly cancelDelivered = new Set<string>();
  private readonly cancelHandlers: HandlerRegistry<[string, CancelAction]>;
  private readonly leaseLostHandlers: HandlerRegistry<[string]>;
  private readonly renewTimer: NodeJS.Timeout;
  private fenceTimer: NodeJS.Timeout | undefined;
  private renewingSince: number | undefined;
  private unreachable = false;
  private closing: Promise<void> | undefined;

  /** @throws RuntimeError `CONFIG_INVALID` for missing/ambiguous connection options, a lease under 1000 ms or a bad interval. */
  constructor(options: RedisRunCoordinatorOptions) {
    const hasRedis = (options as { redis?: unknown }).redis !== undefined;
    const hasUrl = (options as { url?: unknown }).url !== undefined;
    if (hasRedis === hasUrl) {
      throw new RuntimeError("CONFIG_INVALID", "RedisRunCoordinator: pass exactly one of `redis` (a client) or `url`");
    }
    if (hasUrl && (typeof options.url !== "string" || options.url.length === 0)) {
      throw new RuntimeError(
        "CONFIG_INVALID",
        `RedisRunCoordinator: url must be a non-empty string, got ${typeof options.url}`,
      );
    }
    const timing = resolveLeaseTiming("RedisRunCoordinator", options.leaseMs, options.renewIntervalMs, 1_000);
    const instanceId = options.instanceId ?? `${os.hostname()}:${randomUUID()}`;
    checkInstanceId("RedisRunCoordinator", instanceId);
    const prefix = options.keyPrefix ?? "deerflow:runtime:";
    if (typeof prefix !== "string")
      throw new RuntimeError("CONFIG_INVALID", `RedisRunCoordinator: keyPrefix must be a string, got ${typeof prefix}`);

    this.instanceId = instanceId;
    this.prefix = prefix;
    this.channel = `${prefix}cancel:${instanceId}`;
    this.leaseMs = timing.leaseMs;
    this.renewIntervalMs = timing.renewIntervalMs;
    this.logger = options.logger ?? silentLogger;
    this.cancelHandlers = new HandlerRegistry("cancel request", this.logger);
    this.leaseLostHandlers = new HandlerRegistry("lease lost", this.logger);

    this.ownsRedis = options.redis === undefined;
    this.redis = options.redis ?? new Redis(options.url as string);
    if (this.ownsRedis)
      this.redis.on("error", (err: Error) =>
        this.logger.debug({ err, instanceId }, "coordinator redis connection error"),
      );
    // Subscribing monopolises a connection. The subscription is (re)made on every `ready` by us rather than by
    // ioredis' autoResubscribe, which sends SUBSCRIBE with no handler: closing while that reply is pending
    // rejected it unhandled ("Connection is closed."), and an unhandled rejection crashes a Node server.
    // The subscription must wait for a connection even when the caller's client is configured to fail fast.
    this.subscriber = this.redis.duplicate({
      autoResubscribe: false,
      enableOfflineQueue: true,
      maxRetriesPerRequest: null,
      lazyConnect: false,
      connectionName: connectionName(instanceId),
    });
    let markSubscribed!: () => void;
    this.subscribed = new Promise<void>((resolve) => (markSubscribed = resolve));
    this.subscriber.on("error", (err: Error) =>
      this.logger.debug({ err, instanceId }, "coordinator subscriber connection error"),
    );
    this.subscriber.on("message", (channel: string, message: string) => this.onMessage(channel, message));
    this.subscriber.on("ready", () => {
      if (this.closing !== undefined) return;
      this.subscriber.subscribe(this.channel).then(markSubscribed, (err: unknown) => {
        // Not fatal: requests are still seen through their durable keys at each renewal.
        if (this.closing === undefined)
          this.logger.warn({ err, instanceId }, "could not subscribe to cancel requests; relying on renewal checks");
      });
    });

    this.renewTimer = setInterval(() => void this.renew(), timing.renewIntervalMs);
    this.renewTimer.unref();
  }

  async acquire(runId: string): Promise<boolean> {
    checkRunId(runId, "acquire");
    this.assertOpen("acquire", runId);
    // Usually instant; bounded because renewal reads the durable requests anyway if the subscription lags.
    await withTimeout(this.subscribed, this.renewIntervalMs);
    const sentAt = now();
    const reply = await this.call("acquire", runId, () =>
      runScript(this.redis, ACQUIRE, [this.leaseKey(runId), this.cancelKey(runId)], [this.instanceId, this.leaseMs]),
    );
    if (Number(reply) !== 1) return false;
    if (this.closing !== undefined) {
      // Closed while acquiring: hand the lease straight back rather than leave it to expire.
      await runScript(this.redis, RELEASE, [this.leaseKey(runId), this.cancelKey(runId)], [this.instanceId]).catch(
        () => {},
      );
      throw this.closedError("acquire", runId);
    }
    const lease = this.held.get(runId);
    if (lease === undefined) {
      this.held.set(runId, { confirmedUntil: sentAt + this.leaseMs });
      this.cancelDelivered.delete(runId);
      this.localRequests.delete(runId);
    } else {
      lease.confirmedUntil = Math.max(lease.confirmedUntil, sentAt + this.leaseMs);
    }
    this.armFence();
    return true;
  }

  async release(runId: string): Promise<void> {
    checkRunId(runId, "release");
    if (this.closing !== undefined) return;
    this.forget(runId);
    this.armFence();
    try {
      await runScript(this.redis, RELEASE, [this.leaseKey(runId), this.cancelKey(runId)], [this.instanceId]);
    } catch (err) {
      // Renewal has stopped, so the lease expires by itself; failing the caller would gain nothing.
      this.logger.warn({ err, runId, instanceId: this.instanceId }, "could not release run lease; it will expire");
    }
  }

  async ownerOf(runId: string): Promise<string | null> {
    checkRunId(runId, "ownerOf");
    this.assertOpen("ownerOf", runId);
    const owner = await this.call("ownerOf", runId, () => this.redis.get(this.leaseKey(runId)));
    return typeof owner === "string" ? owner : null;
  }

  async leaseOf(runId: string): Promise<RunLease | null> {
    checkRunId(runId, "leaseOf");
    this.assertOpen("leaseOf", runId);
    const reply = await this.call("leaseOf", runId, () => runScript(this.redis, LEASE_OF, [this.leaseKey(runId)], []));
    return leaseFromReply(reply);
  }

  async requestCancel(runId: string, action: CancelAction): Promise<CancelDelivery> {
    checkRunId(runId, "requestCancel");
    checkCancelAction(action, runId);
    this.assertOpen("requestCancel", runId);
    if (this.held.has(runId)) {
      // This instance runs it: no need to go through Redis.
      if (!this.localRequests.has(runId)) this.localRequests.set(runId, action);
      this.deliverCancel(runId, this.localRequests.get(runId) ?? action);
      return "delivered";
    }
    const owner = await this.call("requestCancel", runId, () =>
      runScript(
        this.redis,
        REQUEST_CANCEL,
        [this.leaseKey(runId), this.cancelKey(runId)],
        [action, this.leaseMs * 2, `${this.prefix}cancel:`, runId],
      ),
    );
    return typeof owner === "string" ? "delivered" : "no_owner";
  }

  onCancelRequest(handler: CancelRequestHandler): () => void {
    return this.closing !== undefined ? () => {} : this.cancelHandlers.add(handler);
  }

  onLeaseLost(handler: LeaseLostHandler): () => void {
    return this.closing !== undefined ? () => {} : this.leaseLostHandlers.add(handler);
  }

  async claimRecovery(runId: string, ttlMs: number): Promise<boolean> {
    checkRunId(runId, "claimRecovery");
    const ttl = checkTtl(ttlMs, runId);
    this.assertOpen("claimRecovery", runId);
    const reply = await this.call("claimRecovery", runId, () =>
      this.redis.set(`${this.prefix}recover:${runId}`, this.instanceId, "PX", ttl, "NX"),
    );
    return reply === "OK";
  }

  close(options: { abandon?: boolean } = {}): Promise<void> {
    this.closing ??= this.shutdown(options.abandon === true);
    return this.closing;
  }

  private async shutdown(abandon: boolean): Promise<void> {
    clearInterval(this.renewTimer);
    clearTimeout(this.fenceTimer);
    const runs = [...this.held.keys()];
    this.held.clear();
    this.localRequests.clear();
    this.cancelDelivered.clear();
    this.cancelHandlers.clear();
    this.leaseLostHandlers.clear();
    this.subscriber.removeAllListeners("message");
    // The subscriber only ever receives; dropping it cannot lose a write.
    this.subscriber.disconnect();
    if (!abandon && runs.length > 0) {
      // Bounded: during an outage the leases expire by themselves within leaseMs anyway.
      const releases = Promise.allSettled(
        runs.map((runId) =>
          runScript(this.redis, RELEASE, [this.leaseKey(runId), this.cancelKey(runId)], [this.instanceId]),
        ),
      );
      await withTimeout(releases, this.leaseMs);
    }
    if (this.ownsRedis) {
      await withTimeout(
        this.redis.quit().then(
          () => undefined,
          () => undefined,
        ),
        2_000,
      );
      this.redis.disconnect();
    }
  }

  private async renew(): Promise<void> {
    if (this.closing !== undefined || this.held.size === 0) return;
    const sentAt = now();
    // One renewal at a time, unless the previous one has hung for a whole lease (its reply no longer matters).
    if (this.renewingSince !== undefined && sentAt - this.renewingSince < this.leaseMs) return;
    this.renewingSince = sentAt;
    const entries = [...this.held];
    const keys = entries.flatMap(([runId]) => [this.leaseKey(runId), this.cancelKey(runId)]);
    try {
      const reply = await runScript(this.redis, RENEW, keys, [this.instanceId, this.leaseMs]);
      const [renewed, actions] = parseRenewReply(reply, entries.length);
      if (this.unreachable) {
        this.unreachable = false;
        this.logger.info({ instanceId: this.instanceId }, "lease renewal succeeded again");
      }
      entries.forEach(([runId, lease], i) => {
        // Released, lost or closed while the script ran: the reply is stale for this run.
        if (this.closing !== undefined || this.held.get(runId) !== lease) return;
        if (renewed[i] !== 1) {
          this.loseLease(runId, "the lease expired, was deleted or belongs to another instance");
          return;
        }
        lease.confirmedUntil = Math.max(lease.confirmedUntil, sentAt + this.leaseMs);
        const action = actions[i];
        if (isCancelAction(action)) this.deliverCancel(runId, action);
        else if (action !== "") this.logger.warn({ runId, value: action }, "ignoring malformed durable cancel request");
      });
      // Requests made locally while no handler was registered.
      for (const [runId, action] of this.localRequests) this.deliverCancel(runId, action);
    } catch (err) {
      if (this.closing === undefined && !this.unreachable) {
        this.unreachable = true;
        this.logger.warn(
          { err, instanceId: this.instanceId, runs: entries.length },
          "lease renewal failed; leases are lost if not renewed before they expire",
        );
      }
    } finally {
      if (this.renewingSince === sentAt) this.renewingSince = undefined;
      this.armFence();
    }
  }

  /** Arms a timer for the earliest confirmed expiry: a lease not renewed by then is lost. */
  private armFence(): void {
    clearTimeout(this.fenceTimer);
    this.fenceTimer = undefined;
    if (this.closing !== undefined || this.held.size === 0) return;
    let earliest = Infinity;
    for (const lease of this.held.values()) earliest = Math.min(earliest, lease.confirmedUntil);
    this.fenceTimer = setTimeout(() => this.fence(), Math.max(0, earliest - now()) + 1);
    this.fenceTimer.unref();
  }

  private fence(): void {
    const at = now();
    for (const [runId, lease] of [...this.held]) {
      if (this.closing !== undefined) return;
      if (lease.confirmedUntil > at) continue;
      this.loseLease(runId, "the lease could not be renewed before it expired");
      // Best effort: once Redis is back, let other instances see at once that nobody owns the run.
      runScript(this.redis, RELEASE, [this.leaseKey(runId), this.cancelKey(runId)], [this.instanceId]).catch(() => {});
    }
    this.armFence();
  }

  private onMessage(channel: string, message: string): void {
    if (channel !== this.channel) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(message);
    } catch {
      parsed = undefined;
    }
    const runId = (parsed as { runId?: unknown } | undefined)?.runId;
    const action = (parsed as { action?: unknown } | undefined)?.action;
    if (typeof runId !== "string" || !isCancelAction(action)) {
      this.logger.warn({ channel, message: message.slice(0, 200) }, "ignoring malformed cancel message");
      return;
    }
    this.deliverCancel(runId, action);
  }

  private deliverCancel(runId: string, action: CancelAction): void {
    if (this.closing !== undefined || !this.held.has(runId) || this.cancelDelivered.has(runId)) return;
    // Without a handler the request stays pending (durable key or local record) for the next renewal.
    if (this.cancelHandlers.size === 0) return;
    this.cancelDelivered.add(runId);
    this.cancelHandlers.emit(runId, action);
  }

  private loseLease(runId: string, reason: string): void {
    this.forget(runId);
    this.logger.warn({ runId, instanceId: this.instanceId, reason }, "run lease lost");
    this.leaseLostHandlers.emit(runId);
  }

  private forget(runId: string): void {
    this.held.delete(runId);
    this.localRequests.delete(runId);
    this.cancelDelivered.delete(runId);
  }

  private leaseKey(runId: string): string {
    return `${this.prefix}lease:${runId}`;
  }

  private cancelKey(runId: string): string {
    return `${this.prefix}cancel:${runId}`;
  }

  /** Runs one Redis operation, turning a connection/server failure into `STORE_UNAVAILABLE`. */
  private async call<T>(operation: string, runId: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      if (this.closing !== undefined) throw this.closedError(operation, runId);
      throw new RuntimeError(
        "STORE_UNAVAILABLE",
        `RedisRunCoordinator ${operation}(${runId}) failed: ${(err as Error).message}`,
        {
          cause: err,
          details: { runId, operation },
        },
      );
    }
  }

  private assertOpen(operation: string, runId: string): void {
    if (this.closing !== undefined) throw this.closedError(operation, runId);
  }

  private closedError(operation: string, runId: string): RuntimeError {
    return new RuntimeError("CLOSED", `RedisRunCoordinator ${this.instanceId} is closed (${operation} ${runId})`, {
      details: { runId },
    });
  }
}

/**
 * The `LEASE_OF` script's `[owner, PTTL]` reply as a lease, so that it agrees with `ownerOf`
 * (a plain GET) at every instant.
 *
 * PTTL is 0 in the last millisecond before expiry, while GET still returns the owner (Redis
 * expires a key once the clock is past its deadline): that lease is live and reported with 1 ms
 * left, as the in-process hub does. PTTL is -1 for a key without expiry, which this coordinator
 * never writes; such a key is not a lease.
 *
 * @internal exported for its unit test
 */
export function leaseFromReply(reply: unknown): RunLease | null {
  if (!Array.isArray(reply) || typeof reply[0] !== "string") return null;
  const pttl = Number(reply[1]);
  return Number.isInteger(pttl) && pttl >= 0 ? { ownerId: reply[0], expiresInMs: Math.max(1, pttl) } : null;
}

function parseRenewReply(reply: unknown, count: number): [unknown[], unknown[]] {
  if (Array.isArray(reply) && reply.length === 2) {
    const [renewed, actions] = reply as [unknown, unknown];
    if (Array.isArray(renewed) && Array.isArray(actions) && renewed.length === count && actions.length === count)
      return [renewed, actions];
  }
  throw new Error(`unexpected renewal reply for ${count} leases`);
}

/** CLIENT SETNAME accepts no spaces or newlines. */
function connectionName(instanceId: string): string {
  return `deerflow-coordinator:${instanceId}`.replace(/[^\x21-\x7e]/g, "_");
}

async function withTimeout(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([promise, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

/** Monotonic milliseconds: lease expiry must not jump with the wall clock. */
function now(): number {
  return performance.now();
}
