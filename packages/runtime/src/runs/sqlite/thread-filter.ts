/**
 * Thread search in SQLite. SQLite has no `jsonb @>`, so the SQL only narrows
 * the candidates and `threadMatches` (shared with the memory store) decides;
 * the narrowing must therefore never drop a thread that matches.
 */
import type { CheckedThreadSearch, ThreadSortField } from "../thread-search.js";

/** A validated thread filter. */
export type ThreadFilter = Pick<CheckedThreadSearch, "metadata" | "status" | "ids">;

/**
 * WHERE clause over `threads t` with the named parameters of {@link threadFilterParams}.
 *
 * Status and ids are exact. For metadata, every top-level key of the filter
 * must exist in the thread's metadata with the same JSON type, and scalars must
 * be equal: both sides are `JSON.stringify` output, so equal values have equal
 * text and parse to equal SQLite values. Nested objects and arrays are left to
 * `threadMatches`. JSON deeper than SQLite parses (1000 levels) is not narrowed.
 */
export const THREAD_FILTER_SQL = `(@status IS NULL OR t.status = @status)
  AND (@ids IS NULL OR t.thread_id IN (SELECT value FROM json_each(@ids)))
  AND CASE WHEN @metadata IS NULL OR NOT json_valid(@metadata) OR NOT json_valid(t.metadata) THEN 1
    ELSE NOT EXISTS (
      SELECT 1 FROM json_each(@metadata) f
      WHERE NOT EXISTS (
        SELECT 1 FROM json_each(t.metadata) m
        WHERE m.key = f.key AND m.type = f.type AND (f.type IN ('object', 'array') OR m.value IS f.value)))
  END`;

/** Named parameters of {@link THREAD_FILTER_SQL}. */
export function threadFilterParams(filter: ThreadFilter): {
  status: string | null;
  ids: string | null;
  metadata: string | null;
} {
  return {
    status: filter.status ?? null,
    ids: filter.ids === undefined ? null : JSON.stringify(filter.ids),
    metadata: filter.metadata === undefined ? null : JSON.stringify(filter.metadata),
  };
}

/**
 * ORDER BY of a search: the sort field, ties broken by `thread_id` in the same
 * direction. TEXT columns compare with SQLite's BINARY collation, byte order of
 * UTF-8, which is the code-point order of `compareCodePoints`.
 */
export function threadOrderSql(sortBy: ThreadSortField, sortOrder: "asc" | "desc"): string {
  const column = { threadId: "thread_id", status: "status", createdAt: "created_at", updatedAt: "updated_at" }[sortBy];
  const dir = sortOrder === "asc" ? "ASC" : "DESC";
  return `ORDER BY t.${column} ${dir}, t.thread_id ${dir}`;
}
