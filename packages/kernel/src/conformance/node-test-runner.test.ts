import type * as NodeTest from "node:test";
import { describe, expect, it } from "vitest";
import { assertExpect } from "./assert-expect.js";
import type { ConformanceTestContext } from "./conformance-runner.js";
import { nodeTestRunner, type NodeTestModule } from "./node-test-runner.js";

// Compile-time check that the real module fits the structural type the adapter takes.
const nodeTestFits: typeof NodeTest extends NodeTestModule ? true : never = true;

/** A stand-in for `node:test` that records what the adapter registers. */
function recordingNodeTest() {
  const calls: {
    fn: string;
    name?: string;
    options?: unknown;
    body?: (context: ConformanceTestContext) => Promise<void>;
  }[] = [];
  const hook = (fn: string) => (body: () => Promise<void>, options?: unknown) => void calls.push({ fn, options, body });
  const it = Object.assign(
    (name: string, options: unknown, body: (context: ConformanceTestContext) => Promise<void>) =>
      void calls.push({ fn: "it", name, options, body }),
    {
      skip: (name: string) => void calls.push({ fn: "it.skip", name }),
    },
  );
  const module: NodeTestModule = {
    describe: (name, body) => (calls.push({ fn: "describe", name }), body()),
    it,
    before: hook("before"),
    after: hook("after"),
    beforeEach: hook("beforeEach"),
    afterEach: hook("afterEach"),
  };
  return { module, calls };
}

describe("nodeTestRunner", () => {
  it("passes timeouts as { timeout } options and hands the test context to the body", async () => {
    const { module, calls } = recordingNodeTest();
    const runner = nodeTestRunner(module);
    let seen: ConformanceTestContext | undefined;
    const context = { skip: () => {} };
    runner.describe("suite", () => {
      runner.beforeEach(async () => {}, 500);
      runner.afterAll(async () => {});
      runner.it("a test", async (...args) => void (seen = args[0]), 1_000);
      // Not a skipped test of ours: a recording fake of node:test receives it, and the assertion
      // below checks that the runner forwards `it.skip` to node:test's own `it.skip`.
      runner.it.skip("skipped", async () => {});
    });
    expect(calls.map((c) => [c.fn, c.name, c.options])).toEqual([
      ["describe", "suite", undefined],
      ["beforeEach", undefined, { timeout: 500 }],
      ["after", undefined, {}],
      ["it", "a test", { timeout: 1_000 }],
      ["it.skip", "skipped", undefined],
    ]);
    await calls[3]?.body?.(context);
    expect(seen).toBe(context);
  });

  it("uses assertExpect", () => {
    expect(nodeTestFits).toBe(true);
    expect(nodeTestRunner(recordingNodeTest().module).expect).toBe(assertExpect);
  });
});
