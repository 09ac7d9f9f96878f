/**
 * Thread search shared by the run stores: query validation, PostgreSQL `jsonb @>`
 * containment re-implemented in JavaScript, and the sort order, so the memory
 * store answers a search exactly like the PostgreSQL one.
 */
import { RuntimeError } from "../errors.js";
import type { ThreadSearchQuery } from "./run-store.js";
import { checkId, checkPage, checkThreadStatus, toJsonObject } from "./store-input.js";
import type { ThreadRecord, ThreadStatus } from "./types.js";

/** Sortable thread fields. */
export type ThreadSortField = NonNullable<ThreadSearchQuery["sortBy"]>;

/** A validated search with defaults applied. */
export interface CheckedThreadSearch {
  metadata: Record<string, unknown> | undefined;
  status: ThreadStatus | undefined;
  ids: string[] | undefined;
  limit: number;
  offset: number;
  sortBy: ThreadSortField;
  sortOrder: "asc" | "desc";
}

const SORT_FIELDS: ReadonlySet<string> = new Set<ThreadSortField>(["threadId", "status", "createdAt", "updatedAt"]);

/**
 * Validates the filter part of a search (shared by search and count).
 *
 * @throws RuntimeError `INVALID_ARGUMENT` naming the bad field.
 */
export function checkThreadFilter(
  query: Pick<ThreadSearchQuery, "metadata" | "status" | "ids"> | undefined,
): Pick<CheckedThreadSearch, "metadata" | "status" | "ids"> {
  const q = query ?? {};
  if (q.ids !== undefined && !Array.isArray(q.ids))
    throw new RuntimeError("INVALID_ARGUMENT", "ids must be an array of thread ids", { details: { field: "ids" } });
  return {
    metadata: q.metadata === undefined ? undefined : toJsonObject(q.metadata, "metadata"),
    status: q.status === undefined ? undefined : checkThreadStatus(q.status, "status"),
    ids: q.ids?.map((id, i) => checkId(id, `ids[${i}]`)),
  };
}

/**
 * Validates a search and applies the defaults: limit 10, offset 0, newest
 * first (`createdAt` descending).
 *
 * @throws RuntimeError `INVALID_ARGUMENT` naming the bad field.
 */
export function checkThreadSearch(query: ThreadSearchQuery | undefined): CheckedThreadSearch {
  const q = query ?? {};
  const sortBy = q.sortBy ?? "createdAt";
  if (!SORT_FIELDS.has(sortBy))
    throw new RuntimeError(
      "INVALID_ARGUMENT",
      `sortBy must be one of ${[...SORT_FIELDS].join(", ")}, got ${JSON.stringify(sortBy)}`,
      { details: { field: "sortBy" } },
    );
  const sortOrder = q.sortOrder ?? "desc";
  if (sortOrder !== "asc" && sortOrder !== "desc")
    throw new RuntimeError("INVALID_ARGUMENT", `sortOrder must be "asc" or "desc", got ${JSON.stringify(sortOrder)}`, {
      details: { field: "sortOrder" },
    });
  return { ...checkThreadFilter(q), ...checkPage(q), sortBy, sortOrder };
}

function isContainer(value: unknown): value is object {
  return typeof value === "object" && value !== null;
}

/**
 * PostgreSQL's `container @> contained` for JSON values inside an object:
 * objects match when every given key matches recursively, arrays when every
 * given element is matched by some element (scalars only by scalars), scalars
 * by equality. (The top-level "array contains a bare scalar" exception of
 * PostgreSQL does not arise because metadata is always an object.)
 */
export function jsonContains(container: unknown, contained: unknown): boolean {
  if (Array.isArray(contained)) {
    if (!Array.isArray(container)) return false;
    return contained.every((want) =>
      isContainer(want)
        ? container.some(
            (have) => isContainer(have) && Array.isArray(have) === Array.isArray(want) && jsonContains(have, want),
          )
        : container.some((have) => !isContainer(have) && have === want),
    );
  }
  if (isContainer(contained)) {
    if (!isContainer(container) || Array.isArray(container)) return false;
    const have = container as Record<string, unknown>;
    return Object.entries(contained).every(([key, want]) => Object.hasOwn(have, key) && jsonContains(have[key], want));
  }
  return !isContainer(container) && container === contained;
}

/** True when `thread` passes the filter of a validated search. */
export function threadMatches(
  thread: ThreadRecord,
  filter: Pick<CheckedThreadSearch, "metadata" | "status" | "ids">,
): boolean {
  if (filter.status !== undefined && thread.status !== filter.status) return false;
  if (filter.ids !== undefined && !filter.ids.includes(thread.threadId)) return false;
  return filter.metadata === undefined || jsonContains(thread.metadata, filter.metadata);
}

/**
 * Compares strings by Unicode code point, which is PostgreSQL's `COLLATE "C"`
 * order on UTF-8 (JavaScript's `<` compares UTF-16 code units and differs above U+FFFF).
 */
export function compareCodePoints(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}

/**
 * Comparator of a validated search: the sort field, ties broken by `threadId`
 * in the same direction (the PostgreSQL store orders identically).
 */
export function threadComparator(
  sortBy: ThreadSortField,
  sortOrder: "asc" | "desc",
): (a: ThreadRecord, b: ThreadRecord) => number {
  const sign = sortOrder === "asc" ? 1 : -1;
  return (a, b) => {
    // ISO-8601 UTC strings of equal length sort like the instants they name.
    const primary = compareCodePoints(a[sortBy], b[sortBy]);
    return sign * (primary !== 0 ? primary : compareCodePoints(a.threadId, b.threadId));
  };
}
