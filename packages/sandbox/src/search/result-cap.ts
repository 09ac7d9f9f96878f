/**
 * How many results a search returns, and how it tells "exactly N" from "more
 * than N": searches collect one result past the cap before stopping.
 */

/** Results of a bounded search over a host tree. */
export interface CappedResult<T> {
  /** At most the cap, in the search's order. */
  readonly matches: T[];
  /** True when at least one more result existed. */
  readonly truncated: boolean;
}

/**
 * The effective result cap: `undefined`, non-finite or non-positive values get
 * the default (as DeerFlow's tools: `<= 0` means "default"), fractions are
 * floored, and nothing exceeds `max`.
 *
 * @param requested - What the caller asked for.
 * @param fallback - The default cap.
 * @param max - The hard cap.
 * @returns An integer in `[1, max]`.
 * @example
 * effectiveMaxResults(5000, 200, 1000); // 1000
 * effectiveMaxResults(0, 200, 1000);    // 200
 */
export function effectiveMaxResults(requested: number | undefined, fallback: number, max: number): number {
  if (requested === undefined || !Number.isFinite(requested) || requested < 1) return Math.min(fallback, max);
  return Math.min(Math.floor(requested), max);
}

/**
 * Collects results until one past `cap`.
 *
 * @param cap - The cap.
 * @returns `push` (returns `false` once the search should stop) and `result`.
 */
export function collector<T>(cap: number): { push(item: T): boolean; result(): CappedResult<T> } {
  const items: T[] = [];
  return {
    push(item) {
      items.push(item);
      return items.length <= cap;
    },
    result() {
      return items.length > cap
        ? { matches: items.slice(0, cap), truncated: true }
        : { matches: items, truncated: false };
    },
  };
}
