/**
 * The sandbox of one thread while runs use it: acquired from the provider once
 * (the sandbox middleware does it at the run's first model call; tools get the same
 * promise), released once when the last run using it ends (see
 * {@link ThreadSandboxes}).
 */
import type { Sandbox, SandboxProvider } from "@deerflow/sandbox";
import { silentLogger, type Logger } from "../logger.js";

/** Options of {@link ThreadSandbox}. */
export interface ThreadSandboxOptions {
  readonly threadId: string;
  /** Optional user (providers default to `default`). */
  readonly userId?: string | undefined;
  readonly logger?: Logger;
  /** Acquire only after this settles (the release of the thread's previous session). */
  readonly after?: Promise<unknown>;
}

/** Lazily acquired sandbox of a thread. */
export class ThreadSandbox {
  readonly threadId: string;
  readonly userId: string | undefined;
  readonly #provider: SandboxProvider;
  readonly #logger: Logger;
  readonly #after: Promise<unknown> | undefined;
  #pending: Promise<Sandbox> | undefined;
  /** The id of the sandbox {@link ThreadSandbox.get} resolved to, until it is released. */
  #sandboxId: string | undefined;
  #released = false;

  /**
   * @param provider - where sandboxes come from
   * @param options - thread, user, logger, and what to wait for before acquiring
   */
  constructor(provider: SandboxProvider, options: ThreadSandboxOptions) {
    this.#provider = provider;
    this.threadId = options.threadId;
    this.userId = options.userId;
    this.#logger = options.logger ?? silentLogger;
    this.#after = options.after;
  }

  /** The thread's sandbox, acquired on first call. A failed acquire is retried by the next call. */
  get(): Promise<Sandbox> {
    if (this.#pending === undefined) {
      this.#released = false;
      const acquire = (): Promise<Sandbox> =>
        this.userId === undefined
          ? this.#provider.acquire(this.threadId)
          : this.#provider.acquire(this.threadId, this.userId);
      const pending = this.#after === undefined ? acquire() : this.#after.then(acquire, acquire);
      this.#pending = pending;
      pending.then(
        (sandbox) => {
          if (this.#pending === pending) this.#sandboxId = sandbox.id;
        },
        () => {
          if (this.#pending === pending) this.#pending = undefined;
        },
      );
    }
    return this.#pending;
  }

  /** The id of the acquired sandbox once its acquisition has finished (and until it is released). */
  get sandboxId(): string | undefined {
    return this.#sandboxId;
  }

  /** True once {@link ThreadSandbox.get} has been called (and not released since). */
  get acquired(): boolean {
    return this.#pending !== undefined;
  }

  /** Hands the sandbox back to the provider (once); later `get` calls acquire again. Never throws. */
  async release(): Promise<void> {
    const pending = this.#pending;
    if (pending === undefined || this.#released) return;
    this.#released = true;
    this.#pending = undefined;
    this.#sandboxId = undefined;
    try {
      const sandbox = await pending;
      await this.#provider.release(sandbox.id);
    } catch (err) {
      this.#logger.warn({ threadId: this.threadId, err: (err as Error).message }, "sandbox release failed");
    }
  }
}
