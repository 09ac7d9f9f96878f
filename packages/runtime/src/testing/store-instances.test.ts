import type { ConformanceHook, ConformanceIt } from "@deerflow/kernel";
import { describe, expect, it } from "vitest";
import { registerStoreKit, type StoreKitOptions } from "./store-instances.js";

/** A store that records its closing. */
class FakeStore {
  closed = false;
  constructor(readonly id: string) {}
  async close(): Promise<void> {
    this.closed = true;
  }
}

/** A runner that records suites, hooks and tests so they can be run by hand. */
function recordingRunner() {
  const names: string[] = [];
  const path: string[] = [];
  const tests: { name: string; body: () => Promise<void> }[] = [];
  const before: (() => Promise<void>)[] = [];
  const after: (() => Promise<void>)[] = [];
  const it = Object.assign(
    (name: string, body: () => Promise<void>) => void tests.push({ name: [...path, name].join(" > "), body }),
    { skip: () => {} },
  ) as ConformanceIt;
  const beforeEach: ConformanceHook = (fn) => void before.push(fn);
  const afterEach: ConformanceHook = (fn) => void after.push(fn);
  const runner = {
    describe: (name: string, body: () => void) => {
      names.push(name);
      path.push(name);
      body();
      path.pop();
    },
    it,
    expect: expect as never,
    beforeEach,
    afterEach,
  };
  return { runner, names, tests, before, after };
}

describe("registerStoreKit", () => {
  it("registers each group on a fresh store, closes it and cleans up, and reruns the races over two instances", async () => {
    const { runner, names, tests, before, after } = recordingRunner();
    const made: FakeStore[] = [];
    const cleaned: string[] = [];
    let n = 0;
    const options: StoreKitOptions<FakeStore> = {
      ...runner,
      name: "Fake",
      makeStore: async () => {
        const store = new FakeStore(`s${++n}`);
        made.push(store);
        return { store, cleanup: async () => void cleaned.push(store.id) };
      },
      makeInstances: async (count) => {
        const stores = Array.from({ length: count }, (_, i) => new FakeStore(`i${++n}-${i}`));
        made.push(...stores);
        return { stores, cleanup: async () => void cleaned.push("instances") };
      },
    };
    const seen: number[] = [];
    const races = (test: (name: string, body: (stores: readonly FakeStore[]) => Promise<void>) => void) =>
      test("race", async (stores) => void seen.push(stores.length));
    registerStoreKit(
      "fakeConformance",
      options,
      [["basics", (test) => test("one", async (s) => void seen.push(s.length))]],
      races,
    );

    expect(names).toEqual(["fakeConformance: Fake", "basics", "races across two instances"]);
    expect(tests.map((t) => t.name)).toEqual([
      "fakeConformance: Fake > basics > one",
      "fakeConformance: Fake > races across two instances > race",
    ]);
    for (const [i, test] of tests.entries()) {
      await before[i]!();
      await test.body();
      await after[i]!();
    }
    expect(seen).toEqual([1, 2]);
    expect(made.every((s) => s.closed)).toBe(true);
    expect(cleaned).toEqual(["s1", "instances"]);
  });

  it("refuses a timeoutScale that is not positive", () => {
    const { runner } = recordingRunner();
    const options: StoreKitOptions<FakeStore> = {
      ...runner,
      name: "Fake",
      makeStore: async () => ({ store: new FakeStore("x") }),
      timeoutScale: 0,
    };
    expect(() => registerStoreKit("fakeConformance", options, [], () => {})).toThrow(
      "fakeConformance timeoutScale must be positive, got 0",
    );
  });
});
