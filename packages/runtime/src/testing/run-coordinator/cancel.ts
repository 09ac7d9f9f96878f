/** Cancel delivery: to the live owner only, exactly once per run, first action wins, "no_owner" without a live lease. */
import type { CancelAction } from "../../runs/types.js";
import { recorder, type Kit } from "./context.js";

/** Registers the cancel-delivery checks. */
export function cancelTests(kit: Kit): void {
  const { expect } = kit;
  kit.test(
    "a cancel request from another instance reaches the owner's handler exactly once, with its action",
    async (s) => {
      const [a, b, c] = await s.coordinators(3);
      const runId = s.runId();
      const [onA, onB, onC] = [
        recorder<[string, CancelAction]>(),
        recorder<[string, CancelAction]>(),
        recorder<[string, CancelAction]>(),
      ];
      a!.onCancelRequest(onA.handler);
      b!.onCancelRequest(onB.handler);
      c!.onCancelRequest(onC.handler);
      expect(await a!.acquire(runId)).toBe(true);
      expect(await b!.requestCancel(runId, "rollback")).toBe("delivered");
      await s.eventually("the owner's handler was called", () => onA.calls.length > 0);
      // Several renewals later (each may re-read a durable request) it is still one call.
      await s.leasePeriods(2);
      expect(onA.calls).toEqual([[runId, "rollback"]]);
      expect(onB.calls).toEqual([]);
      expect(onC.calls).toEqual([]);
    },
  );

  kit.test("a cancel request made by the owner itself is delivered to its own handler once", async (s) => {
    const [a, b] = await s.coordinators(2);
    const runId = s.runId();
    const onA = recorder<[string, CancelAction]>();
    const onB = recorder<[string, CancelAction]>();
    a!.onCancelRequest(onA.handler);
    b!.onCancelRequest(onB.handler);
    expect(await a!.acquire(runId)).toBe(true);
    expect(await a!.requestCancel(runId, "interrupt")).toBe("delivered");
    await s.eventually("the owner's handler was called", () => onA.calls.length > 0);
    await s.leasePeriods(2);
    expect(onA.calls).toEqual([[runId, "interrupt"]]);
    expect(onB.calls).toEqual([]);
  });

  kit.test("of repeated requests the first action wins and the handler is called once", async (s) => {
    const [a, b, c] = await s.coordinators(3);
    const runId = s.runId();
    const onA = recorder<[string, CancelAction]>();
    a!.onCancelRequest(onA.handler);
    expect(await a!.acquire(runId)).toBe(true);
    expect(await b!.requestCancel(runId, "interrupt")).toBe("delivered");
    expect(await c!.requestCancel(runId, "rollback")).toBe("delivered");
    expect(await b!.requestCancel(runId, "rollback")).toBe("delivered");
    await s.eventually("the owner's handler was called", () => onA.calls.length > 0);
    expect(await a!.requestCancel(runId, "rollback")).toBe("delivered");
    await s.leasePeriods(2);
    expect(onA.calls).toEqual([[runId, "interrupt"]]);
  });

  kit.test(
    '"no_owner" for a run never acquired, a released run and a run whose lease expired',
    async (s) => {
      const [a, b] = await s.coordinators(2);
      const onA = recorder<[string, CancelAction]>();
      a!.onCancelRequest(onA.handler);
      expect(await b!.requestCancel(s.runId("never-acquired"), "interrupt")).toBe("no_owner");

      const released = s.runId("released");
      expect(await a!.acquire(released)).toBe(true);
      await a!.release(released);
      expect(await b!.requestCancel(released, "interrupt")).toBe("no_owner");
      expect(await a!.requestCancel(released, "rollback")).toBe("no_owner");

      const expired = s.runId("expired");
      expect(await a!.acquire(expired)).toBe(true);
      await a!.close({ abandon: true });
      await s.eventually("the abandoned lease expired", async () => (await b!.ownerOf(expired)) === null);
      expect(await b!.requestCancel(expired, "rollback")).toBe("no_owner");
      expect(onA.calls).toEqual([]);
    },
    6,
  );

  kit.test("a request for a run's previous lease is not delivered to its next owner", async (s) => {
    const [a, b, c] = await s.coordinators(3);
    const runId = s.runId();
    const onA = recorder<[string, CancelAction]>();
    const onC = recorder<[string, CancelAction]>();
    a!.onCancelRequest(onA.handler);
    c!.onCancelRequest(onC.handler);
    expect(await a!.acquire(runId)).toBe(true);
    expect(await b!.requestCancel(runId, "interrupt")).toBe("delivered");
    await s.eventually("the owner's handler was called", () => onA.calls.length > 0);
    await a!.release(runId);
    expect(await c!.acquire(runId)).toBe(true);
    await s.leasePeriods(2);
    expect(onC.calls).toEqual([]);
    expect(onA.calls).toEqual([[runId, "interrupt"]]);
    // A fresh request for the new lease is delivered to the new owner.
    expect(await b!.requestCancel(runId, "rollback")).toBe("delivered");
    await s.eventually("the new owner's handler was called", () => onC.calls.length > 0);
    expect(onC.calls).toEqual([[runId, "rollback"]]);
  });

  kit.test("cancel handlers: an unsubscribed one is not called, a throwing one does not stop the others", async (s) => {
    const [a, b] = await s.coordinators(2);
    const runId = s.runId();
    const kept = recorder<[string, CancelAction]>();
    const removed = recorder<[string, CancelAction]>();
    a!.onCancelRequest(() => {
      throw new Error("handler failure (expected by the conformance kit)");
    });
    a!.onCancelRequest(kept.handler);
    const unsubscribe = a!.onCancelRequest(removed.handler);
    unsubscribe();
    unsubscribe();
    expect(await a!.acquire(runId)).toBe(true);
    expect(await b!.requestCancel(runId, "interrupt")).toBe("delivered");
    await s.eventually("the kept handler was called", () => kept.calls.length > 0);
    await s.leasePeriods(1);
    expect(kept.calls).toEqual([[runId, "interrupt"]]);
    expect(removed.calls).toEqual([]);
  });
}
