/** `runStoreConformance`: registers the run-store kit as one suite of the injected test functions. */
import { admissionTests } from "./run-store/admission.js";
import { type RunStoreConformanceOptions } from "./run-store/context.js";
import { registerStoreKit } from "./store-instances.js";
import { lifecycleTests } from "./run-store/lifecycle.js";
import { listTests } from "./run-store/lists.js";
import { raceTests } from "./run-store/races.js";
import { threadTests } from "./run-store/threads.js";

export type {
  MakeRunStore,
  MakeRunStoreInstances,
  RunStoreConformanceOptions,
  RunStoreHandle,
  RunStoreInstances,
  RunStoreRunner,
} from "./run-store/context.js";

/**
 * Registers the run-store conformance suite: threads, admission under every
 * multitask strategy, start ordering, finishing, cancelling, listing,
 * retention, copy semantics and races of many concurrent callers. Every test
 * gets a fresh, empty store from `makeStore`; the kit closes it after the test
 * and then calls its `cleanup`. Call it at the top level of a test file with
 * your runner's `describe`, `it`, `expect`, `beforeEach` and `afterEach`
 * (vitest's or jest's as they are; `nodeTestRunner(nodeTest)` for `node:test`).
 *
 * The kit defines the behaviour of `MemoryRunStore` and `PostgresRunStore`, down
 * to validation (`INVALID_ARGUMENT` for malformed ids, JSON, limits) and
 * PostgreSQL `jsonb @>` semantics for metadata search.
 *
 * @param options - `name`, `makeStore`, the test functions; `makeInstances` to
 *   also race callers across several instances of a shared store; `timeoutScale`.
 * @throws TypeError when `timeoutScale` is not positive.
 *
 * @example
 * ```ts
 * import { afterEach, beforeEach, describe, expect, it } from "vitest";
 * import { runStoreConformance } from "@deerflow/runtime/testing";
 *
 * runStoreConformance({
 *   name: "MyRunStore",
 *   makeStore: async () => {
 *     const store = new MyRunStore({ url, namespace: crypto.randomUUID() });
 *     return { store, cleanup: () => dropNamespace(store) };
 *   },
 *   describe, it, expect, beforeEach, afterEach,
 * });
 * ```
 */
export function runStoreConformance(options: RunStoreConformanceOptions): void {
  const groups = [
    ["threads", threadTests],
    ["admission", admissionTests],
    ["run life cycle", lifecycleTests],
    ["listing", listTests],
    ["races", raceTests],
  ] as const;
  registerStoreKit("runStoreConformance", options, groups, raceTests);
}
