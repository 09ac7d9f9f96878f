/** The thread operations of `MemoryRunStore`. */
import type { CreateThreadInput, ThreadCountQuery, ThreadPatch, ThreadSearchQuery } from "./run-store.js";
import type { MemoryStoreParts, MemoryTables } from "./memory-tables.js";
import { threadExists, threadHasActiveRuns, threadNotFound } from "./store-errors.js";
import { checkCreateThreadInput, checkId, checkThreadPatch } from "./store-input.js";
import { checkThreadFilter, checkThreadSearch, threadComparator, threadMatches } from "./thread-search.js";
import type { ThreadRecord } from "./types.js";

/** Creating, reading, searching and deleting threads. */
export class MemoryThreadOperations {
  private readonly tables: MemoryTables;

  constructor(private readonly store: MemoryStoreParts) {
    this.tables = store.tables;
  }

  /** {@inheritDoc RunStore.createThread} */
  async createThread(input: CreateThreadInput): Promise<ThreadRecord> {
    this.tables.open();
    const { threadId, metadata, ifExists } = checkCreateThreadInput(input);
    const existing = this.tables.threads.get(threadId);
    if (existing) {
      if (ifExists === "do_nothing") return structuredClone(existing);
      throw threadExists(threadId);
    }
    return structuredClone(this.tables.insertThread(threadId, metadata, this.store.now()));
  }

  /** {@inheritDoc RunStore.getThread} */
  async getThread(threadId: string): Promise<ThreadRecord | null> {
    this.tables.open();
    const thread = this.tables.threads.get(checkId(threadId, "threadId"));
    return thread ? structuredClone(thread) : null;
  }

  /** {@inheritDoc RunStore.updateThread} */
  async updateThread(threadId: string, patch: ThreadPatch): Promise<ThreadRecord> {
    this.tables.open();
    checkId(threadId, "threadId");
    const { metadata, status } = checkThreadPatch(patch);
    const thread = this.tables.threads.get(threadId);
    if (!thread) throw threadNotFound(threadId);
    if (metadata) thread.metadata = { ...thread.metadata, ...metadata };
    if (status) thread.status = status;
    thread.updatedAt = this.store.now();
    return structuredClone(thread);
  }

  /** {@inheritDoc RunStore.searchThreads} */
  async searchThreads(query?: ThreadSearchQuery): Promise<ThreadRecord[]> {
    this.tables.open();
    const q = checkThreadSearch(query);
    return [...this.tables.threads.values()]
      .filter((t) => threadMatches(t, q))
      .sort(threadComparator(q.sortBy, q.sortOrder))
      .slice(q.offset, q.offset + q.limit)
      .map((t) => structuredClone(t));
  }

  /** {@inheritDoc RunStore.countThreads} */
  async countThreads(query?: ThreadCountQuery): Promise<number> {
    this.tables.open();
    const filter = checkThreadFilter(query);
    let count = 0;
    for (const thread of this.tables.threads.values()) if (threadMatches(thread, filter)) count++;
    return count;
  }

  /** {@inheritDoc RunStore.deleteThread} */
  async deleteThread(threadId: string): Promise<boolean> {
    this.tables.open();
    checkId(threadId, "threadId");
    if (!this.tables.threads.has(threadId)) return false;
    const active = this.tables.activeRuns(threadId);
    if (active.length > 0)
      throw threadHasActiveRuns(
        threadId,
        active.map((r) => r.record.runId),
      );
    this.tables.deleteThread(threadId);
    return true;
  }
}
