/** `assistantStoreConformance`: registers the assistant-store kit as one suite of the injected test functions. */
import type { AssistantStoreConformanceOptions } from "./assistant-store/context.js";
import { registerStoreKit } from "./store-instances.js";
import { hostileTests, raceTests } from "./assistant-store/hostile.js";
import { lifecycleTests } from "./assistant-store/lifecycle.js";
import { searchTests } from "./assistant-store/search.js";

export type {
  AssistantStoreConformanceOptions,
  AssistantStoreHandle,
  AssistantStoreInstances,
  AssistantStoreRunner,
  MakeAssistantStore,
  MakeAssistantStoreInstances,
} from "./assistant-store/context.js";

/**
 * Registers the conformance suite of an `AssistantStore`: creation (`ifExists`),
 * versions (update merges metadata and replaces config/context, `listVersions`
 * newest first, `setLatest`), deletion, search and count (graph id, literal
 * case-insensitive name substring, `jsonb @>` metadata containment, every sort
 * field, pagination with totals), owner isolation, hostile input and concurrent
 * writers. Every test gets a fresh, empty store from `makeStore`; the kit closes
 * it after the test and then calls its `cleanup`. `MemoryAssistantStore`,
 * `SqliteAssistantStore` and `PostgresAssistantStore` pass it.
 *
 * @param options - `name`, `makeStore`, the test functions; `makeInstances` to
 *   also race writers across two instances of a shared store; `timeoutScale`.
 * @throws TypeError when `timeoutScale` is not positive.
 *
 * @example
 * ```ts
 * import { afterEach, beforeEach, describe, expect, it } from "vitest";
 * import { assistantStoreConformance } from "@deerflow/runtime/testing";
 * import { MemoryAssistantStore } from "@deerflow/runtime";
 *
 * assistantStoreConformance({
 *   name: "MemoryAssistantStore",
 *   makeStore: async () => ({ store: new MemoryAssistantStore() }),
 *   describe, it, expect, beforeEach, afterEach,
 * });
 * ```
 */
export function assistantStoreConformance(options: AssistantStoreConformanceOptions): void {
  const groups = [
    ["life cycle and versions", lifecycleTests],
    ["search, count and owners", searchTests],
    ["hostile input", hostileTests],
    ["races", raceTests],
  ] as const;
  registerStoreKit("assistantStoreConformance", options, groups, raceTests);
}
