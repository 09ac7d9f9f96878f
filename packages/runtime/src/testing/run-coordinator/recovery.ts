/** Recovery claims: one winner per run across instances, free again after the claim's ttl. */
import type { Kit } from "./context.js";

/** Registers the recovery-claim checks. */
export function recoveryTests(kit: Kit): void {
  const { expect } = kit;
  kit.test("of 10 concurrent recovery claims across instances exactly one wins", async (s) => {
    const coordinators = await s.coordinators(3);
    const runId = s.runId();
    const claims = await Promise.all(
      Array.from({ length: 10 }, (_, i) => coordinators[i % coordinators.length]!.claimRecovery(runId, 60_000)),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
    // Claims are per run.
    expect(await coordinators[1]!.claimRecovery(s.runId("other"), 60_000)).toBe(true);
    expect(await coordinators[2]!.claimRecovery(runId, 60_000)).toBe(false);
  });

  kit.test("a run can be claimed again once the claim's ttl has passed, again by exactly one caller", async (s) => {
    const coordinators = await s.coordinators(2);
    const runId = s.runId();
    const ttlMs = s.leaseMs;
    expect(await coordinators[0]!.claimRecovery(runId, ttlMs)).toBe(true);
    expect(await coordinators[1]!.claimRecovery(runId, ttlMs)).toBe(false);
    await s.leasePeriods(2);
    const claims = await Promise.all(
      Array.from({ length: 10 }, (_, i) => coordinators[i % coordinators.length]!.claimRecovery(runId, ttlMs)),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
  });
}
