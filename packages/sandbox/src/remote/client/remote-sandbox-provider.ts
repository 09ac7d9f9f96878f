/**
 * {@link SandboxProvider} for sandboxes hosted by a remote service, after
 * DeerFlow's `AioSandboxProvider`: deterministic ids, readiness polling, a
 * warm pool, an idle reaper and a cap on live sandboxes.
 */
import { SandboxError } from "../../errors.js";
import type { Logger } from "../../logger.js";
import type { SandboxProvider } from "../../provider.js";
import { KeyedSerialQueue } from "../../internal/serial-queue.js";
import type { Clock } from "./clock.js";
import { waitUntilReady } from "./readiness.js";
import { createPoolEntry, type PoolEntry } from "./pool-entry.js";
import type { RemoteSandbox } from "./remote-sandbox.js";
import {
  resolveProviderOptions,
  type RemoteSandboxProviderOptions,
  type ResolvedProviderOptions,
} from "./remote-sandbox-provider-options.js";
import type { SandboxBackend } from "./sandbox-backend.js";
import { DEFAULT_USER_ID, sandboxIdFor } from "./sandbox-id.js";

/** Ids the provider tracks, for observability and tests. */
export interface RemoteProviderSnapshot {
  /** Handed out and not released, oldest first. */
  readonly active: readonly string[];
  /** Released but kept running, least recently used first. */
  readonly warm: readonly string[];
}

/**
 * Hands out {@link RemoteSandbox}es, one per (user, thread), with id
 * `sha256("<user>:<thread>").slice(0, 16)`. `acquire` looks in the active map,
 * then the warm pool (both checked alive), then asks the backend to discover
 * a running one, and only then creates one and polls `GET /v1/sandbox` until it is
 * ready. Acquires of one thread are serialised, so concurrent callers share a sandbox.
 *
 * `release` parks a sandbox in the warm pool. The reaper destroys active
 * sandboxes idle (no request) for `idleTimeoutMs` and warm ones released that
 * long ago. Before a create, the least recently released warm sandboxes are
 * evicted while the live count is at `maxSandboxes`; active sandboxes are never
 * evicted, so when all are active the cap is soft: the sandbox is created and a
 * warning logged (DeerFlow's behaviour; refusing would fail an agent's run).
 * `shutdown` destroys every sandbox it tracks, created or discovered.
 *
 * @example
 * ```ts
 * const provider = new RemoteSandboxProvider({ url: "http://127.0.0.1:8080", apiKey: process.env.SANDBOX_API_KEY });
 * const sandbox = await provider.acquire("thread-1", "alice");
 * await sandbox.writeFile("/mnt/user-data/workspace/a.txt", "hi");
 * await provider.release(sandbox.id);
 * ```
 */
export class RemoteSandboxProvider implements SandboxProvider {
  readonly #options: ResolvedProviderOptions;
  readonly #backend: SandboxBackend;
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #active = new Map<string, PoolEntry>();
  readonly #warm = new Map<string, PoolEntry>();
  readonly #destroying = new Map<string, Promise<void>>();
  readonly #locks = new KeyedSerialQueue();
  readonly #stopReaper: (() => void) | undefined;
  #creating = 0;
  #reaping: Promise<unknown> | undefined;
  #shutdown: Promise<void> | undefined;

  /**
   * @param options - Backend (or `url`), key, limits, timers.
   * @throws SandboxError `CONFIG_INVALID` without a backend or with a bad limit.
   */
  constructor(options: RemoteSandboxProviderOptions) {
    this.#options = resolveProviderOptions(options);
    this.#backend = this.#options.backend;
    this.#clock = this.#options.clock;
    this.#logger = this.#options.logger;
    if (this.#options.idleTimeoutMs > 0) {
      this.#stopReaper = this.#clock.every(this.#options.reapIntervalMs, () => {
        this.#reaping ??= this.reapIdle()
          .catch((err: unknown) => this.#logger.warn({ err: String(err) }, "idle sandbox reaping failed"))
          .finally(() => {
            this.#reaping = undefined;
          });
      });
    }
  }

  /** {@inheritDoc SandboxProvider.acquire} */
  async acquire(threadId: string, userId: string = DEFAULT_USER_ID): Promise<RemoteSandbox> {
    this.#assertOpen();
    if (threadId === "") throw new SandboxError("INVALID_ARGUMENT", "threadId must not be empty");
    const id = sandboxIdFor(threadId, userId);
    return this.#locks.run(id, async () => {
      this.#assertOpen();
      const tracked = this.#active.get(id) ?? this.#warm.get(id);
      if (tracked !== undefined) {
        if (tracked.threadId !== threadId || tracked.userId !== userId) {
          throw new SandboxError("INVALID_ARGUMENT", `Sandbox id ${id} collides with another thread's sandbox`);
        }
        const alive = await this.#backend.isAlive(id).catch(() => false);
        this.#assertOpen();
        // A create of another thread may have evicted this warm entry meanwhile.
        const stillTracked = this.#active.get(id) === tracked || this.#warm.get(id) === tracked;
        if (alive && stillTracked) {
          this.#warm.delete(id);
          this.#active.set(id, tracked);
          tracked.lastActive = this.#clock.now();
          return tracked.sandbox;
        }
        if (stillTracked) {
          this.#logger.warn({ sandboxId: id }, "tracked sandbox is gone; replacing it");
          this.#active.delete(id);
          this.#warm.delete(id);
          tracked.sandbox.close();
        }
      }
      return this.#attach(id, threadId, userId);
    });
  }

  async #attach(id: string, threadId: string, userId: string): Promise<RemoteSandbox> {
    await this.#destroying.get(id);
    this.#creating++;
    try {
      const found = await this.#backend.discover(id);
      if (found === null) await this.#makeRoom();
      const endpoint = found ?? (await this.#backend.create(id, threadId, userId));
      const entry = createPoolEntry({ id, threadId, userId }, endpoint.url, this.#options, this.#clock);
      const ready = await waitUntilReady(() => entry.sandbox.ping(this.#options.probeTimeoutMs), {
        intervalMs: this.#options.readyIntervalMs,
        timeoutMs: this.#options.readyTimeoutMs,
        clock: this.#clock,
      });
      if (!ready || this.#shutdown !== undefined) {
        if (found === null) await this.#destroyById(id);
        throw new SandboxError(
          "UNAVAILABLE",
          ready
            ? "Sandbox provider is shut down"
            : `Sandbox ${id} did not become ready within ${this.#options.readyTimeoutMs} ms`,
        );
      }
      this.#active.set(id, entry);
      this.#logger.info({ sandboxId: id, threadId, userId, discovered: found !== null }, "sandbox acquired");
      return entry.sandbox;
    } finally {
      this.#creating--;
    }
  }

  /** Evicts least recently released warm sandboxes while the cap is reached. */
  async #makeRoom(): Promise<void> {
    // `#creating` counts this create too, hence `>` rather than `>=`.
    while (this.#active.size + this.#warm.size + this.#creating > this.#options.maxSandboxes) {
      const oldest = this.#warm.values().next().value;
      if (oldest === undefined) {
        const live = this.#active.size + this.#creating - 1;
        this.#logger.warn(
          { live, maxSandboxes: this.#options.maxSandboxes },
          "sandbox cap reached and every sandbox is active; creating one more (soft cap)",
        );
        return;
      }
      this.#warm.delete(oldest.id);
      this.#logger.info({ sandboxId: oldest.id }, "evicting warm sandbox (cap reached)");
      oldest.sandbox.close();
      await this.#destroyById(oldest.id);
    }
  }

  async #destroyById(id: string): Promise<void> {
    const pending = this.#backend
      .destroy(id)
      .catch((err: unknown) => this.#logger.warn({ sandboxId: id, err: String(err) }, "destroying sandbox failed"))
      .finally(() => {
        if (this.#destroying.get(id) === pending) this.#destroying.delete(id);
      });
    this.#destroying.set(id, pending);
    await pending;
  }

  /** {@inheritDoc SandboxProvider.get} */
  get(id: string): RemoteSandbox | undefined {
    const entry = this.#active.get(id);
    if (entry !== undefined) entry.lastActive = this.#clock.now();
    return entry?.sandbox;
  }

  /** Parks the sandbox in the warm pool (it keeps running and is reused by the next `acquire` of its thread). */
  async release(id: string): Promise<void> {
    await this.#locks.run(id, async () => {
      const entry = this.#active.get(id);
      if (entry === undefined) return;
      this.#active.delete(id);
      entry.releasedAt = this.#clock.now();
      this.#warm.set(id, entry);
    });
  }

  /**
   * One pass of the idle reaper (the timer calls it every `reapIntervalMs`):
   * destroys active sandboxes without a request for `idleTimeoutMs` (never
   * while a request runs) and warm ones released that long ago.
   *
   * @returns The ids destroyed.
   */
  async reapIdle(): Promise<readonly string[]> {
    if (this.#options.idleTimeoutMs <= 0 || this.#shutdown !== undefined) return [];
    const reaped: string[] = [];
    for (const id of [...this.#active.keys(), ...this.#warm.keys()]) {
      await this.#locks.run(id, async () => {
        const active = this.#active.get(id);
        const entry = active ?? this.#warm.get(id);
        if (entry === undefined || active?.sandbox.busy === true) return;
        const idleSince = active === undefined ? entry.releasedAt : entry.lastActive;
        if (this.#clock.now() - idleSince < this.#options.idleTimeoutMs) return;
        this.#active.delete(id);
        this.#warm.delete(id);
        entry.sandbox.close();
        this.#logger.info({ sandboxId: id, warm: active === undefined }, "reaping idle sandbox");
        await this.#destroyById(id);
        reaped.push(id);
      });
    }
    return reaped;
  }

  /** @returns The tracked ids. */
  snapshot(): RemoteProviderSnapshot {
    return { active: [...this.#active.keys()], warm: [...this.#warm.keys()] };
  }

  /** Stops the reaper and destroys every tracked sandbox (active and warm). Idempotent. */
  shutdown(): Promise<void> {
    this.#shutdown ??= (async () => {
      this.#stopReaper?.();
      await this.#reaping;
      const entries = [...this.#active.values(), ...this.#warm.values()];
      this.#active.clear();
      this.#warm.clear();
      for (const entry of entries) entry.sandbox.close();
      await Promise.all(entries.map((entry) => this.#destroyById(entry.id)));
    })();
    return this.#shutdown;
  }

  #assertOpen(): void {
    if (this.#shutdown !== undefined) throw new SandboxError("UNAVAILABLE", "Sandbox provider is shut down");
  }
}
