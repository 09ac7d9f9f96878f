/**
 * `nodeTestRunner`: adapts `node:test` to the kits' {@link ConformanceRunner}
 * (timeouts become `{ timeout }` options, `expect` is {@link assertExpect}).
 */
import { assertExpect } from "./assert-expect.js";
import type {
  ConformanceHook,
  ConformanceHookName,
  ConformanceRunner,
  ConformanceTestContext,
} from "./conformance-runner.js";

/** `{ timeout }` as `node:test` takes it. */
interface NodeTestOptions {
  timeout?: number;
}

type NodeHook = (fn: () => Promise<void>, options?: NodeTestOptions) => unknown;

/** The parts of the `node:test` module the adapter calls (pass the module itself). */
export interface NodeTestModule {
  describe(name: string, fn: () => void): unknown;
  it: {
    (name: string, options: NodeTestOptions, fn: (context: ConformanceTestContext) => Promise<void>): unknown;
    skip(name: string, fn: () => Promise<void>): unknown;
  };
  before: NodeHook;
  after: NodeHook;
  beforeEach: NodeHook;
  afterEach: NodeHook;
}

const options = (timeoutMs: number | undefined): NodeTestOptions =>
  timeoutMs === undefined ? {} : { timeout: timeoutMs };

/**
 * The kits' runner on `node:test`: every hook a kit may ask for, and
 * {@link assertExpect} as `expect`.
 *
 * @param nodeTest - the `node:test` module (`import * as nodeTest from "node:test"`).
 * @returns `{ describe, it, expect, beforeAll, afterAll, beforeEach, afterEach }`, to spread into a kit's options.
 *
 * @example
 * ```ts
 * import * as nodeTest from "node:test";
 * runStoreConformance({ name: "MyRunStore", makeStore, ...nodeTestRunner(nodeTest) });
 * ```
 */
export function nodeTestRunner(nodeTest: NodeTestModule): ConformanceRunner<ConformanceHookName> {
  const hook =
    (register: NodeHook): ConformanceHook =>
    (fn, timeoutMs) =>
      void register(fn, options(timeoutMs));
  const it = (name: string, body: (...context: ConformanceTestContext[]) => Promise<void>, timeoutMs?: number): void =>
    void nodeTest.it(name, options(timeoutMs), (context) => body(context));
  // Kits mark the cases a provider does not claim (e.g. an unenforced resource bound) with
  // `it.skip`, so they show as skipped under node:test too, not silently absent.
  it.skip = (name: string, body: () => Promise<void>): void => void nodeTest.it.skip(name, body);
  return {
    describe: (name, body) => void nodeTest.describe(name, body),
    it,
    expect: assertExpect,
    beforeAll: hook(nodeTest.before),
    afterAll: hook(nodeTest.after),
    beforeEach: hook(nodeTest.beforeEach),
    afterEach: hook(nodeTest.afterEach),
  };
}
