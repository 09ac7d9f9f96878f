/**
 * Fencing: a lease that disappears behind its owner's back (needs the
 * factory's `breakLease`) is reported once through `onLeaseLost`, and the
 * former owner never renews or re-creates it.
 */
import { recorder, type Kit } from "./context.js";

/** Registers the lease-loss checks. */
export function leaseLossTests(kit: Kit): void {
  const { expect } = kit;
  kit.test(
    "a lease broken and taken over by another instance is reported once to the former owner",
    async (s) => {
      const [a, b] = await s.coordinators(2);
      const runId = s.runId();
      const lostA = recorder<[string]>();
      const lostB = recorder<[string]>();
      a!.onLeaseLost(lostA.handler);
      b!.onLeaseLost(lostB.handler);
      expect(await a!.acquire(runId)).toBe(true);
      await s.breakLease(runId);
      expect(await b!.acquire(runId)).toBe(true);
      await s.eventually("A reported the lost lease", () => lostA.calls.length > 0);
      await s.leasePeriods(2);
      expect(lostA.calls).toEqual([[runId]]);
      expect(lostB.calls).toEqual([]);
      // A stopped renewing and did not take the run back.
      expect(await a!.ownerOf(runId)).toBe(b!.instanceId);
      await b!.release(runId);
      await s.leasePeriods(2);
      expect(await a!.ownerOf(runId)).toBeNull();
    },
    8,
  );

  kit.test(
    "a lease deleted without takeover is lost as well, and not re-created by the former owner",
    async (s) => {
      const [a, b] = await s.coordinators(2);
      const runId = s.runId();
      const other = s.runId("kept");
      const lost = recorder<[string]>();
      a!.onLeaseLost(lost.handler);
      expect(await a!.acquire(runId)).toBe(true);
      expect(await a!.acquire(other)).toBe(true);
      await s.breakLease(runId);
      await s.eventually("A reported the lost lease", () => lost.calls.length > 0);
      await s.leasePeriods(2);
      expect(lost.calls).toEqual([[runId]]);
      expect(await b!.ownerOf(runId)).toBeNull();
      // The other lease of the same instance is unaffected.
      expect(await b!.ownerOf(other)).toBe(a!.instanceId);
      expect(await b!.acquire(runId)).toBe(true);
    },
    6,
  );

  kit.test(
    "lease-lost handlers: an unsubscribed one is not called, a throwing one does not stop the others",
    async (s) => {
      const [a] = await s.coordinators(1);
      const runId = s.runId();
      const kept = recorder<[string]>();
      const removed = recorder<[string]>();
      a!.onLeaseLost(() => {
        throw new Error("handler failure (expected by the conformance kit)");
      });
      a!.onLeaseLost(kept.handler);
      const unsubscribe = a!.onLeaseLost(removed.handler);
      unsubscribe();
      unsubscribe();
      expect(await a!.acquire(runId)).toBe(true);
      await s.breakLease(runId);
      await s.eventually("the kept handler was called", () => kept.calls.length > 0);
      expect(kept.calls).toEqual([[runId]]);
      expect(removed.calls).toEqual([]);
    },
  );
}
