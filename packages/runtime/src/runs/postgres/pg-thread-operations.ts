/** The thread operations of `PostgresRunStore`. */
import { RuntimeError } from "../../errors.js";
import type { CreateThreadInput, ThreadCountQuery, ThreadPatch, ThreadSearchQuery } from "../run-store.js";
import { toThreadRecord, type ThreadRow } from "../sql-rows.js";
import { threadExists, threadHasActiveRuns, threadNotFound } from "../store-errors.js";
import { checkCreateThreadInput, checkId, checkThreadPatch } from "../store-input.js";
import {
  checkThreadFilter,
  checkThreadSearch,
  type CheckedThreadSearch,
  type ThreadSortField,
} from "../thread-search.js";
import type { ThreadRecord } from "../types.js";
import { one } from "./pg-database.js";
import type { PgStoreParts } from "./pg-tables.js";

const SORT_COLUMNS: Record<ThreadSortField, string> = {
  // COLLATE "C": code point order whatever the database's collation, like the memory store.
  threadId: `thread_id COLLATE "C"`,
  status: `status COLLATE "C"`,
  createdAt: "created_at",
  updatedAt: "updated_at",
};

/** Creating, reading, searching and deleting threads. */
export class PgThreadOperations {
  constructor(private readonly store: PgStoreParts) {}

  /** {@inheritDoc RunStore.createThread} */
  async createThread(input: CreateThreadInput): Promise<ThreadRecord> {
    const { threadId, metadata, ifExists } = checkCreateThreadInput(input);
    const metadataJson = JSON.stringify(metadata);
    const { db, tables } = this.store;
    return db.transaction("createThread", async (c) => {
      // A concurrent delete can remove the conflicting row between the two statements; then insert again.
      for (let i = 0; i < 3; i++) {
        const inserted = await tables.insertThread(c, threadId, metadataJson, this.store.now());
        if (inserted) return toThreadRecord(inserted);
        if (ifExists === "raise") throw threadExists(threadId);
        const existing = await one<ThreadRow>(c, `SELECT * FROM ${tables.threads} WHERE thread_id = $1`, [threadId]);
        if (existing) return toThreadRecord(existing);
      }
      throw new RuntimeError(
        "STORE_UNAVAILABLE",
        `Thread ${threadId} was deleted and recreated concurrently; try again`,
        { details: { threadId } },
      );
    });
  }

  /** {@inheritDoc RunStore.getThread} */
  async getThread(threadId: string): Promise<ThreadRecord | null> {
    checkId(threadId, "threadId");
    const rows = await this.store.db.read<ThreadRow>(
      "getThread",
      `SELECT * FROM ${this.store.tables.threads} WHERE thread_id = $1`,
      [threadId],
    );
    return rows[0] ? toThreadRecord(rows[0]) : null;
  }

  /** {@inheritDoc RunStore.updateThread} */
  async updateThread(threadId: string, patch: ThreadPatch): Promise<ThreadRecord> {
    checkId(threadId, "threadId");
    const checked = checkThreadPatch(patch);
    const metadata = checked.metadata === undefined ? null : JSON.stringify(checked.metadata);
    const status = checked.status ?? null;
    return this.store.db.transaction("updateThread", async (c) => {
      const row = await one<ThreadRow>(
        c,
        // jsonb `||` on two objects is exactly a shallow merge.
        `UPDATE ${this.store.tables.threads} SET metadata = CASE WHEN $2::jsonb IS NULL THEN metadata ELSE metadata || $2::jsonb END,
           status = coalesce($3::text, status), updated_at = $4::timestamptz
         WHERE thread_id = $1 RETURNING *`,
        [threadId, metadata, status, this.store.now()],
      );
      if (!row) throw threadNotFound(threadId);
      return toThreadRecord(row);
    });
  }

  /** {@inheritDoc RunStore.searchThreads} */
  async searchThreads(query?: ThreadSearchQuery): Promise<ThreadRecord[]> {
    const q = checkThreadSearch(query);
    const params: unknown[] = [];
    const where = threadWhere(q, params);
    const dir = q.sortOrder === "asc" ? "ASC" : "DESC";
    params.push(q.limit, q.offset);
    const rows = await this.store.db.read<ThreadRow>(
      "searchThreads",
      `SELECT * FROM ${this.store.tables.threads} ${where}
       ORDER BY ${SORT_COLUMNS[q.sortBy]} ${dir}, thread_id COLLATE "C" ${dir}
       LIMIT $${params.length - 1} OFFSET $${params.length}`,
      params,
    );
    return rows.map(toThreadRecord);
  }

  /** {@inheritDoc RunStore.countThreads} */
  async countThreads(query?: ThreadCountQuery): Promise<number> {
    const filter = checkThreadFilter(query);
    const params: unknown[] = [];
    const rows = await this.store.db.read<{ count: number }>(
      "countThreads",
      `SELECT count(*)::int AS count FROM ${this.store.tables.threads} ${threadWhere(filter, params)}`,
      params,
    );
    return rows[0]?.count ?? 0;
  }

  /** {@inheritDoc RunStore.deleteThread} */
  async deleteThread(threadId: string): Promise<boolean> {
    checkId(threadId, "threadId");
    const { db, tables } = this.store;
    return db.transaction("deleteThread", async (c) => {
      if (!(await tables.lockThread(c, threadId))) return false;
      const activeRunIds = await tables.activeRunIds(c, threadId);
      if (activeRunIds.length > 0) throw threadHasActiveRuns(threadId, activeRunIds);
      await c.query(`DELETE FROM ${tables.threads} WHERE thread_id = $1`, [threadId]);
      return true;
    });
  }
}

/** WHERE clause of a thread filter; appends its parameters to `params`. */
function threadWhere(filter: Pick<CheckedThreadSearch, "metadata" | "status" | "ids">, params: unknown[]): string {
  const where: string[] = [];
  if (filter.metadata !== undefined) where.push(`metadata @> $${params.push(JSON.stringify(filter.metadata))}::jsonb`);
  if (filter.status !== undefined) where.push(`status = $${params.push(filter.status)}::text`);
  if (filter.ids !== undefined) where.push(`thread_id = ANY($${params.push(filter.ids)}::text[])`);
  return where.length > 0 ? `WHERE ${where.join(" AND ")}` : "";
}
