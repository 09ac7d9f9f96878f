/**
 * The scaffolding the run-, account- and assistant-store kits share: each test
 * gets fresh stores (one, or several instances over one backend for the race
 * tests) created in `beforeEach`, closed and cleaned up in `afterEach`.
 */
import type { ConformanceExpect, ConformanceRunner } from "@deerflow/kernel";

/** What a store under one of these kits offers the kit itself. */
export interface ClosableStore {
  close(): Promise<void>;
}

/** What a store factory returns. */
export interface StoreHandle<Store> {
  readonly store: Store;
  /** Called after the test, once the kit closed the store (drop schemas, delete files, stop servers). */
  readonly cleanup?: () => Promise<void>;
}

/** Several stores over one shared, empty backend, each with its own connections (like separate server instances). */
export interface StoreInstances<Store> {
  readonly stores: readonly Store[];
  /** Called after the test, once the kit closed every store. */
  readonly cleanup?: () => Promise<void>;
}

/** The test functions these kits take: vitest's or jest's, or `nodeTestRunner(nodeTest)`. */
export type StoreKitRunner = ConformanceRunner<"beforeEach" | "afterEach">;

/** Registers one test of a group; `stores` has one entry, or several for cross-instance runs. */
export type AddStoresTest<Store> = (
  name: string,
  body: (stores: readonly Store[]) => Promise<void>,
  timeoutMs?: number,
) => void;

/**
 * Registers a group of tests, each on fresh stores from `make`.
 *
 * @param runner - The injected test functions.
 * @param name - The group (a `describe`).
 * @param make - Creates the stores of one test.
 * @param timeoutScale - Multiplies hook and test timeouts.
 * @param register - Registers the tests.
 */
function storesGroup<Store extends ClosableStore>(
  runner: StoreKitRunner,
  name: string,
  make: () => Promise<StoreInstances<Store>>,
  timeoutScale: number,
  register: (test: AddStoresTest<Store>, expect: ConformanceExpect) => void,
): void {
  const { describe, it, beforeEach, afterEach } = runner;
  describe(name, () => {
    let current: StoreInstances<Store> | undefined;
    beforeEach(async () => {
      current = await make();
    }, 60_000 * timeoutScale);
    afterEach(async () => {
      const done = current;
      current = undefined;
      if (!done) return;
      for (const store of done.stores) await store.close();
      await done.cleanup?.();
    }, 60_000 * timeoutScale);
    const test: AddStoresTest<Store> = (testName, body, timeoutMs = 30_000) =>
      it(
        testName,
        async () => {
          if (!current) throw new Error(`the store of "${testName}" was not created (see the beforeEach error)`);
          await body(current.stores);
        },
        timeoutMs * timeoutScale,
      );
    register(test, runner.expect);
  });
}

/** Adapts a single-store factory to {@link storesGroup}. */
function singleStore<Store>(make: () => Promise<StoreHandle<Store>>): () => Promise<StoreInstances<Store>> {
  return async () => {
    const handle = await make();
    return handle.cleanup ? { stores: [handle.store], cleanup: handle.cleanup } : { stores: [handle.store] };
  };
}

/** The one argument of a store kit (`runStoreConformance`, `accountStoreConformance`...). */
export interface StoreKitOptions<Store> extends StoreKitRunner {
  /** Names the suite (`<kit>: <name>`). */
  readonly name: string;
  /** Creates an empty store; called once per test. */
  readonly makeStore: () => Promise<StoreHandle<Store>>;
  /**
   * When given, the race tests run a second time with their callers spread over
   * two instances from this factory (for stores shared by many processes).
   */
  readonly makeInstances?: (count: number) => Promise<StoreInstances<Store>>;
  /** Multiplies every test timeout (slow CI, remote databases). Default 1. */
  readonly timeoutScale?: number;
}

/** One group of a kit: its `describe` name and what registers its tests. */
export type StoreKitGroup<Store> = readonly [
  name: string,
  register: (test: AddStoresTest<Store>, expect: ConformanceExpect) => void,
];

/**
 * Registers a whole store kit as one suite `<kit>: <name>`: every group on a
 * fresh store per test, then `raceTests` again across two instances when the
 * options have `makeInstances`.
 *
 * @param kit - The kit's function name (suite name and error messages).
 * @throws TypeError when `timeoutScale` is not positive.
 */
export function registerStoreKit<Store extends ClosableStore>(
  kit: string,
  options: StoreKitOptions<Store>,
  groups: readonly StoreKitGroup<Store>[],
  raceTests: StoreKitGroup<Store>[1],
): void {
  const scale = options.timeoutScale ?? 1;
  if (!(scale > 0)) throw new TypeError(`${kit} timeoutScale must be positive, got ${String(options.timeoutScale)}`);
  const make = singleStore(options.makeStore);
  options.describe(`${kit}: ${options.name}`, () => {
    for (const [name, register] of groups) storesGroup(options, name, make, scale, register);
    const makeInstances = options.makeInstances;
    if (makeInstances) storesGroup(options, "races across two instances", () => makeInstances(2), scale, raceTests);
  });
}
