/**
 * The sandboxes one service hosts: wire ids (`sandbox_id`, chosen by the
 * client) bound to sandboxes acquired from a {@link SandboxProvider}, in one
 * namespace per owner (the client key that created them).
 */
import type { Logger } from "../../logger.js";
import type { SandboxProvider } from "../../provider.js";
import type { Sandbox } from "../../sandbox.js";
import { KeyedSerialQueue } from "../../internal/serial-queue.js";
import { ServiceError } from "../wire/errors.js";

/** One hosted sandbox. */
export interface HostedSandbox {
  /** Client id of the key that created it. */
  readonly owner: string;
  /** Wire id, unique within its owner's namespace. */
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
 * The user id the provider sees for a client's user: `<owner>.<user>`. Client
 * ids contain no `.`, so two (owner, user) pairs never give the same id, and a
 * client naming another client's thread and user gets a sandbox of its own
 * (for the local provider: its own folders), never the other one.
 *
 * @param owner - Client id.
 * @param userId - The user of the request.
 * @returns The provider's user id.
 */
function providerUserId(owner: string, userId: string): string {
  return `${owner}.${userId}`;
}

function notFound(sandboxId: string): ServiceError {
  return new ServiceError("SANDBOX_NOT_FOUND", 404, `Sandbox ${sandboxId} not found`);
}

/**
 * Binds wire ids to provider sandboxes, per owner. Within an owner's
 * namespace one thread has at most one wire id and a wire id belongs to one
 * thread: a mismatch is a `CONFLICT` (the identity-collision guard of
 * DeerFlow's provider, enforced server-side). Namespaces never meet: another
 * owner's sandbox is indistinguishable from a missing one.
 */
export class SandboxRegistry {
  readonly #provider: SandboxProvider;
  readonly #logger: Logger;
  /** owner → wire id → entry. */
  readonly #owners = new Map<string, Map<string, Entry>>();
  readonly #locks = new KeyedSerialQueue();

  /**
   * @param provider - Where sandboxes come from.
   * @param logger - Receives acquire/destroy events.
   */
  constructor(provider: SandboxProvider, logger: Logger) {
    this.#provider = provider;
    this.#logger = logger;
  }

  /** @returns The owner's hosted sandbox with this wire id, if any. */
  get(owner: string, sandboxId: string): HostedSandbox | undefined {
    return this.#owners.get(owner)?.get(sandboxId);
  }

  /**
   * @param owner - Client id of the caller.
   * @param sandboxId - Wire id.
   * @returns The owner's hosted sandbox with this wire id.
   * @throws ServiceError `SANDBOX_NOT_FOUND` when the owner has none (whether or not another owner has one).
   */
  require(owner: string, sandboxId: string): HostedSandbox {
    const entry = this.#owners.get(owner)?.get(sandboxId);
    if (entry === undefined) throw notFound(sandboxId);
    return entry;
  }

  /**
   * @param owner - Only this client's sandboxes; `undefined` for every owner's (admin).
   * @returns Hosted sandboxes, in creation order per owner.
   */
  list(owner?: string): readonly HostedSandbox[] {
    if (owner !== undefined) return [...(this.#owners.get(owner)?.values() ?? [])];
    return [...this.#owners.values()].flatMap((entries) => [...entries.values()]);
  }

  /**
   * Hosts the thread's sandbox under `sandboxId` in the owner's namespace;
   * idempotent for the same triple.
   *
   * @param owner - Client id of the caller.
   * @param sandboxId - Wire id.
   * @param threadId - Thread.
   * @param userId - User (the provider sees {@link providerUserId}).
   * @returns The hosted sandbox.
   * @throws ServiceError `CONFLICT` when the id or the thread is bound differently within the owner's namespace.
   */
  acquire(owner: string, sandboxId: string, threadId: string, userId: string): Promise<HostedSandbox> {
    // One lock per owner: the thread-uniqueness check spans that owner's entries.
    return this.#locks.run(owner, async () => {
      const entries = this.#owners.get(owner) ?? new Map<string, Entry>();
      const existing = entries.get(sandboxId);
      if (existing !== undefined) {
        if (existing.threadId !== threadId || existing.userId !== userId) {
          throw new ServiceError("CONFLICT", 409, `Sandbox ${sandboxId} is bound to another thread`);
        }
        return existing;
      }
      for (const other of entries.values()) {
        if (other.threadId === threadId && other.userId === userId) {
          throw new ServiceError("CONFLICT", 409, `Thread already has sandbox ${other.sandboxId}`);
        }
      }
      const sandbox = await this.#provider.acquire(threadId, providerUserId(owner, userId));
      const entry: Entry = { owner, sandboxId, threadId, userId, sandbox, running: new Set() };
      entries.set(sandboxId, entry);
      this.#owners.set(owner, entries);
      this.#logger.info({ owner, sandboxId, sandbox: sandbox.id }, "sandbox acquired");
      return entry;
    });
  }

  /**
   * Stops hosting a sandbox: aborts its running commands and releases it to
   * the provider (for the local provider its files stay on disk).
   *
   * @param owner - Client id of the sandbox's owner.
   * @param sandboxId - Wire id.
   * @returns False when the owner has no such sandbox.
   */
  async destroy(owner: string, sandboxId: string): Promise<boolean> {
    const entries = this.#owners.get(owner);
    const entry = entries?.get(sandboxId);
    if (entries === undefined || entry === undefined) return false;
    entries.delete(sandboxId);
    if (entries.size === 0) this.#owners.delete(owner);
    for (const controller of entry.running) controller.abort();
    await this.#provider.release(entry.sandbox.id);
    this.#logger.info({ owner, sandboxId, sandbox: entry.sandbox.id }, "sandbox destroyed");
    return true;
  }

  /**
   * Registers a running command so destroying the sandbox aborts it.
   *
   * @param hosted - The sandbox the command runs in.
   * @param controller - The command's controller.
   * @returns Unregisters it.
   */
  track(hosted: HostedSandbox, controller: AbortController): () => void {
    const running = this.#owners.get(hosted.owner)?.get(hosted.sandboxId)?.running;
    running?.add(controller);
    return () => running?.delete(controller);
  }

  /** Aborts every running command (server shutdown). */
  abortAll(): void {
    for (const entries of this.#owners.values())
      for (const entry of entries.values()) for (const controller of entry.running) controller.abort();
  }
}
