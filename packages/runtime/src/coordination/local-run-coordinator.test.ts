/**
 * `LocalRunCoordinator`: the conformance kit with N coordinators on one hub
 * (instances of one deployment in one process), plus what only the local
 * implementation promises: option validation, input validation and the hub.
 */
import { afterEach, describe, expect, it } from "vitest";
import { LocalCoordinationHub, LocalRunCoordinator } from "./local-run-coordinator.js";
import { RuntimeError } from "../errors.js";
import type { Logger } from "../logger.js";
import type { CancelAction } from "../runs/types.js";
import { runCoordinatorConformance } from "../testing/run-coordinator-conformance.js";

runCoordinatorConformance({
  name: "LocalRunCoordinator on a shared hub",
  makeCoordinators: async (count, { leaseMs }) => {
    const hub = new LocalCoordinationHub();
    const coordinators = Array.from(
      { length: count },
      (_, i) => new LocalRunCoordinator({ hub, leaseMs, instanceId: `local-${i}` }),
    );
    return { coordinators, breakLease: async (runId) => void hub.breakLease(runId) };
  },
  leaseMs: 500,
  describe,
  it,
  expect,
});

function expectRuntimeError(fn: () => unknown, code: string, message: RegExp): void {
  try {
    fn();
  } catch (err) {
    expect(RuntimeError.isInstance(err)).toBe(true);
    expect((err as RuntimeError).code).toBe(code);
    expect((err as Error).message).toMatch(message);
    return;
  }
  throw new Error("expected a RuntimeError");
}

function capturingLogger(): Logger & { lines: { level: string; msg: string; obj: Record<string, unknown> }[] } {
  const lines: { level: string; msg: string; obj: Record<string, unknown> }[] = [];
  const at = (level: string) => (obj: Record<string, unknown>, msg: string) => void lines.push({ level, msg, obj });
  return { lines, debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

describe("LocalRunCoordinator", () => {
  const open: LocalRunCoordinator[] = [];
  const make = (options: ConstructorParameters<typeof LocalRunCoordinator>[0] = {}): LocalRunCoordinator => {
    const coordinator = new LocalRunCoordinator(options);
    open.push(coordinator);
    return coordinator;
  };
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.close()));
  });

  it("defaults: hostname-based unique instance ids, a private hub each, not cross-process", async () => {
    const a = make();
    const b = make();
    expect(a.instanceId).not.toBe(b.instanceId);
    expect(a.instanceId).toMatch(/^.+:[0-9a-f-]{36}$/);
    expect(a.supportsCrossProcess).toBe(false);
    expect(a.hub).not.toBe(b.hub);
    // Private hubs: both "own" the same run id because they are separate deployments.
    expect(await a.acquire("run-1")).toBe(true);
    expect(await b.acquire("run-1")).toBe(true);
  });

  it("rejects bad options with CONFIG_INVALID naming the value", () => {
    expectRuntimeError(() => new LocalRunCoordinator({ leaseMs: 0 }), "CONFIG_INVALID", /leaseMs .* got 0/);
    expectRuntimeError(() => new LocalRunCoordinator({ leaseMs: 1.5 }), "CONFIG_INVALID", /leaseMs .* got 1\.5/);
    expectRuntimeError(() => new LocalRunCoordinator({ leaseMs: Number.NaN }), "CONFIG_INVALID", /leaseMs/);
    expectRuntimeError(
      () => new LocalRunCoordinator({ leaseMs: 1000, renewIntervalMs: 1000 }),
      "CONFIG_INVALID",
      /renewIntervalMs .* got 1000/,
    );
    expectRuntimeError(
      () => new LocalRunCoordinator({ renewIntervalMs: -5 }),
      "CONFIG_INVALID",
      /renewIntervalMs .* got -5/,
    );
    expectRuntimeError(() => new LocalRunCoordinator({ instanceId: "" }), "CONFIG_INVALID", /instanceId/);
  });

  it("refuses a second live coordinator with the same instance id on one hub, but allows it after close", async () => {
    const hub = new LocalCoordinationHub();
    const first = make({ hub, instanceId: "same" });
    expectRuntimeError(
      () => new LocalRunCoordinator({ hub, instanceId: "same" }),
      "CONFIG_INVALID",
      /"same" is already used/,
    );
    await first.close();
    const second = make({ hub, instanceId: "same" });
    expect(await second.acquire("r")).toBe(true);
  });

  it("rejects malformed arguments with INVALID_ARGUMENT", async () => {
    const a = make();
    await expect(a.acquire("")).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    await expect(a.acquire(42 as unknown as string)).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
      message: /got 42/,
    });
    await expect(a.ownerOf(undefined as unknown as string)).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    await expect(a.requestCancel("r", "stop" as CancelAction)).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
      message: /"stop"/,
    });
    await expect(a.claimRecovery("r", 0)).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
      message: /ttlMs .* got 0/,
    });
    await expect(a.claimRecovery("r", Number.POSITIVE_INFINITY)).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
  });

  it("after close: CLOSED for work, no-op release, inert handler registration", async () => {
    const a = make();
    await a.close();
    await expect(a.acquire("r")).rejects.toMatchObject({ code: "CLOSED" });
    await expect(a.ownerOf("r")).rejects.toMatchObject({ code: "CLOSED" });
    await expect(a.release("r")).resolves.toBeUndefined();
    expect(typeof a.onCancelRequest(() => {})).toBe("function");
  });

  it("a request made before any cancel handler exists is delivered at the next renewal once one is registered", async () => {
    const hub = new LocalCoordinationHub();
    const a = make({ hub, leaseMs: 1_000, instanceId: "a" });
    const b = make({ hub, leaseMs: 1_000, instanceId: "b" });
    expect(await a.acquire("r")).toBe(true);
    expect(await b.requestCancel("r", "rollback")).toBe("delivered");
    const calls: [string, CancelAction][] = [];
    a.onCancelRequest((runId, action) => void calls.push([runId, action]));
    await waitFor(() => calls.length > 0);
    await new Promise((r) => setTimeout(r, 1_200));
    expect(calls).toEqual([["r", "rollback"]]);
  });

  it("a stalled event loop past the lease fences the run (lost, not silently renewed)", async () => {
    const hub = new LocalCoordinationHub();
    const logger = capturingLogger();
    const a = make({ hub, leaseMs: 60, renewIntervalMs: 20, instanceId: "a", logger });
    const lost: string[] = [];
    a.onLeaseLost((runId) => void lost.push(runId));
    expect(await a.acquire("r")).toBe(true);
    const until = performance.now() + 150;
    while (performance.now() < until) {
      // Busy wait: the renewal timer cannot run, so the lease expires.
    }
    await waitFor(() => lost.length > 0);
    expect(lost).toEqual(["r"]);
    expect(await a.ownerOf("r")).toBeNull();
    expect(logger.lines.some((l) => l.level === "warn" && l.obj["runId"] === "r")).toBe(true);
  });

  it("hub.breakLease reports whether a live lease existed", async () => {
    const a = make();
    expect(a.hub.breakLease("r")).toBe(false);
    expect(await a.acquire("r")).toBe(true);
    expect(a.hub.breakLease("r")).toBe(true);
    expect(a.hub.breakLease("r")).toBe(false);
  });

  it("handler errors are logged, not thrown into the requester", async () => {
    const logger = capturingLogger();
    const a = make({ logger });
    a.onCancelRequest(() => {
      throw new Error("boom");
    });
    expect(await a.acquire("r")).toBe(true);
    expect(await a.requestCancel("r", "interrupt")).toBe("delivered");
    expect(logger.lines.some((l) => l.level === "error" && (l.obj["err"] as Error).message === "boom")).toBe(true);
  });
});

async function waitFor(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not reached");
    await new Promise((r) => setTimeout(r, 10));
  }
}
