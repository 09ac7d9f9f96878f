/** The thread operations of `SqliteRunStore`. */
import type { CreateThreadInput, ThreadCountQuery, ThreadPatch, ThreadSearchQuery } from "../run-store.js";
import { toThreadRecord, type ThreadRow } from "../sql-rows.js";
import { threadExists, threadHasActiveRuns, threadNotFound } from "../store-errors.js";
import { checkCreateThreadInput, checkId, checkThreadPatch } from "../store-input.js";
import { checkThreadFilter, checkThreadSearch, threadMatches } from "../thread-search.js";
import type { ThreadRecord } from "../types.js";
import type { SqliteStoreParts } from "./sqlite-tables.js";
import { THREAD_FILTER_SQL, threadFilterParams, threadOrderSql } from "./thread-filter.js";

/** Creating, reading, searching and deleting threads. */
export class SqliteThreadOperations {
  constructor(private readonly store: SqliteStoreParts) {}

  /** {@inheritDoc RunStore.createThread} */
  async createThread(input: CreateThreadInput): Promise<ThreadRecord> {
    const { db, tables } = this.store;
    db.open();
    const { threadId, metadata, ifExists } = checkCreateThreadInput(input);
    const metadataJson = JSON.stringify(metadata);
    return db.transaction("createThread", () => {
      const existing = tables.threadRow(threadId);
      if (existing && ifExists === "raise") throw threadExists(threadId);
      return toThreadRecord(existing ?? tables.insertThread(threadId, metadataJson, this.store.now()));
    });
  }

  /** {@inheritDoc RunStore.getThread} */
  async getThread(threadId: string): Promise<ThreadRecord | null> {
    const { db, tables } = this.store;
    db.open();
    checkId(threadId, "threadId");
    const row = db.call("getThread", () => tables.threadRow(threadId));
    return row ? toThreadRecord(row) : null;
  }

  /** {@inheritDoc RunStore.updateThread} */
  async updateThread(threadId: string, patch: ThreadPatch): Promise<ThreadRecord> {
    const { db, tables } = this.store;
    db.open();
    checkId(threadId, "threadId");
    const { metadata, status } = checkThreadPatch(patch);
    return db.transaction("updateThread", () => {
      const row = tables.threadRow(threadId);
      if (!row) throw threadNotFound(threadId);
      // A shallow merge, like jsonb `||` on two objects; SQLite's json_patch would merge recursively.
      const merged =
        metadata === undefined ? row.metadata : JSON.stringify({ ...toThreadRecord(row).metadata, ...metadata });
      return toThreadRecord(
        db.get<ThreadRow>(
          `UPDATE threads SET metadata = ?, status = coalesce(?, status), updated_at = ? WHERE thread_id = ? RETURNING *`,
          merged,
          status ?? null,
          this.store.now(),
          threadId,
        )!,
      );
    });
  }

  /** {@inheritDoc RunStore.searchThreads} */
  async searchThreads(query?: ThreadSearchQuery): Promise<ThreadRecord[]> {
    const { db } = this.store;
    db.open();
    const q = checkThreadSearch(query);
    // Without a metadata filter the SQL is exact and can page; with one, threadMatches decides and pages here.
    const exact = q.metadata === undefined;
    return db.call("searchThreads", () => {
      const rows = db
        .prepare(
          `SELECT * FROM threads t WHERE ${THREAD_FILTER_SQL} ${threadOrderSql(q.sortBy, q.sortOrder)} LIMIT @limit OFFSET @offset`,
        )
        .iterate({
          ...threadFilterParams(q),
          limit: exact ? q.limit : -1,
          offset: exact ? q.offset : 0,
        }) as IterableIterator<ThreadRow>;
      const out: ThreadRecord[] = [];
      let skip = exact ? 0 : q.offset;
      for (const row of rows) {
        const thread = toThreadRecord(row);
        if (!threadMatches(thread, q) || skip-- > 0) continue;
        out.push(thread);
        if (out.length === q.limit) break;
      }
      return out;
    });
  }

  /** {@inheritDoc RunStore.countThreads} */
  async countThreads(query?: ThreadCountQuery): Promise<number> {
    const { db, tables } = this.store;
    db.open();
    const filter = checkThreadFilter(query);
    return db.call("countThreads", () => {
      if (filter.metadata === undefined)
        return db.get<{ n: number }>(
          `SELECT count(*) AS n FROM threads t WHERE ${THREAD_FILTER_SQL}`,
          threadFilterParams(filter),
        )!.n;
      let count = 0;
      for (const row of tables.candidates(filter)) if (threadMatches(toThreadRecord(row), filter)) count++;
      return count;
    });
  }

  /** {@inheritDoc RunStore.deleteThread} */
  async deleteThread(threadId: string): Promise<boolean> {
    const { db, tables } = this.store;
    db.open();
    checkId(threadId, "threadId");
    return db.transaction("deleteThread", () => {
      if (!tables.threadRow(threadId)) return false;
      const activeRunIds = tables.activeRunIds(threadId);
      if (activeRunIds.length > 0) throw threadHasActiveRuns(threadId, activeRunIds);
      // Explicit rather than ON DELETE CASCADE: a caller's connection may have foreign keys off.
      db.run(`DELETE FROM runs WHERE thread_id = ?`, threadId);
      db.run(`DELETE FROM threads WHERE thread_id = ?`, threadId);
      return true;
    });
  }
}
