/**
 * `MemoryRunStore`: the run store of a single process. Every method runs to
 * completion without awaiting, so it is atomic with respect to every other
 * call; records go in and out as copies.
 *
 * The store is composed of `memory-tables.ts` (the data and the rules that
 * keep it consistent), `memory-thread-operations.ts` and
 * `memory-run-operations.ts`, like the SQL stores.
 */
import { silentLogger, type Logger } from "../logger.js";
import { ComposedRunStore } from "./composed-run-store.js";
import { MemoryRunOperations } from "./memory-run-operations.js";
import { MemoryTables } from "./memory-tables.js";
import { MemoryThreadOperations } from "./memory-thread-operations.js";

/** Options of {@link MemoryRunStore}. */
export interface MemoryRunStoreOptions {
  /** Receives debug records of state changes. Default: silent. */
  logger?: Logger;
  /** Clock for every timestamp the store writes. Default: `() => new Date()`. */
  now?: () => Date;
}

/**
 * A {@link RunStore} in process memory, for a single server instance and for
 * tests. It behaves exactly like `PostgresRunStore` (the conformance kit checks
 * both) but loses everything when the process exits.
 *
 * @example
 * ```ts
 * const store = new MemoryRunStore();
 * const { run } = await store.admitRun({ runId, threadId, assistantId: "agent", multitaskStrategy: "enqueue",
 *   onDisconnect: "cancel", metadata: {}, kwargs: { streamMode: ["values"] }, ownerId: "me", ifNotExists: "create" });
 * ```
 */
export class MemoryRunStore extends ComposedRunStore {
  private readonly tables: MemoryTables;

  /** @param options - logger and clock. */
  constructor(options: MemoryRunStoreOptions = {}) {
    const tables = new MemoryTables();
    const clock = options.now ?? (() => new Date());
    const parts = { tables, logger: options.logger ?? silentLogger, now: () => clock().toISOString() };
    super(new MemoryThreadOperations(parts), new MemoryRunOperations(parts));
    this.tables = tables;
  }

  /** Marks the store closed; later calls fail with `CLOSED`. The data is kept. */
  async close(): Promise<void> {
    this.tables.close();
  }
}
