/** listRuns and listActiveRuns. */
import type { ConformanceExpect } from "@deerflow/kernel";
import { admit, admitRunning, expectRuntimeError, uid, type AddTest } from "./context.js";

/** Registers the listing tests. */
export function listTests(test: AddTest, expect: ConformanceExpect): void {
  test("listRuns returns a thread's runs newest first, filtered by status and paged", async ([store]) => {
    const threadId = uid("t");
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push((await admit(store!, threadId)).run.runId);
    await admit(store!, uid("t"));
    const newest = [...ids].reverse();
    expect((await store!.listRuns(threadId)).map((r) => r.runId)).toEqual(newest.slice(0, 10));
    expect((await store!.listRuns(threadId, { limit: 100 })).map((r) => r.runId)).toEqual(newest);
    expect((await store!.listRuns(threadId, { limit: 3, offset: 2 })).map((r) => r.runId)).toEqual(newest.slice(2, 5));
    expect(await store!.listRuns(threadId, { offset: 12 })).toEqual([]);

    await store!.tryStartRun(ids[0]!);
    await store!.finishRun(ids[0]!, { status: "success", threadStatus: "idle" });
    await store!.requestCancel(ids[3]!, "interrupt");
    await store!.requestCancel(ids[5]!, "interrupt");
    expect((await store!.listRuns(threadId, { status: "success" })).map((r) => r.runId)).toEqual([ids[0]]);
    expect((await store!.listRuns(threadId, { status: "interrupted" })).map((r) => r.runId)).toEqual([ids[5], ids[3]]);
    expect(
      (await store!.listRuns(threadId, { status: "interrupted", limit: 1, offset: 1 })).map((r) => r.runId),
    ).toEqual([ids[3]]);
    expect(await store!.listRuns(threadId, { status: "running" })).toEqual([]);
    expect(await store!.listRuns(uid("missing"))).toEqual([]);
  });

  test("listRuns keeps creation order for runs created within the same millisecond", async ([store]) => {
    const threadId = uid("t");
    const runs = [];
    // Back-to-back admissions usually share timestamps; order must come from creation, not the clock.
    for (let i = 0; i < 30; i++) runs.push((await admit(store!, threadId)).run);
    expect((await store!.listRuns(threadId, { limit: 100 })).map((r) => r.runId)).toEqual(
      runs.map((r) => r.runId).reverse(),
    );
    expect((await store!.listActiveRuns()).map((r) => r.runId)).toEqual(runs.map((r) => r.runId));
  });

  test("listRuns rejects a limit outside 1..1000 and unknown statuses", async ([store]) => {
    const threadId = uid("t");
    for (const limit of [0, 1001, -5, 2.5])
      await expectRuntimeError(store!.listRuns(threadId, { limit }), "INVALID_ARGUMENT");
    await expectRuntimeError(store!.listRuns(threadId, { offset: -1 }), "INVALID_ARGUMENT");
    await expectRuntimeError(store!.listRuns(threadId, { status: "done" as "success" }), "INVALID_ARGUMENT");
  });

  test("listActiveRuns lists pending and running runs of every thread, oldest first, optionally by owner", async ([
    store,
  ]) => {
    const t1 = uid("t");
    const t2 = uid("t");
    const a = await admitRunning(store!, t1, { ownerId: "one" });
    const { run: b } = await admit(store!, t2, "enqueue", { ownerId: "two" });
    const { run: c } = await admit(store!, t1, "enqueue", { ownerId: "two" });
    const d = await admitRunning(store!, uid("t"), { ownerId: "one" });
    await store!.finishRun(d.runId, { status: "success", threadStatus: "idle" });
    const { run: e } = await admit(store!, t2, "enqueue", { ownerId: "one" });
    await store!.requestCancel(e.runId, "interrupt");

    const active = await store!.listActiveRuns();
    expect(active.map((r) => r.runId)).toEqual([a.runId, b.runId, c.runId]);
    expect(active[0]).toEqual(a);
    expect((await store!.listActiveRuns({ ownerId: "two" })).map((r) => r.runId)).toEqual([b.runId, c.runId]);
    expect((await store!.listActiveRuns({ ownerId: "one" })).map((r) => r.runId)).toEqual([a.runId]);
    expect(await store!.listActiveRuns({ ownerId: "nobody" })).toEqual([]);
  });
}
