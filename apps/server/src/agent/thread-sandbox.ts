/**
 * The sandbox of one run's thread: acquired from the provider once (the
 * sandbox middleware does it before the agent starts; tools get the same
 * promise), released once when the run ends.
 */
import type { Sandbox, SandboxProvider } from "@deerflow/sandbox";
import { silentLogger, type Logger } from "../logger.js";

/** Lazily acquired sandbox of a thread. */
export class ThreadSandbox {
  readonly threadId: string;
  readonly userId: string | undefined;
  readonly #provider: SandboxProvider;
  readonly #logger: Logger;
  #pending: Promise<Sandbox> | undefined;
  #released = false;

  /**
   * @param provider - where sandboxes come from
   * @param threadId - the run's thread
   * @param userId - optional user (providers default to `default`)
   * @param logger - logger
   */
  constructor(provider: SandboxProvider, threadId: string, userId?: string, logger: Logger = silentLogger) {
    this.#provider = provider;
    this.threadId = threadId;
    this.userId = userId;
    this.#logger = logger;
  }

  /** The thread's sandbox, acquired on first call. A failed acquire is retried by the next call. */
  get(): Promise<Sandbox> {
    if (this.#pending === undefined) {
      this.#released = false;
      const pending = this.userId === undefined ? this.#provider.acquire(this.threadId) : this.#provider.acquire(this.threadId, this.userId);
      this.#pending = pending;
      pending.catch(() => {
        if (this.#pending === pending) this.#pending = undefined;
      });
    }
    return this.#pending;
  }

  /** True once {@link get} has been called (and not released since). */
  get acquired(): boolean {
    return this.#pending !== undefined;
  }

  /** Hands the sandbox back to the provider (once); later `get` calls acquire again. Never throws. */
  async release(): Promise<void> {
    const pending = this.#pending;
    if (pending === undefined || this.#released) return;
    this.#released = true;
    this.#pending = undefined;
    try {
      const sandbox = await pending;
      await this.#provider.release(sandbox.id);
    } catch (err) {
      this.#logger.warn({ threadId: this.threadId, err: (err as Error).message }, "sandbox release failed");
    }
  }
}
