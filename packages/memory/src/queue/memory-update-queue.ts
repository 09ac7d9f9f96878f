/**
 * `MemoryUpdateQueue` (DeerFlow's `MemoryUpdateQueue`, §4.3): conversations
 * wait here before extraction.
 *
 * - Coalescing: one pending item per (thread, user, agent); a newer add
 *   replaces the messages (latest wins) and merges the signals.
 * - One debounce timer for the whole queue: every add restarts it at
 *   `debounceMs`; `add(..., { immediate: true })` and {@link MemoryUpdateQueue.flush} fire it now.
 * - Backpressure: a new key on a queue at `maxDepth` without signals throws
 *   `QUEUE_FULL`; updates carrying signals are always admitted.
 * - Draining processes items one at a time, `interItemDelayMs` apart; a fire
 *   while draining runs once more afterwards.
 * - {@link MemoryUpdateQueue.close}: refuses new adds and drains what is pending
 *   without delays, up to a timeout (DeerFlow's `flush_sync` at shutdown).
 *
 * A failed item is logged and dropped; it never stops the queue.
 */
import type { BaseMessage } from "@langchain/core/messages";
import { MemoryError } from "../errors.js";
import { silentLogger, type Logger } from "../logger.js";
import type { MemorySignal } from "../extraction/write-gate.js";
import type { MemoryScope } from "../types.js";
import { agentBucketOf } from "../document.js";

/** A queued conversation. */
export interface MemoryQueueItem {
  readonly threadId: string;
  readonly scope: MemoryScope;
  readonly messages: readonly BaseMessage[];
  readonly signals: ReadonlySet<MemorySignal>;
  /** When the item was first queued (`Date.now()`). */
  readonly queuedAt: number;
}

/** Options of {@link MemoryUpdateQueue}. */
export interface MemoryUpdateQueueOptions {
  /** Processes one item (usually `MemoryUpdater.update`). */
  readonly process: (item: MemoryQueueItem, signal: AbortSignal) => Promise<unknown>;
  /** `debounce_seconds` × 1000. Default 30 000. */
  readonly debounceMs?: number;
  /** `queue_max_depth` (0 = unlimited). Default 1000. */
  readonly maxDepth?: number;
  /** Pause between items while draining. Default 500. */
  readonly interItemDelayMs?: number;
  readonly logger?: Logger;
}

/** Options of {@link MemoryUpdateQueue.add}. */
export interface MemoryQueueAddOptions {
  /** Signals found by the caller (merged with a pending item's). */
  readonly signals?: Iterable<MemorySignal>;
  /** Fire the timer now instead of restarting the debounce (DeerFlow's `add_nowait`). */
  readonly immediate?: boolean;
}

function keyOf(threadId: string, scope: MemoryScope): string {
  return JSON.stringify([threadId, scope.userId, agentBucketOf(scope)]);
}

/** The debounced, coalescing update queue. */
export class MemoryUpdateQueue {
  readonly #process: MemoryUpdateQueueOptions["process"];
  readonly #debounceMs: number;
  readonly #maxDepth: number;
  readonly #interItemDelayMs: number;
  readonly #logger: Logger;
  readonly #pending = new Map<string, MemoryQueueItem>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #draining: Promise<void> | undefined;
  #again = false;
  #closed = false;
  /** Aborted at close's deadline: the item in flight stops. */
  readonly #abort = new AbortController();
  /** Set by close: no pauses between items. */
  #hurry = false;
  #wakeDelay: (() => void) | undefined;

  /** @param options - processor, debounce, depth, delay, logger */
  constructor(options: MemoryUpdateQueueOptions) {
    this.#process = options.process;
    this.#debounceMs = options.debounceMs ?? 30_000;
    this.#maxDepth = options.maxDepth ?? 1000;
    this.#interItemDelayMs = options.interItemDelayMs ?? 500;
    this.#logger = options.logger ?? silentLogger;
    for (const [k, v] of [
      ["debounceMs", this.#debounceMs],
      ["maxDepth", this.#maxDepth],
      ["interItemDelayMs", this.#interItemDelayMs],
    ] as const)
      if (!Number.isInteger(v) || v < 0)
        throw new MemoryError("CONFIG_INVALID", `MemoryUpdateQueue ${k} must be an integer ≥ 0, got ${String(v)}`);
  }

  /** Items waiting. */
  get size(): number {
    return this.#pending.size;
  }

  /** Whether items are being processed now. */
  get processing(): boolean {
    return this.#draining !== undefined;
  }

  /**
   * Queues a conversation (replacing a pending one of the same thread, user and agent).
   *
   * @param threadId - the conversation
   * @param scope - user and agent
   * @param messages - the whole conversation
   * @param options - signals, immediate
   * @throws MemoryError `QUEUE_FULL` (new key, full queue, no signals), `QUEUE_CLOSED`
   */
  add(
    threadId: string,
    scope: MemoryScope,
    messages: readonly BaseMessage[],
    options: MemoryQueueAddOptions = {},
  ): void {
    if (this.#closed) throw new MemoryError("QUEUE_CLOSED", "The memory update queue is closed.");
    const key = keyOf(threadId, scope);
    const signals = new Set(options.signals ?? []);
    const previous = this.#pending.get(key);
    if (previous === undefined && signals.size === 0 && this.#maxDepth > 0 && this.#pending.size >= this.#maxDepth)
      throw new MemoryError("QUEUE_FULL", `The memory update queue is full (${this.#maxDepth} conversations).`);
    // Re-inserted so the map's order is the order of the latest adds.
    this.#pending.delete(key);
    this.#pending.set(key, {
      threadId,
      scope,
      messages,
      signals: new Set([...(previous?.signals ?? []), ...signals]),
      queuedAt: previous?.queuedAt ?? Date.now(),
    });
    this.#schedule(options.immediate === true ? 0 : this.#debounceMs);
  }

  /**
   * Processes everything pending now (and waits for it).
   */
  async flush(): Promise<void> {
    this.#clearTimer();
    await this.#fire();
  }

  /**
   * Stops accepting adds and drains what is pending without pauses.
   *
   * @param timeoutMs - longest wait; then the item in flight is aborted and the rest dropped (logged)
   */
  async close(timeoutMs = 30_000): Promise<void> {
    this.#closed = true;
    this.#hurry = true;
    this.#wakeDelay?.();
    this.#clearTimer();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), timeoutMs);
    });
    try {
      if ((await Promise.race([this.#fire().then(() => "done" as const), deadline])) === "timeout") {
        this.#abort.abort(new MemoryError("QUEUE_CLOSED", "memory queue shutdown timeout"));
        this.#logger.warn({ dropped: this.#pending.size }, "memory queue flush timed out at shutdown");
        this.#pending.clear();
      }
    } finally {
      clearTimeout(timer);
    }
  }

  #clearTimer(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #schedule(ms: number): void {
    this.#clearTimer();
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#fire();
    }, ms);
    // A pending debounce never keeps the process alive; shutdown flushes explicitly.
    this.#timer.unref?.();
  }

  #fire(): Promise<void> {
    if (this.#draining !== undefined) {
      this.#again = true;
      return this.#draining;
    }
    this.#draining = this.#drain().finally(() => {
      this.#draining = undefined;
    });
    return this.#draining;
  }

  async #drain(): Promise<void> {
    do {
      this.#again = false;
      // What is pending now; later adds wait for their own debounce (or the re-run below).
      const batch = [...this.#pending.values()];
      this.#pending.clear();
      for (const [i, item] of batch.entries()) {
        if (i > 0) await this.#pause();
        if (this.#abort.signal.aborted) return;
        try {
          await this.#process(item, this.#abort.signal);
        } catch (err) {
          this.#logger.warn({ err, threadId: item.threadId }, "memory update failed; the conversation is dropped");
        }
      }
    } while (this.#again && this.#pending.size > 0);
  }

  #pause(): Promise<void> {
    if (this.#hurry || this.#interItemDelayMs === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const t = setTimeout(done, this.#interItemDelayMs);
      function done(): void {
        clearTimeout(t);
        resolve();
      }
      this.#wakeDelay = done;
    });
  }
}
