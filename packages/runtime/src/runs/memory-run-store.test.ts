/**
 * `MemoryRunStore` against the run-store conformance kit, plus what only the
 * memory store offers: an injected clock and creation order independent of it.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MemoryRunStore } from "./memory-run-store.js";
import { runStoreConformance } from "../testing/run-store-conformance.js";
import { admission, expectRuntimeError } from "../testing/run-store/context.js";

runStoreConformance({
  name: "MemoryRunStore",
  makeStore: async () => ({ store: new MemoryRunStore() }),
  describe,
  it,
  expect,
  beforeEach,
  afterEach,
});

describe("MemoryRunStore", () => {
  it("writes every timestamp from the injected clock", async () => {
    let now = Date.parse("2026-01-02T03:04:05.678Z");
    const store = new MemoryRunStore({ now: () => new Date(now) });
    const { run, thread } = await store.admitRun(admission("t1"));
    expect(run.createdAt).toBe("2026-01-02T03:04:05.678Z");
    expect(thread.createdAt).toBe("2026-01-02T03:04:05.678Z");
    now += 1000;
    const started = await store.tryStartRun(run.runId);
    expect(started.outcome === "started" && started.run.startedAt).toBe("2026-01-02T03:04:06.678Z");
    now += 1000;
    const done = await store.finishRun(run.runId, { status: "success", threadStatus: "idle" });
    expect(done?.endedAt).toBe("2026-01-02T03:04:07.678Z");
    expect((await store.getThread("t1"))?.updatedAt).toBe("2026-01-02T03:04:07.678Z");
    expect(await store.deleteFinishedRuns(new Date(now))).toBe(0);
    expect(await store.deleteFinishedRuns(new Date(now + 1))).toBe(1);
  });

  it("orders runs and threads by creation, not by a clock that stands still or goes backwards", async () => {
    let now = Date.parse("2026-01-02T00:00:00.000Z");
    const store = new MemoryRunStore({ now: () => new Date((now -= 1000)) });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await store.admitRun(admission("t1"))).run.runId);
    expect((await store.listRuns("t1")).map((r) => r.runId)).toEqual([...ids].reverse());
    expect((await store.listActiveRuns()).map((r) => r.runId)).toEqual(ids);
    const blocked = await store.tryStartRun(ids[4]!);
    expect(blocked).toMatchObject({ outcome: "blocked", blockedBy: ids[0] });
  });

  it("fails every call with CLOSED after close()", async () => {
    const store = new MemoryRunStore();
    await store.createThread({ threadId: "t1" });
    await store.close();
    await store.close();
    await expectRuntimeError(store.getThread("t1"), "CLOSED");
    await expectRuntimeError(store.admitRun(admission("t1")), "CLOSED");
    await expectRuntimeError(store.searchThreads(), "CLOSED");
  });
});
