/** Closing: a clean close hands leases back and stops delivery; an abandoned instance never hears anything again. */
import type { CancelAction } from "../../runs/types.js";
import { recorder, type Kit } from "./context.js";

/** Registers the close checks. */
export function lifecycleTests(kit: Kit): void {
  const { expect } = kit;
  kit.test("close releases the instance's leases at once and stops delivery to it", async (s) => {
    const [a, b] = await s.coordinators(2);
    const runId = s.runId();
    const onCancel = recorder<[string, CancelAction]>();
    const onLost = recorder<[string]>();
    a!.onCancelRequest(onCancel.handler);
    a!.onLeaseLost(onLost.handler);
    expect(await a!.acquire(runId)).toBe(true);
    await a!.close();
    expect(await b!.ownerOf(runId)).toBeNull();
    expect(await b!.requestCancel(runId, "interrupt")).toBe("no_owner");
    expect(await b!.acquire(runId)).toBe(true);
    expect(await b!.requestCancel(runId, "interrupt")).toBe("delivered");
    await s.leasePeriods(2);
    expect(onCancel.calls).toEqual([]);
    expect(onLost.calls).toEqual([]);
  });

  kit.test(
    "an abandoned instance's handlers are never called, even when its lease expires",
    async (s) => {
      const [a, b] = await s.coordinators(2);
      const runId = s.runId();
      const onCancel = recorder<[string, CancelAction]>();
      const onLost = recorder<[string]>();
      a!.onCancelRequest(onCancel.handler);
      a!.onLeaseLost(onLost.handler);
      expect(await a!.acquire(runId)).toBe(true);
      await a!.close({ abandon: true });
      // The lease may still be live: the request is accepted but nobody is left to act on it.
      await b!.requestCancel(runId, "rollback");
      await s.eventually("the abandoned lease expired", async () => (await b!.ownerOf(runId)) === null);
      await s.leasePeriods(1);
      expect(onCancel.calls).toEqual([]);
      expect(onLost.calls).toEqual([]);
    },
    6,
  );

  kit.test("close is idempotent and a closed coordinator rejects further work", async (s) => {
    const [a] = await s.coordinators(1);
    await a!.close();
    await a!.close();
    await a!.close({ abandon: true });
    await expect(a!.acquire(s.runId())).rejects.toThrow();
    await expect(a!.requestCancel(s.runId(), "interrupt")).rejects.toThrow();
    await expect(a!.claimRecovery(s.runId(), 1_000)).rejects.toThrow();
  });
}
