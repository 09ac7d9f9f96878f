/** tryStartRun, finishRun, requestCancel, setOwner, deleteRun, deleteFinishedRuns, and copy semantics. */
import type { ConformanceExpect } from "@deerflow/kernel";
import type { RunStore } from "../../runs/run-store.js";
import type { RunRecord } from "../../runs/types.js";
import {
  admission,
  admit,
  admitRunning,
  expectIsoTimestamps,
  expectRuntimeError,
  uid,
  type AddTest,
} from "./context.js";

async function finished(store: RunStore, runId: string, status: "success" | "error" = "success"): Promise<RunRecord> {
  const run = await store.finishRun(runId, { status, threadStatus: "idle" });
  if (!run) throw new Error(`finishRun(${runId}) returned null`);
  return run;
}

/** Registers the life-cycle tests. */
export function lifecycleTests(test: AddTest, expect: ConformanceExpect): void {
  test("tryStartRun moves a pending run to running and reports missing runs", async ([store]) => {
    const threadId = uid("t");
    const { run } = await admit(store!, threadId);
    const outcome = await store!.tryStartRun(run.runId);
    expect(outcome.outcome).toBe("started");
    if (outcome.outcome !== "started") return;
    expect(outcome.run).toEqual({
      ...run,
      status: "running",
      startedAt: outcome.run.startedAt,
      updatedAt: outcome.run.startedAt,
    });
    expectIsoTimestamps(expect, outcome.run);
    expect(outcome.run.startedAt! >= run.createdAt).toBe(true);
    expect(await store!.getRun(run.runId)).toEqual(outcome.run);
    expect((await store!.getThread(threadId))?.status).toBe("busy");
    expect(await store!.tryStartRun(uid("missing"))).toEqual({ outcome: "missing" });
  });

  test("enqueued runs start strictly in creation order; later ones are blocked by the oldest active run", async ([
    store,
  ]) => {
    const threadId = uid("t");
    const [r1, r2, r3] = [
      (await admit(store!, threadId)).run,
      (await admit(store!, threadId)).run,
      (await admit(store!, threadId)).run,
    ];
    expect(await store!.tryStartRun(r3.runId)).toEqual({ outcome: "blocked", run: r3, blockedBy: r1.runId });
    expect(await store!.tryStartRun(r2.runId)).toEqual({ outcome: "blocked", run: r2, blockedBy: r1.runId });
    expect((await store!.tryStartRun(r1.runId)).outcome).toBe("started");
    expect((await store!.tryStartRun(r2.runId)).outcome).toBe("blocked");
    await finished(store!, r1.runId);
    expect(await store!.tryStartRun(r3.runId)).toEqual({ outcome: "blocked", run: r3, blockedBy: r2.runId });
    expect((await store!.tryStartRun(r2.runId)).outcome).toBe("started");
    expect((await store!.tryStartRun(r3.runId)).outcome).toBe("blocked");
    await finished(store!, r2.runId, "error");
    expect((await store!.tryStartRun(r3.runId)).outcome).toBe("started");
    // A run of another thread is never blocked by this thread's runs.
    const other = await admit(store!, uid("t"));
    expect((await store!.tryStartRun(other.run.runId)).outcome).toBe("started");
  });

  test("tryStartRun reports cancelled for a run that is no longer pending or has a cancel request", async ([store]) => {
    const threadId = uid("t");
    const running = await admitRunning(store!, threadId);
    expect(await store!.tryStartRun(running.runId)).toEqual({ outcome: "cancelled", run: running });
    const { run: pending } = await admit(store!, threadId);
    const cancelled = await store!.requestCancel(pending.runId, "interrupt");
    expect(await store!.tryStartRun(pending.runId)).toEqual({ outcome: "cancelled", run: cancelled });
    const done = await finished(store!, running.runId);
    expect(await store!.tryStartRun(running.runId)).toEqual({ outcome: "cancelled", run: done });
  });

  test("finishRun is a compare-and-set: the second finish returns null and changes nothing", async ([store]) => {
    const threadId = uid("t");
    const running = await admitRunning(store!, threadId);
    const done = await store!.finishRun(running.runId, {
      status: "error",
      error: "boom",
      stopReason: "loop_capped",
      threadStatus: "error",
    });
    expect(done).toEqual({
      ...running,
      status: "error",
      error: "boom",
      stopReason: "loop_capped",
      endedAt: done!.endedAt,
      updatedAt: done!.endedAt,
    });
    expectIsoTimestamps(expect, done!);
    expect((await store!.getThread(threadId))?.status).toBe("error");
    expect(await store!.finishRun(running.runId, { status: "success", threadStatus: "idle" })).toBeNull();
    expect(await store!.getRun(running.runId)).toEqual(done);
    expect((await store!.getThread(threadId))?.status).toBe("error");
    expect(await store!.finishRun(uid("missing"), { status: "success", threadStatus: "idle" })).toBeNull();
  });

  test("finishRun shallow-merges metadata into the run's, and keeps it when none is given", async ([store]) => {
    const threadId = uid("t");
    const running = await admitRunning(store!, threadId, {
      metadata: { source: "sdk", token_usage: { stale: true }, nested: { a: 1 } },
    });
    const usage = { input_tokens: 10, output_tokens: 5, total_tokens: 15, llm_call_count: 1, by_model: {} };
    const done = await store!.finishRun(running.runId, {
      status: "success",
      threadStatus: "idle",
      metadata: { token_usage: usage },
    });
    // Top-level keys are replaced whole (no recursive merge); the others stay.
    expect(done?.metadata).toEqual({ source: "sdk", token_usage: usage, nested: { a: 1 } });
    expect((await store!.getRun(running.runId))?.metadata).toEqual(done?.metadata);
    const other = await admitRunning(store!, uid("t"), { metadata: { source: "sdk" } });
    const plain = await store!.finishRun(other.runId, { status: "success", threadStatus: "idle" });
    expect(plain?.metadata).toEqual({ source: "sdk" });
    await expectRuntimeError(
      store!.finishRun(uid("r"), { status: "success", threadStatus: "idle", metadata: [] as never }),
      "INVALID_ARGUMENT",
    );
  });

  test("finishRun honours expectStatus, and keeps error/stopReason unless given", async ([store]) => {
    const threadId = uid("t");
    const running = await admitRunning(store!, threadId);
    expect(
      await store!.finishRun(running.runId, { status: "success", threadStatus: "idle", expectStatus: ["pending"] }),
    ).toBeNull();
    expect(await store!.getRun(running.runId)).toEqual(running);
    const interrupted = await store!.finishRun(running.runId, {
      status: "interrupted",
      error: "stopped",
      threadStatus: "idle",
      expectStatus: ["running"],
    });
    expect(interrupted?.status).toBe("interrupted");
    // A rollback observed as `interrupted` is finished again as `error`.
    const rolledBack = await store!.finishRun(running.runId, {
      status: "error",
      stopReason: "rolled_back",
      threadStatus: "idle",
      expectStatus: ["interrupted"],
    });
    expect(rolledBack).toMatchObject({ status: "error", error: "stopped", stopReason: "rolled_back" });
    const cleared = await store!.finishRun(running.runId, {
      status: "error",
      error: null,
      threadStatus: "idle",
      expectStatus: ["error"],
    });
    expect(cleared).toMatchObject({ status: "error", error: null, stopReason: "rolled_back" });
    const { run: pending } = await admit(store!, threadId);
    // The default expectation includes pending: a run that never started can be finished.
    expect(
      await store!.finishRun(pending.runId, { status: "timeout", error: "too slow", threadStatus: "idle" }),
    ).toMatchObject({ status: "timeout", startedAt: null });
  });

  test("finishRun leaves the thread busy while another run is active, else sets the given status", async ([store]) => {
    const threadId = uid("t");
    const first = await admitRunning(store!, threadId);
    const { run: second } = await admit(store!, threadId);
    await store!.finishRun(first.runId, { status: "success", threadStatus: "idle" });
    expect((await store!.getThread(threadId))?.status).toBe("busy");
    await store!.tryStartRun(second.runId);
    await store!.finishRun(second.runId, { status: "success", threadStatus: "interrupted" });
    expect((await store!.getThread(threadId))?.status).toBe("interrupted");
  });

  test("finishRun rejects a non-terminal status or thread status with INVALID_ARGUMENT", async ([store]) => {
    const running = await admitRunning(store!, uid("t"));
    await expectRuntimeError(
      store!.finishRun(running.runId, { status: "running" as "success", threadStatus: "idle" }),
      "INVALID_ARGUMENT",
    );
    await expectRuntimeError(
      store!.finishRun(running.runId, { status: "success", threadStatus: "gone" as "idle" }),
      "INVALID_ARGUMENT",
    );
    await expectRuntimeError(
      store!.finishRun(running.runId, { status: "success", threadStatus: "idle", expectStatus: ["nope" as "running"] }),
      "INVALID_ARGUMENT",
    );
    expect(await store!.getRun(running.runId)).toEqual(running);
  });

  test("requestCancel interrupts a pending run at once and settles the thread", async ([store]) => {
    const threadId = uid("t");
    const { run: only } = await admit(store!, threadId);
    const cancelled = await store!.requestCancel(only.runId, "rollback");
    expect(cancelled).toEqual({
      ...only,
      status: "interrupted",
      endedAt: cancelled!.endedAt,
      updatedAt: cancelled!.endedAt,
    });
    expect(cancelled!.endedAt).not.toBeNull();
    expect((await store!.getThread(threadId))?.status).toBe("idle");

    const running = await admitRunning(store!, threadId);
    const { run: queued } = await admit(store!, threadId);
    await store!.requestCancel(queued.runId, "interrupt");
    expect((await store!.getThread(threadId))?.status).toBe("busy");
    expect((await store!.getRun(running.runId))?.status).toBe("running");
  });

  test("requestCancel on a running run records the first action only", async ([store]) => {
    const running = await admitRunning(store!, uid("t"));
    const first = await store!.requestCancel(running.runId, "rollback");
    expect(first).toEqual({ ...running, cancelAction: "rollback", updatedAt: first!.updatedAt });
    expect(await store!.requestCancel(running.runId, "interrupt")).toEqual(first);
    expect(await store!.getRun(running.runId)).toEqual(first);
    expect(await store!.tryStartRun(running.runId)).toEqual({ outcome: "cancelled", run: first });
  });

  test("requestCancel returns terminal runs unchanged and null for missing runs", async ([store]) => {
    const running = await admitRunning(store!, uid("t"));
    const done = await finished(store!, running.runId);
    expect(await store!.requestCancel(running.runId, "interrupt")).toEqual(done);
    expect(await store!.getRun(running.runId)).toEqual(done);
    expect(await store!.requestCancel(uid("missing"), "interrupt")).toBeNull();
    await expectRuntimeError(store!.requestCancel(running.runId, "explode" as "interrupt"), "INVALID_ARGUMENT");
  });

  test("setOwner is a compare-and-set on the expected owner", async ([store]) => {
    const running = await admitRunning(store!, uid("t"), { ownerId: "a" });
    expect(await store!.setOwner(running.runId, "b", "c")).toBe(false);
    expect(await store!.setOwner(running.runId, null, "c")).toBe(false);
    expect((await store!.getRun(running.runId))?.ownerId).toBe("a");
    expect(await store!.setOwner(running.runId, "a", "b")).toBe(true);
    expect(await store!.getRun(running.runId)).toMatchObject({ ownerId: "b", status: "running" });
    expect(await store!.setOwner(running.runId, "a", "c")).toBe(false);
    expect(await store!.setOwner(uid("missing"), "a", "b")).toBe(false);
  });

  test("deleteRun deletes terminal runs only", async ([store]) => {
    const threadId = uid("t");
    const running = await admitRunning(store!, threadId);
    const err = await expectRuntimeError(store!.deleteRun(running.runId), "THREAD_BUSY");
    expect(err.details).toMatchObject({ runId: running.runId });
    const { run: pending } = await admit(store!, threadId);
    await expectRuntimeError(store!.deleteRun(pending.runId), "THREAD_BUSY");
    expect(await store!.getRun(running.runId)).toEqual(running);
    await finished(store!, running.runId);
    expect(await store!.deleteRun(running.runId)).toBe(true);
    expect(await store!.getRun(running.runId)).toBeNull();
    expect(await store!.deleteRun(running.runId)).toBe(false);
    expect(await store!.getThread(threadId)).not.toBeNull();
    expect((await store!.listRuns(threadId)).map((r) => r.runId)).toEqual([pending.runId]);
  });

  test("deleteFinishedRuns deletes terminal runs that ended strictly before the cutoff", async ([store]) => {
    const t1 = uid("t");
    const t2 = uid("t");
    const a = await finished(store!, (await admitRunning(store!, t1)).runId);
    const b = await store!.requestCancel((await admit(store!, t2)).run.runId, "interrupt");
    const active = await admitRunning(store!, t2);
    const { run: pending } = await admit(store!, t1);
    const latest = [a.endedAt!, b!.endedAt!].sort().at(-1)!;
    const earliest = [a.endedAt!, b!.endedAt!].sort()[0]!;
    expect(await store!.deleteFinishedRuns(new Date(earliest))).toBe(0);
    expect(await store!.deleteFinishedRuns(new Date(Date.parse(latest) + 1))).toBe(2);
    expect(await store!.getRun(a.runId)).toBeNull();
    expect(await store!.getRun(b!.runId)).toBeNull();
    expect(await store!.getRun(active.runId)).toEqual(active);
    expect(await store!.getRun(pending.runId)).toEqual(pending);
    // Active runs are never deleted, however far the cutoff.
    expect(await store!.deleteFinishedRuns(new Date(Date.now() + 365 * 24 * 3600 * 1000))).toBe(0);
    expect(await store!.getThread(t1)).not.toBeNull();
    await expectRuntimeError(store!.deleteFinishedRuns(new Date(Number.NaN)), "INVALID_ARGUMENT");
  });

  test("returned records are copies: mutating them or the inputs never changes the store", async ([store]) => {
    const threadId = uid("t");
    const threadMetadata = { tags: ["a"], nested: { v: 1 } };
    const metadata = { list: [1, 2], deep: { x: "y" } };
    const input = admission(threadId, { metadata, threadMetadata });
    const { run, thread } = await store!.admitRun(input);
    const pristineRun = structuredClone(run);
    const pristineThread = structuredClone(thread);
    metadata.list.push(3);
    metadata.deep.x = "changed";
    threadMetadata.tags.push("b");
    (input.kwargs.streamMode as string[]).push("debug");
    run.metadata["deep"] = "mutated";
    run.status = "success";
    (run.kwargs.streamMode as string[]).length = 0;
    thread.metadata["tags"] = [];
    expect(await store!.getRun(run.runId)).toEqual(pristineRun);
    expect(await store!.getThread(threadId)).toEqual(pristineThread);
    const fetched = await store!.getRun(run.runId);
    (fetched!.metadata["list"] as number[]).push(99);
    const listed = await store!.listRuns(threadId);
    listed[0]!.kwargs.streamMode.push("tasks");
    const searched = await store!.searchThreads({ ids: [threadId] });
    (searched[0]!.metadata["nested"] as { v: number }).v = 42;
    expect(await store!.getRun(run.runId)).toEqual(pristineRun);
    expect(await store!.getThread(threadId)).toEqual(pristineThread);
  });
}
