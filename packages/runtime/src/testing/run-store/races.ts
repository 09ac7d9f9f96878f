/**
 * Races: many callers at once on one thread. With several instances the callers
 * are spread round-robin over them, as separate server processes would be.
 */
import type { ConformanceExpect } from "@deerflow/kernel";
import type { RuntimeError } from "../../errors.js";
import type { RunStore } from "../../runs/run-store.js";
import type { CancelAction, RunRecord } from "../../runs/types.js";
import { admission, admit, admitRunning, describeError, settle, uid, type AddTest } from "./context.js";

const WIDTH = 20;

/** Registers the race tests. */
export function raceTests(test: AddTest, expect: ConformanceExpect): void {
  const on = (stores: readonly RunStore[], i: number): RunStore => stores[i % stores.length]!;

  for (const fresh of [true, false]) {
    test(`${WIDTH} concurrent reject admissions on ${fresh ? "a fresh" : "an existing idle"} thread: exactly one wins`, async (stores) => {
      const threadId = uid("t");
      if (!fresh) await stores[0]!.createThread({ threadId });
      const inputs = Array.from({ length: WIDTH }, () =>
        admission(threadId, { multitaskStrategy: "reject", ifNotExists: fresh ? "create" : "reject" }),
      );
      const { ok, failed } = await settle(inputs.map((input, i) => on(stores, i).admitRun(input)));
      expect(ok, `failures: ${failed.map(describeError).join(", ")}`).toHaveLength(1);
      expect(failed).toHaveLength(WIDTH - 1);
      for (const err of failed) {
        expect(describeError(err)).toBe("THREAD_BUSY");
        expect((err as RuntimeError).details).toEqual({ threadId, activeRunIds: [ok[0]!.run.runId] });
      }
      const runs = await stores[0]!.listRuns(threadId, { limit: 100 });
      expect(runs.map((r) => r.runId)).toEqual([ok[0]!.run.runId]);
      expect(await stores[0]!.countThreads({ ids: [threadId] })).toBe(1);
      expect((await stores[0]!.getThread(threadId))?.status).toBe("busy");
    });
  }

  test(`${WIDTH} concurrent interrupt admissions: all admitted, exactly one survives`, async (stores) => {
    const threadId = uid("t");
    const running = await admitRunning(stores[0]!, threadId);
    const inputs = Array.from({ length: WIDTH }, () => admission(threadId, { multitaskStrategy: "interrupt" }));
    const { ok, failed } = await settle(inputs.map((input, i) => on(stores, i).admitRun(input)));
    expect(failed.map(describeError)).toEqual([]);
    expect(ok).toHaveLength(WIDTH);

    const runs = await stores[0]!.listRuns(threadId, { limit: 100 });
    expect(runs).toHaveLength(WIDTH + 1);
    const survivors = runs.filter((r) => r.status === "pending" || (r.status === "running" && r.cancelAction === null));
    expect(survivors).toHaveLength(1);
    // The survivor is the newest run; every other admitted run ended "Cancelled by newer run".
    expect(survivors[0]!.runId).toBe(runs[0]!.runId);
    for (const r of runs.slice(1)) {
      if (r.runId === running.runId) expect(r).toMatchObject({ status: "running", cancelAction: "interrupt" });
      else expect(r).toMatchObject({ status: "interrupted", error: "Cancelled by newer run" });
    }
    // Each pending run was superseded by exactly one admission.
    const supersededPending = ok.flatMap((result) =>
      result.superseded.filter((s) => s.status === "interrupted").map((s) => s.runId),
    );
    expect(new Set(supersededPending).size).toBe(supersededPending.length);
    expect(supersededPending.length).toBe(WIDTH - 1);
  });

  test("10 callers starting 10 enqueued runs: never two running, start order is creation order", async (stores) => {
    const threadId = uid("t");
    const runs: RunRecord[] = [];
    for (let i = 0; i < 10; i++) runs.push((await admit(on(stores, i), threadId)).run);
    const startOrder: string[] = [];
    let runningNow = 0;
    let maxRunning = 0;
    const caller = async (run: RunRecord, store: RunStore): Promise<void> => {
      for (let attempt = 0; attempt < 20_000; attempt++) {
        const outcome = await store.tryStartRun(run.runId);
        if (outcome.outcome === "started") {
          startOrder.push(run.runId);
          maxRunning = Math.max(maxRunning, ++runningNow);
          const running = await store.listRuns(threadId, { status: "running", limit: 100 });
          expect(running.map((r) => r.runId)).toEqual([run.runId]);
          runningNow--;
          expect(await store.finishRun(run.runId, { status: "success", threadStatus: "idle" })).not.toBeNull();
          return;
        }
        if (outcome.outcome !== "blocked") throw new Error(`run ${run.runId} could not start: ${outcome.outcome}`);
        await new Promise((resolve) => setImmediate(resolve));
      }
      throw new Error(`run ${run.runId} was still blocked after 20000 attempts`);
    };
    await Promise.all(runs.map((run, i) => caller(run, on(stores, i + 1))));
    expect(startOrder).toEqual(runs.map((r) => r.runId));
    expect(maxRunning).toBe(1);
    expect((await stores[0]!.getThread(threadId))?.status).toBe("idle");
  }, 120_000);

  test("tryStartRun racing an interrupt admission: the old run is either interrupted or running with the cancel request", async (stores) => {
    for (let round = 0; round < 10; round++) {
      const threadId = uid("t");
      const { run: old } = await admit(stores[0]!, threadId);
      const [start, admitted] = await Promise.all([
        on(stores, round).tryStartRun(old.runId),
        on(stores, round + 1).admitRun(admission(threadId, { multitaskStrategy: "interrupt" })),
      ]);
      const stored = await stores[0]!.getRun(old.runId);
      if (start.outcome === "started") {
        expect(stored).toMatchObject({ status: "running", cancelAction: "interrupt" });
        expect(admitted.superseded.map((r) => r.runId)).toEqual([old.runId]);
      } else {
        expect(start.outcome).toBe("cancelled");
        expect(stored).toMatchObject({ status: "interrupted", error: "Cancelled by newer run", startedAt: null });
      }
      expect(await on(stores, round).tryStartRun(admitted.run.runId)).toMatchObject({
        outcome: start.outcome === "started" ? "blocked" : "started",
      });
    }
  });

  test(`${WIDTH} concurrent finishRun calls of one run: exactly one wins`, async (stores) => {
    const threadId = uid("t");
    const running = await admitRunning(stores[0]!, threadId);
    const statuses = ["success", "error", "timeout", "interrupted"] as const;
    const results = await Promise.all(
      Array.from({ length: WIDTH }, (_, i) =>
        on(stores, i).finishRun(running.runId, {
          status: statuses[i % 4]!,
          error: `caller ${i}`,
          threadStatus: "idle",
        }),
      ),
    );
    const winners = results.filter((r): r is RunRecord => r !== null);
    expect(winners).toHaveLength(1);
    expect(await stores[0]!.getRun(running.runId)).toEqual(winners[0]);
  });

  test(`${WIDTH} concurrent cancel requests on a running run: the first action wins for everyone`, async (stores) => {
    const running = await admitRunning(stores[0]!, uid("t"));
    const actions: CancelAction[] = ["interrupt", "rollback"];
    const results = await Promise.all(
      Array.from({ length: WIDTH }, (_, i) => on(stores, i).requestCancel(running.runId, actions[i % 2]!)),
    );
    const stored = await stores[0]!.getRun(running.runId);
    expect(stored?.cancelAction).not.toBeNull();
    expect(stored?.status).toBe("running");
    for (const r of results) expect(r?.cancelAction).toBe(stored?.cancelAction);
  });

  test(`${WIDTH} concurrent createThread calls with one id: exactly one creates it`, async (stores) => {
    const threadId = uid("t");
    const { ok, failed } = await settle(
      Array.from({ length: WIDTH }, (_, i) => on(stores, i).createThread({ threadId, metadata: { caller: i } })),
    );
    expect(ok).toHaveLength(1);
    expect(failed.map(describeError)).toEqual(Array.from({ length: WIDTH - 1 }, () => "THREAD_EXISTS"));
    const all = await settle(
      Array.from({ length: WIDTH }, (_, i) => on(stores, i).createThread({ threadId, ifExists: "do_nothing" })),
    );
    expect(all.ok.map((t) => t.metadata)).toEqual(Array.from({ length: WIDTH }, () => ok[0]!.metadata));
  });

  test("admissions racing a delete of their thread: every admitted run survives with its thread", async (stores) => {
    const threadId = uid("t");
    await stores[0]!.createThread({ threadId });
    const deletion = settle([on(stores, 1).deleteThread(threadId)]);
    const admissions = settle(
      Array.from({ length: WIDTH }, (_, i) =>
        on(stores, i).admitRun(
          admission(threadId, { multitaskStrategy: "enqueue", ifNotExists: i % 2 === 0 ? "create" : "reject" }),
        ),
      ),
    );
    const [deleted, admitted] = await Promise.all([deletion, admissions]);
    for (const err of [...admitted.failed, ...deleted.failed])
      expect(["THREAD_BUSY", "THREAD_NOT_FOUND"]).toContain(describeError(err));
    // Admitted before the delete: the delete is refused. After it: the thread was created again.
    for (const { run } of admitted.ok) expect((await stores[0]!.getRun(run.runId))?.threadId).toBe(threadId);
    const thread = await stores[0]!.getThread(threadId);
    if (admitted.ok.length > 0) expect(thread?.status).toBe("busy");
    else expect(thread).toBeNull();
    if (deleted.failed.length > 0) expect(admitted.ok.length).toBeGreaterThan(0);
    const notFound = admitted.failed.filter((e) => describeError(e) === "THREAD_NOT_FOUND").length;
    if (notFound > 0) expect(deleted.ok).toEqual([true]);
    expect((await stores[0]!.listRuns(threadId, { limit: 100 })).length).toBe(admitted.ok.length);
  });
}
