/**
 * The kits take their test functions instead of importing vitest: the
 * runtime kits run under `node:test` (through `nodeTestRunner`) in a child
 * process with no vitest loaded, every registered test is reported, optional
 * checks skip themselves through node's test context, and a broken store fails.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { MemoryAccountStore } from "../../src/accounts/memory-account-store.js";
import { LocalCoordinationHub, LocalRunCoordinator } from "../../src/coordination/local-run-coordinator.js";
import { MemoryRunStore } from "../../src/runs/memory-run-store.js";
import { MemoryStreamBridge } from "../../src/stream/memory-stream-bridge.js";
import { InMemoryStore } from "@langchain/langgraph-checkpoint";
import {
  accountStoreConformance,
  assertExpect,
  baseStoreConformance,
  runCoordinatorConformance,
  runStoreConformance,
  streamBridgeConformance,
  type ConformanceRunner,
} from "../../src/testing/index.js";

const pkgDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** `node --test` on one support file, TAP out; returns the exit code, the TAP text and its summary counts. */
function runNodeTest(file: string): { code: number | null; tap: string; counts: Record<string, number> } {
  const r = spawnSync(
    process.execPath,
    ["--import", "tsx", "--test", "--test-reporter=tap", `test/support/testing/${file}`],
    { cwd: pkgDir, encoding: "utf8", timeout: 110_000 },
  );
  const counts = Object.fromEntries(
    [...r.stdout.matchAll(/^# (\w+) (\d+)$/gm)].map((m) => [m[1] as string, Number(m[2])]),
  );
  return { code: r.status, tap: r.stdout + r.stderr, counts };
}

/** How many tests a kit registers: a runner that only counts. */
function countTests(register: (runner: ConformanceRunner<"beforeEach" | "afterEach">) => void): number {
  let count = 0;
  const it = Object.assign(() => void count++, { skip: () => void count++ });
  register({ describe: (_name, body) => body(), it, expect: assertExpect, beforeEach: () => {}, afterEach: () => {} });
  return count;
}

describe("the runtime kits under node:test", () => {
  it("run every test they register; optional checks without a hook are skipped, nothing fails", () => {
    const expected =
      countTests((runner) =>
        runStoreConformance({ name: "s", makeStore: async () => ({ store: new MemoryRunStore() }), ...runner }),
      ) +
      countTests((runner) =>
        streamBridgeConformance({
          name: "b",
          makeBridge: async () => ({ bridge: new MemoryStreamBridge() }),
          ...runner,
        }),
      ) +
      countTests((runner) =>
        runCoordinatorConformance({
          name: "c",
          makeCoordinators: async () => ({
            coordinators: [new LocalRunCoordinator({ hub: new LocalCoordinationHub() })],
          }),
          ...runner,
        }),
      ) +
      countTests((runner) =>
        baseStoreConformance({ name: "m", makeStore: async () => ({ store: new InMemoryStore() }), ...runner }),
      ) +
      countTests((runner) =>
        accountStoreConformance({ name: "a", makeStore: async () => ({ store: new MemoryAccountStore() }), ...runner }),
      );
    const { code, tap, counts } = runNodeTest("kits.node-test.ts");
    expect(code, tap.slice(-3000)).toBe(0);
    expect(counts["tests"]).toBe(expected);
    expect(counts["fail"]).toBe(0);
    const skipped = tap.split("\n").filter((line) => line.includes("# SKIP"));
    expect(skipped.length).toBeGreaterThan(0);
    expect(counts["skipped"]).toBe(skipped.length);
    for (const line of skipped) expect(line).toMatch(/lease.*# SKIP the factory provides no breakLease hook$/);
    expect(counts["pass"]).toBe(expected - skipped.length);
  }, 120_000);

  it("fail through the injected assertions when the implementation is wrong", () => {
    const { code, counts } = runNodeTest("broken-store.node-test.ts");
    expect(code).not.toBe(0);
    expect(counts["fail"]).toBeGreaterThan(0);
  }, 120_000);
});
