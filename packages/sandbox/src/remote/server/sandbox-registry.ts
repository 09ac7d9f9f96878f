/**
 * The sandboxes one service hosts: wire ids (`sandbox_id`, chosen by the
 * client) bound to sandboxes acquired from a {@link SandboxProvider}.
 */
import type { Logger } from "../../logger.js";
import type { SandboxProvider } from "../../provider.js";
import type { Sandbox } from "../../sandbox.js";
import { KeyedSerialQueue } from "../../internal/serial-queue.js";
import { ServiceError } from "../wire/errors.js";

/** One hosted sandbox. */
export interface HostedSandbox {
  /** Wire id. */
  readonly sandboxId: string;
  readonly threadId: string;
  readonly userId: string;
  readonly sandbox: Sandbox;
}

interface Entry extends HostedSandbox {
  /** Commands running in this sandbox, aborted when it is destroyed. */
  readonly running: Set<AbortController>;
}

/**
 * Binds wire ids to provider sandboxes. One thread has at most one wire id
 * and a wire id belongs to one thread: a mismatch is a `CONFLICT` (the
 * identity-collision guard of DeerFlow's provider, enforced server-side).
 */
export class SandboxRegistry {
  readonly #provider: SandboxProvider;
  readonly #logger: Logger;
  readonly #entries = new Map<string, Entry>();
  readonly #locks = new KeyedSerialQueue();

  /**
   * @param provider - Where sandboxes come from.
   * @param logger - Receives acquire/destroy events.
   */
  constructor(provider: SandboxProvider, logger: Logger) {
    this.#provider = provider;
    this.#logger = logger;
  }

  /** @returns The hosted sandbox with this wire id, if any. */
  get(sandboxId: string): HostedSandbox | undefined {
    return this.#entries.get(sandboxId);
  }

  /**
   * @returns The hosted sandbox with this wire id.
   * @throws ServiceError `SANDBOX_NOT_FOUND` when it is not hosted here.
   */
  require(sandboxId: string): HostedSandbox {
    const entry = this.#entries.get(sandboxId);
    if (entry === undefined) throw new ServiceError("SANDBOX_NOT_FOUND", 404, `Sandbox ${sandboxId} not found`);
    return entry;
  }

  /** @returns Every hosted sandbox, in creation order. */
  list(): readonly HostedSandbox[] {
    return [...this.#entries.values()];
  }

  /**
   * Hosts the thread's sandbox under `sandboxId`; idempotent for the same triple.
   *
   * @param sandboxId - Wire id.
   * @param threadId - Thread.
   * @param userId - User.
   * @returns The hosted sandbox.
   * @throws ServiceError `CONFLICT` when the id or the thread is bound differently.
   */
  acquire(sandboxId: string, threadId: string, userId: string): Promise<HostedSandbox> {
    // One lock for every acquire: the thread-uniqueness check spans entries.
    return this.#locks.run("acquire", async () => {
      const existing = this.#entries.get(sandboxId);
      if (existing !== undefined) {
        if (existing.threadId !== threadId || existing.userId !== userId) {
          throw new ServiceError("CONFLICT", 409, `Sandbox ${sandboxId} is bound to another thread`);
        }
        return existing;
      }
      for (const other of this.#entries.values()) {
        if (other.threadId === threadId && other.userId === userId) {
          throw new ServiceError("CONFLICT", 409, `Thread already has sandbox ${other.sandboxId}`);
        }
      }
      const sandbox = await this.#provider.acquire(threadId, userId);
      const entry: Entry = { sandboxId, threadId, userId, sandbox, running: new Set() };
      this.#entries.set(sandboxId, entry);
      this.#logger.info({ sandboxId, sandbox: sandbox.id }, "sandbox acquired");
      return entry;
    });
  }

  /**
   * Stops hosting a sandbox: aborts its running commands and releases it to
   * the provider (for the local provider its files stay on disk).
   *
   * @param sandboxId - Wire id.
   * @returns False when it was not hosted.
   */
  async destroy(sandboxId: string): Promise<boolean> {
    const entry = this.#entries.get(sandboxId);
    if (entry === undefined) return false;
    this.#entries.delete(sandboxId);
    for (const controller of entry.running) controller.abort();
    await this.#provider.release(entry.sandbox.id);
    this.#logger.info({ sandboxId, sandbox: entry.sandbox.id }, "sandbox destroyed");
    return true;
  }

  /**
   * Registers a running command so destroying the sandbox aborts it.
   *
   * @param sandboxId - Wire id.
   * @param controller - The command's controller.
   * @returns Unregisters it.
   */
  track(sandboxId: string, controller: AbortController): () => void {
    const running = this.#entries.get(sandboxId)?.running;
    running?.add(controller);
    return () => running?.delete(controller);
  }

  /** Aborts every running command (server shutdown). */
  abortAll(): void {
    for (const entry of this.#entries.values()) for (const controller of entry.running) controller.abort();
  }
}
