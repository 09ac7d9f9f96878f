/** `runCoordinatorConformance`: registers the run-coordinator kit as one suite of the injected test functions. */
import { cancelTests } from "./run-coordinator/cancel.js";
import { createKit, resolveOptions, type RunCoordinatorConformanceOptions } from "./run-coordinator/context.js";
import { leaseLossTests } from "./run-coordinator/lease-loss.js";
import { leaseTests } from "./run-coordinator/leases.js";
import { lifecycleTests } from "./run-coordinator/lifecycle.js";
import { recoveryTests } from "./run-coordinator/recovery.js";

export type {
  MakeRunCoordinators,
  RunCoordinatorConformanceOptions,
  RunCoordinatorGroup,
  RunCoordinatorRunner,
} from "./run-coordinator/context.js";

/**
 * Registers the conformance suite of a `RunCoordinator` implementation:
 * leases (exclusive while renewed, re-acquire, release, expiry after a crash;
 * `leaseOf` when implemented, skipped without it),
 * lease loss (with the factory's `breakLease`; skipped without it), cancel
 * delivery (exactly once to the live owner, first action wins, `no_owner`),
 * recovery claims (one winner) and close. Each test asks `makeCoordinators`
 * for a fresh group of coordinators acting as the instances of one deployment
 * and closes them afterwards. Call it at the top level of a test file with
 * your runner's `describe`, `it` and `expect` (vitest's or jest's as they are;
 * `nodeTestRunner(nodeTest)` for `node:test`). Optional checks skip themselves
 * through the test context's `skip` (vitest, `node:test`); under jest, which
 * has none, they pass without checking.
 *
 * The checks wait several lease periods; they poll and never assert on
 * elapsed time, but a coordinator must renew within its lease and deliver
 * cancel requests within a few lease periods.
 *
 * @param options - `name`, `makeCoordinators` (creates `count` coordinators
 *   with the given `leaseMs`), the test functions, the lease duration for the
 *   checks and timeout scaling.
 * @throws TypeError when the options are invalid.
 *
 * @example
 * ```ts
 * import { describe, expect, it } from "vitest";
 * import { runCoordinatorConformance } from "@deerflow/runtime/testing";
 *
 * runCoordinatorConformance({
 *   name: "my coordinator",
 *   makeCoordinators: async (count, { leaseMs }) => {
 *     const coordinators = Array.from({ length: count }, () => new MyCoordinator({ url, leaseMs }));
 *     return { coordinators, breakLease: (runId) => deleteLeaseBehindTheOwnersBack(runId) };
 *   },
 *   describe, it, expect,
 * });
 * ```
 */
export function runCoordinatorConformance(options: RunCoordinatorConformanceOptions): void {
  const kit = createKit(options, options.makeCoordinators, resolveOptions(options));
  const { describe } = options;
  describe(`runCoordinatorConformance: ${options.name}`, () => {
    describe("leases", () => leaseTests(kit));
    describe("lease loss", () => leaseLossTests(kit));
    describe("cancel delivery", () => cancelTests(kit));
    describe("recovery claims", () => recoveryTests(kit));
    describe("close", () => lifecycleTests(kit));
  });
}
