/** `baseStoreConformance`: registers the long-term store kit as one suite of the injected test functions. */
import { storeGroup, type BaseStoreConformanceOptions } from "./base-store/context.js";
import { hostileTests } from "./base-store/hostile.js";
import { itemTests } from "./base-store/items.js";
import { namespaceTests } from "./base-store/namespaces.js";
import { searchTests } from "./base-store/search.js";

export type {
  BaseStoreConformanceOptions,
  BaseStoreHandle,
  BaseStoreRunner,
  MakeBaseStore,
} from "./base-store/context.js";

/**
 * Registers the conformance suite of a LangGraph long-term store (`BaseStore`): items (put, get,
 * overwrite, delete, batch order, opaque keys, large values), search (prefixes on whole labels,
 * the empty prefix, equality and comparison filters, pagination), `listNamespaces` (prefix, suffix,
 * `*`, `maxDepth`, pagination) and hostile input (malformed labels, all-or-nothing batches, unknown
 * filter operators, LIKE metacharacters, concurrent writers). Each test uses a fresh root label, so a
 * store shared between tests (one database) is fine. `InMemoryStore`, `SqliteStore` and
 * `PostgresGraphStore` pass it.
 *
 * @param options - `name`, `makeStore`, the test functions (`describe`, `it`, `expect`, `beforeEach`,
 *   `afterEach`), `timeoutScale`.
 * @throws TypeError when `timeoutScale` is not positive.
 * @example
 * ```ts
 * import { afterEach, beforeEach, describe, expect, it } from "vitest";
 * import { baseStoreConformance } from "@deerflow/runtime/testing";
 *
 * baseStoreConformance({
 *   name: "MyStore",
 *   makeStore: async () => {
 *     const store = new MyStore(url);
 *     return { store, cleanup: () => store.stop() };
 *   },
 *   describe, it, expect, beforeEach, afterEach,
 * });
 * ```
 */
export function baseStoreConformance(options: BaseStoreConformanceOptions): void {
  const scale = options.timeoutScale ?? 1;
  if (!(scale > 0)) {
    throw new TypeError(`baseStoreConformance timeoutScale must be positive, got ${String(options.timeoutScale)}`);
  }
  options.describe(`baseStoreConformance: ${options.name}`, () => {
    storeGroup(options, "items", itemTests);
    storeGroup(options, "search", searchTests);
    storeGroup(options, "namespaces", namespaceTests);
    storeGroup(options, "hostile input and concurrency", hostileTests);
  });
}
