/**
 * The paging both SQL stores share: a search takes rows already narrowed to a
 * namespace prefix and in result order, keeps those the filter accepts and
 * cuts the page; a namespace listing applies the match conditions, `maxDepth`
 * truncation (distinct after truncation), ordering and the page, as
 * LangGraph's `InMemoryStore` defines them.
 */
import type { Item, ListNamespacesOperation } from "@langchain/langgraph-checkpoint";
import { RuntimeError } from "../errors.js";
import { compileFilter } from "./item-filter.js";
import { encodeNamespace, matchesCondition } from "./namespace-path.js";

/** A checked `limit` / `offset` pair. */
export interface Page {
  readonly limit: number;
  readonly offset: number;
}

/**
 * @throws RuntimeError `INVALID_ARGUMENT` for a negative or fractional limit or offset.
 */
export function pageOf(limit: number | undefined, offset: number | undefined, defaultLimit: number): Page {
  const l = limit ?? defaultLimit;
  const o = offset ?? 0;
  if (!Number.isInteger(l) || l < 0 || !Number.isInteger(o) || o < 0) {
    throw new RuntimeError(
      "INVALID_ARGUMENT",
      `limit and offset must be non-negative integers, got ${String(l)} and ${String(o)}`,
    );
  }
  return { limit: l, offset: o };
}

/**
 * Collects one page of filtered items, offered in result order, so a caller reads no further than it needs.
 */
export class PageCollector {
  readonly #matches: (value: Record<string, unknown>) => boolean;
  readonly #page: Page;
  #skipped = 0;
  /** The page so far. */
  readonly items: Item[] = [];

  /**
   * @param filter - the search filter (compiled here, so a malformed one fails before any row is read)
   * @param page - limit and offset
   * @throws RuntimeError `INVALID_ARGUMENT` for a malformed filter
   */
  constructor(filter: unknown, page: Page) {
    this.#matches = compileFilter(filter);
    this.#page = page;
  }

  /** True once the page is full (also for a zero limit): stop reading. */
  get full(): boolean {
    return this.items.length >= this.#page.limit;
  }

  /**
   * @param item - the next candidate
   * @returns whether the page is full
   */
  offer(item: Item): boolean {
    if (this.full) return true;
    if (!this.#matches(item.value)) return false;
    if (this.#skipped < this.#page.offset) this.#skipped += 1;
    else this.items.push(item);
    return this.full;
  }
}

/** A checked namespace listing: its conditions, depth and page. */
export interface NamespaceQuery {
  readonly op: ListNamespacesOperation;
  readonly page: Page;
  /** A prefix without wildcards, which narrows the scan (labels joined by the caller's separator). */
  readonly fixedPrefix: readonly string[] | undefined;
}

/**
 * @throws InvalidNamespaceError for a malformed condition path; RuntimeError `INVALID_ARGUMENT`
 *   for an unknown match type, a bad `maxDepth` or page.
 */
export function checkNamespaceQuery(op: ListNamespacesOperation): NamespaceQuery {
  const conditions = op.matchConditions ?? [];
  for (const c of conditions) {
    if (c.matchType !== "prefix" && c.matchType !== "suffix") {
      throw new RuntimeError("INVALID_ARGUMENT", `Unknown namespace match type ${JSON.stringify(c.matchType)}`);
    }
    encodeNamespace(
      c.path.map((label) => (label === "*" ? "x" : label)),
      true,
    );
  }
  const maxDepth = op.maxDepth;
  if (maxDepth !== undefined && (!Number.isInteger(maxDepth) || maxDepth < 1)) {
    throw new RuntimeError("INVALID_ARGUMENT", `maxDepth must be a positive integer, got ${String(maxDepth)}`);
  }
  const fixed = conditions.find((c) => c.matchType === "prefix" && c.path.length > 0 && !c.path.includes("*"));
  return { op, page: pageOf(op.limit, op.offset, 100), fixedPrefix: fixed?.path };
}

function compareNamespaces(a: readonly string[], b: readonly string[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i += 1) {
    const x = a[i] as string;
    const y = b[i] as string;
    if (x !== y) return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

/** The page of distinct namespaces (after `maxDepth` truncation) meeting every condition, in label order. */
export function namespacePage(namespaces: Iterable<readonly string[]>, query: NamespaceQuery): string[][] {
  const conditions = query.op.matchConditions ?? [];
  const maxDepth = query.op.maxDepth;
  const seen = new Set<string>();
  const out: string[][] = [];
  for (const labels of namespaces) {
    if (!conditions.every((c) => matchesCondition(labels, c))) continue;
    const truncated = maxDepth === undefined ? [...labels] : labels.slice(0, maxDepth);
    const id = JSON.stringify(truncated);
    if (seen.has(id)) continue;
    seen.add(id);
    out.push(truncated);
  }
  out.sort(compareNamespaces);
  return out.slice(query.page.offset, query.page.offset + query.page.limit);
}
