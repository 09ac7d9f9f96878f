/** `runCoordinatorConformance`: registers the run-coordinator kit as one vitest suite. */
import { describe } from "vitest";
import { cancelTests } from "./run-coordinator/cancel.js";
import { createKit, resolveOptions, type MakeRunCoordinators, type RunCoordinatorConformanceOptions } from "./run-coordinator/context.js";
import { leaseLossTests } from "./run-coordinator/lease-loss.js";
import { leaseTests } from "./run-coordinator/leases.js";
import { lifecycleTests } from "./run-coordinator/lifecycle.js";
import { recoveryTests } from "./run-coordinator/recovery.js";

export type { MakeRunCoordinators, RunCoordinatorConformanceOptions, RunCoordinatorGroup } from "./run-coordinator/context.js";

/**
 * Registers the conformance suite of a `RunCoordinator` implementation:
 * leases (exclusive while renewed, re-acquire, release, expiry after a crash;
 * `leaseOf` when implemented, skipped without it),
 * lease loss (with the factory's `breakLease`; skipped without it), cancel
 * delivery (exactly once to the live owner, first action wins, `no_owner`),
 * recovery claims (one winner) and close. Each test asks `makeCoordinators`
 * for a fresh group of coordinators acting as the instances of one deployment
 * and closes them afterwards. Call it at the top level of a test file; vitest
 * must be installed (an optional peer dependency of this package).
 *
 * The checks wait several lease periods; they poll and never assert on
 * elapsed time, but a coordinator must renew within its lease and deliver
 * cancel requests within a few lease periods.
 *
 * @param name - Names the suite (`runCoordinatorConformance: <name>`).
 * @param makeCoordinators - Creates `count` coordinators with the given `leaseMs`.
 * @param options - Lease duration for the checks and timeout scaling.
 * @throws TypeError when the options are invalid.
 *
 * @example
 * ```ts
 * import { runCoordinatorConformance } from "@deerflow/runtime/testing";
 *
 * runCoordinatorConformance("my coordinator", async (count, { leaseMs }) => {
 *   const coordinators = Array.from({ length: count }, () => new MyCoordinator({ url, leaseMs }));
 *   return { coordinators, breakLease: (runId) => deleteLeaseBehindTheOwnersBack(runId) };
 * });
 * ```
 */
export function runCoordinatorConformance(name: string, makeCoordinators: MakeRunCoordinators, options?: RunCoordinatorConformanceOptions): void {
  const kit = createKit(makeCoordinators, resolveOptions(options));
  describe(`runCoordinatorConformance: ${name}`, () => {
    describe("leases", () => leaseTests(kit));
    describe("lease loss", () => leaseLossTests(kit));
    describe("cancel delivery", () => cancelTests(kit));
    describe("recovery claims", () => recoveryTests(kit));
    describe("close", () => lifecycleTests(kit));
  });
}
