/**
 * In-memory status of tasks by id. A terminal status is set exactly once, so
 * a late completion cannot overwrite `timed_out` or `cancelled`. Finished
 * entries are dropped `retentionMs` after the result was handed to the caller.
 */
import type { SubagentResult, SubagentStatus } from "../types.js";

/** One tracked task. */
export interface TaskEntry {
  readonly status: SubagentStatus;
  readonly result?: SubagentResult;
}

/** Options of {@link TaskStore}. */
export interface TaskStoreOptions {
  /** How long a finished task stays readable after delivery; 0 (default) drops it at once. */
  readonly retentionMs?: number;
}

const TERMINAL: ReadonlySet<SubagentStatus> = new Set(["completed", "failed", "cancelled", "timed_out"]);

/** Map of task id → status and result. */
export class TaskStore {
  readonly #entries = new Map<string, TaskEntry>();
  readonly #timers = new Map<string, NodeJS.Timeout>();
  readonly #retentionMs: number;

  /** @param options - retention of finished tasks */
  constructor(options: TaskStoreOptions = {}) {
    const retention = options.retentionMs ?? 0;
    if (!Number.isFinite(retention) || retention < 0)
      throw new RangeError(`retentionMs must be >= 0, got ${retention}`);
    this.#retentionMs = retention;
  }

  /** Number of tracked tasks. */
  get size(): number {
    return this.#entries.size;
  }

  /** The entry of a task, if still tracked. */
  get(id: string): TaskEntry | undefined {
    return this.#entries.get(id);
  }

  /** True when the id is tracked and not yet terminal. */
  isActive(id: string): boolean {
    const entry = this.#entries.get(id);
    return entry !== undefined && !TERMINAL.has(entry.status);
  }

  /** Tracks a new task as `pending` (replacing a finished entry with the same id). */
  add(id: string): void {
    this.#clearTimer(id);
    this.#entries.set(id, { status: "pending" });
  }

  /**
   * Moves a task to `running`.
   * @returns false when the task is unknown or already terminal
   */
  markRunning(id: string): boolean {
    if (!this.isActive(id)) return false;
    this.#entries.set(id, { status: "running" });
    return true;
  }

  /**
   * Sets the terminal result; only the first call wins.
   * @returns the stored result (the earlier one when already terminal)
   */
  finish(id: string, result: SubagentResult): SubagentResult {
    const entry = this.#entries.get(id);
    if (entry?.result !== undefined) return entry.result;
    this.#entries.set(id, { status: result.status, result });
    return result;
  }

  /** Marks a finished task as delivered: it is dropped after the retention. */
  delivered(id: string): void {
    if (this.isActive(id)) return;
    if (this.#retentionMs === 0) {
      this.#entries.delete(id);
      return;
    }
    this.#clearTimer(id);
    const timer = setTimeout(() => {
      this.#timers.delete(id);
      this.#entries.delete(id);
    }, this.#retentionMs);
    timer.unref();
    this.#timers.set(id, timer);
  }

  /** Drops everything and cancels retention timers. */
  clear(): void {
    for (const timer of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
    this.#entries.clear();
  }

  #clearTimer(id: string): void {
    const timer = this.#timers.get(id);
    if (timer !== undefined) clearTimeout(timer);
    this.#timers.delete(id);
  }
}
