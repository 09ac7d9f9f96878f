/** Leases: exclusive while renewed, re-acquirable by the owner, handed over by release, expiring when the owner dies. */
import type { Kit } from "./context.js";

/** Registers the lease checks. */
export function leaseTests(kit: Kit): void {
  const { expect } = kit;
  kit.test("acquire is exclusive, and renewal keeps the lease over several lease periods", async (s) => {
    const [a, b] = await s.coordinators(2);
    const runId = s.runId();
    expect(await a!.acquire(runId)).toBe(true);
    expect(await b!.acquire(runId)).toBe(false);
    await s.leasePeriods(3);
    expect(await b!.acquire(runId)).toBe(false);
    expect(await b!.ownerOf(runId)).toBe(a!.instanceId);
    expect(await a!.ownerOf(runId)).toBe(a!.instanceId);
  });

  kit.test("instances have distinct ids and ownerOf is null for a run nobody acquired", async (s) => {
    const [a, b, c] = await s.coordinators(3);
    expect(new Set([a!.instanceId, b!.instanceId, c!.instanceId]).size).toBe(3);
    expect(typeof a!.supportsCrossProcess).toBe("boolean");
    expect(await a!.ownerOf(s.runId("never-acquired"))).toBeNull();
  });

  kit.test("the owner acquiring its run again gets true and keeps it", async (s) => {
    const [a, b] = await s.coordinators(2);
    const runId = s.runId();
    expect(await a!.acquire(runId)).toBe(true);
    expect(await a!.acquire(runId)).toBe(true);
    expect(await b!.acquire(runId)).toBe(false);
    await s.leasePeriods(2);
    expect(await b!.ownerOf(runId)).toBe(a!.instanceId);
  });

  kit.test("release hands the run over, and only the owner's release drops a lease", async (s) => {
    const [a, b] = await s.coordinators(2);
    const runId = s.runId();
    expect(await a!.acquire(runId)).toBe(true);
    await a!.release(runId);
    expect(await b!.ownerOf(runId)).toBeNull();
    expect(await b!.acquire(runId)).toBe(true);
    expect(await a!.ownerOf(runId)).toBe(b!.instanceId);
    // A no longer holds it: its release (and one of a run it never had) must not touch B's lease.
    await a!.release(runId);
    await a!.release(s.runId("never-acquired"));
    expect(await a!.ownerOf(runId)).toBe(b!.instanceId);
    expect(await a!.acquire(runId)).toBe(false);
  });

  kit.test("leases of different runs are independent", async (s) => {
    const [a, b] = await s.coordinators(2);
    const one = s.runId("one");
    const two = s.runId("two");
    expect(await a!.acquire(one)).toBe(true);
    expect(await b!.acquire(two)).toBe(true);
    expect(await a!.ownerOf(two)).toBe(b!.instanceId);
    expect(await b!.ownerOf(one)).toBe(a!.instanceId);
    await a!.release(one);
    expect(await b!.ownerOf(two)).toBe(b!.instanceId);
  });

  kit.test("of concurrent acquisitions of one run by different instances exactly one wins", async (s) => {
    const coordinators = await s.coordinators(4);
    for (let round = 0; round < 5; round++) {
      const runId = s.runId(`race${round}`);
      const results = await Promise.all(coordinators.map((c) => c.acquire(runId)));
      expect(results.filter(Boolean)).toHaveLength(1);
      const winner = coordinators[results.indexOf(true)]!;
      expect(await coordinators[0]!.ownerOf(runId)).toBe(winner.instanceId);
    }
  });

  kit.test(
    "leaseOf (when implemented) names the owner and the time left, and is null without a live lease",
    async (s) => {
      const [a, b] = await s.coordinators(2);
      if (a!.leaseOf === undefined || b!.leaseOf === undefined) return s.skip("the coordinator has no leaseOf");
      const runId = s.runId();
      expect(await b!.leaseOf(runId)).toBeNull();
      expect(await a!.acquire(runId)).toBe(true);
      const lease = await b!.leaseOf(runId);
      expect(lease?.ownerId).toBe(a!.instanceId);
      expect(lease?.expiresInMs).toBeGreaterThan(0);
      expect(lease?.expiresInMs).toBeLessThanOrEqual(s.leaseMs);
      await a!.close({ abandon: true });
      // Not renewed any more: it expires within the time it reported.
      await s.eventually(
        "the abandoned lease expired",
        async () => (await b!.leaseOf!(runId)) === null,
        (lease?.expiresInMs ?? 0) + 2_000,
      );
      expect(await b!.ownerOf(runId)).toBeNull();
    },
    3,
  );

  kit.test(
    "the lease of an abandoned (crashed) instance expires, then another instance can take the run",
    async (s) => {
      const [a, b] = await s.coordinators(2);
      const runId = s.runId();
      expect(await a!.acquire(runId)).toBe(true);
      await a!.close({ abandon: true });
      // Abandon leaves the lease in place: only its expiry frees the run.
      expect(await b!.ownerOf(runId)).toBe(a!.instanceId);
      await s.eventually("the abandoned lease expired", async () => (await b!.ownerOf(runId)) === null);
      expect(await b!.acquire(runId)).toBe(true);
      expect(await b!.ownerOf(runId)).toBe(b!.instanceId);
    },
    6,
  );
}
