/**
 * The store kit's context: a fresh store per test (created in `beforeEach`,
 * released in `afterEach`), a unique root label per test so stores shared
 * between tests (one PostgreSQL schema) never see each other's items, and the
 * registration helper.
 */
import { randomUUID } from "node:crypto";
import type { ConformanceExpect, ConformanceRunner } from "@deerflow/kernel";
import type { BaseStore } from "@langchain/langgraph-checkpoint";

/** What a store factory returns. */
export interface BaseStoreHandle {
  readonly store: BaseStore;
  /** Called after each test: close the store, drop tables, delete files. */
  readonly cleanup?: () => Promise<void>;
}

/** Creates a store; called once per test. The store may hold other tests' items (under other roots). */
export type MakeBaseStore = () => Promise<BaseStoreHandle>;

/** The test functions the store kit takes: vitest's or jest's, or `nodeTestRunner(nodeTest)`. */
export type BaseStoreRunner = ConformanceRunner<"beforeEach" | "afterEach">;

/** The one argument of `baseStoreConformance`. */
export interface BaseStoreConformanceOptions extends BaseStoreRunner {
  /** Names the suite (`baseStoreConformance: <name>`). */
  readonly name: string;
  readonly makeStore: MakeBaseStore;
  /** Multiplies every test timeout (slow CI, remote databases). Default 1. */
  readonly timeoutScale?: number;
}

/** What each test gets: the store and a root label of its own. */
interface StoreTestContext {
  readonly store: BaseStore;
  /** A root label no other test uses: every namespace of a test starts with it. */
  readonly root: string;
}

/** Registers one test of a group. */
export type AddStoreTest = (name: string, body: (ctx: StoreTestContext) => Promise<void>, timeoutMs?: number) => void;

/**
 * Registers a group of tests, each on a fresh store.
 *
 * @param options - the kit's options
 * @param name - the group (a `describe`)
 * @param register - registers the tests
 */
export function storeGroup(
  options: BaseStoreConformanceOptions,
  name: string,
  register: (test: AddStoreTest, expect: ConformanceExpect) => void,
): void {
  const { describe, it, beforeEach, afterEach } = options;
  const scale = options.timeoutScale ?? 1;
  describe(name, () => {
    let current: BaseStoreHandle | undefined;
    beforeEach(async () => {
      current = await options.makeStore();
    }, 60_000 * scale);
    afterEach(async () => {
      const done = current;
      current = undefined;
      await done?.cleanup?.();
    }, 60_000 * scale);
    const test: AddStoreTest = (testName, body, timeoutMs = 30_000) =>
      it(
        testName,
        async () => {
          if (!current) throw new Error(`the store of "${testName}" was not created (see the beforeEach error)`);
          await body({ store: current.store, root: `t${randomUUID().replaceAll("-", "")}` });
        },
        timeoutMs * scale,
      );
    register(test, options.expect);
  });
}

/** The keys of items, sorted (for order-insensitive comparisons). */
export function keysOf(items: ReadonlyArray<{ key: string }>): string[] {
  return items.map((i) => i.key).sort();
}
