/** `runStoreConformance`: registers the run-store kit as one vitest suite. */
import { describe } from "vitest";
import { admissionTests } from "./run-store/admission.js";
import { group, single, type MakeRunStore, type RunStoreConformanceOptions } from "./run-store/context.js";
import { lifecycleTests } from "./run-store/lifecycle.js";
import { listTests } from "./run-store/lists.js";
import { raceTests } from "./run-store/races.js";
import { threadTests } from "./run-store/threads.js";

export type { MakeRunStore, MakeRunStoreInstances, RunStoreConformanceOptions, RunStoreHandle, RunStoreInstances } from "./run-store/context.js";

/**
 * Registers the run-store conformance suite: threads, admission under every
 * multitask strategy, start ordering, finishing, cancelling, listing,
 * retention, copy semantics and races of many concurrent callers. Every test
 * gets a fresh, empty store from `makeStore`; the kit closes it after the test
 * and then calls its `cleanup`. Call it at the top level of a test file;
 * vitest must be installed (an optional peer dependency of this package).
 *
 * The kit defines the behaviour of `MemoryRunStore` and `PostgresRunStore`, down
 * to validation (`INVALID_ARGUMENT` for malformed ids, JSON, limits) and
 * PostgreSQL `jsonb @>` semantics for metadata search.
 *
 * @param name - Names the suite (`runStoreConformance: <name>`).
 * @param makeStore - Creates an empty store.
 * @param options - `makeInstances` to also race callers across several instances of a shared store.
 *
 * @example
 * ```ts
 * import { runStoreConformance } from "@deerflow/runtime/testing";
 *
 * runStoreConformance("MyRunStore", async () => {
 *   const store = new MyRunStore({ url, namespace: crypto.randomUUID() });
 *   return { store, cleanup: () => dropNamespace(store) };
 * });
 * ```
 */
export function runStoreConformance(name: string, makeStore: MakeRunStore, options: RunStoreConformanceOptions = {}): void {
  const scale = options.timeoutScale ?? 1;
  if (!(scale > 0)) throw new TypeError(`runStoreConformance timeoutScale must be positive, got ${String(options.timeoutScale)}`);
  const make = single(makeStore);
  describe(`runStoreConformance: ${name}`, () => {
    group("threads", make, scale, threadTests);
    group("admission", make, scale, admissionTests);
    group("run life cycle", make, scale, lifecycleTests);
    group("listing", make, scale, listTests);
    group("races", make, scale, raceTests);
    const makeInstances = options.makeInstances;
    if (makeInstances) group("races across two instances", () => makeInstances(2), scale, raceTests);
  });
}
