/** admitRun under each multitask strategy, and what a refused admission leaves behind. */
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

/** Snapshot of everything a thread holds, to prove an operation changed nothing. */
async function snapshot(store: RunStore, threadId: string): Promise<unknown> {
  return { thread: await store.getThread(threadId), runs: await store.listRuns(threadId, { limit: 1000 }) };
}

/** Registers the admission tests. */
export function admissionTests(test: AddTest, expect: ConformanceExpect): void {
  test("admitRun creates a missing thread (ifNotExists create) and a pending run with every field", async ([store]) => {
    const threadId = uid("t");
    const input = admission(threadId, {
      multitaskStrategy: "reject",
      onDisconnect: "continue",
      metadata: { source: "kit", nested: { a: [1, 2] } },
      kwargs: {
        input: { messages: [{ role: "user", content: "hi" }] },
        streamMode: ["values", "updates"],
        config: { tags: ["x"] },
        timeoutMs: 5000,
      },
      ownerId: "instance-1",
      threadMetadata: { graph_id: "agent" },
    });
    const result = await store!.admitRun(input);
    expect(result.run).toEqual({
      runId: input.runId,
      threadId,
      assistantId: "agent",
      status: "pending",
      multitaskStrategy: "reject",
      onDisconnect: "continue",
      metadata: input.metadata,
      kwargs: input.kwargs,
      createdAt: result.run.createdAt,
      updatedAt: result.run.createdAt,
      startedAt: null,
      endedAt: null,
      error: null,
      stopReason: null,
      ownerId: "instance-1",
      cancelAction: null,
    });
    expectIsoTimestamps(expect, result.run);
    expect(result.superseded).toEqual([]);
    expect(result.thread).toMatchObject({ threadId, status: "busy", metadata: { graph_id: "agent" } });
    expect(await store!.getRun(input.runId)).toEqual(result.run);
    expect(await store!.getThread(threadId)).toEqual(result.thread);
  });

  test("admitRun on an existing thread keeps its metadata (threadMetadata only seeds a new thread)", async ([
    store,
  ]) => {
    const threadId = uid("t");
    await store!.createThread({ threadId, metadata: { graph_id: "first" } });
    const { thread } = await admit(store!, threadId, "enqueue", {
      threadMetadata: { graph_id: "second" },
      ifNotExists: "create",
    });
    expect(thread).toMatchObject({ status: "busy", metadata: { graph_id: "first" } });
    const { thread: again } = await admit(store!, threadId, "enqueue", { ifNotExists: "reject" });
    expect(again.status).toBe("busy");
  });

  test("admitRun merges threadMetadataUpdate into the thread's metadata (existing or created), and a refused admission does not", async ([
    store,
  ]) => {
    const threadId = uid("t");
    await store!.createThread({ threadId, metadata: { owner: "u1", graph_id: "old" } });
    const { thread } = await admit(store!, threadId, "reject", {
      threadMetadataUpdate: { graph_id: "agent", assistant_id: "a1" },
    });
    const merged = { owner: "u1", graph_id: "agent", assistant_id: "a1" };
    expect(thread).toMatchObject({ status: "busy", metadata: merged });
    expect((await store!.getThread(threadId))?.metadata).toEqual(merged);
    // Refused (the thread is busy): nothing of it is written.
    await expectRuntimeError(
      store!.admitRun(
        admission(threadId, { multitaskStrategy: "reject", threadMetadataUpdate: { graph_id: "other" } }),
      ),
      "THREAD_BUSY",
    );
    expect((await store!.getThread(threadId))?.metadata).toEqual(merged);
    // On a thread created by the admission it goes over threadMetadata.
    const created = uid("t");
    const { thread: fresh } = await admit(store!, created, "reject", {
      ifNotExists: "create",
      threadMetadata: { owner: "u2", graph_id: "seed" },
      threadMetadataUpdate: { graph_id: "agent" },
    });
    expect(fresh.metadata).toEqual({ owner: "u2", graph_id: "agent" });
    expect((await store!.getThread(created))?.metadata).toEqual({ owner: "u2", graph_id: "agent" });
  });

  test("admitRun with ifNotExists reject on a missing thread fails with THREAD_NOT_FOUND and writes nothing", async ([
    store,
  ]) => {
    const threadId = uid("missing");
    for (const strategy of ["reject", "interrupt", "rollback", "enqueue"] as const) {
      const input = admission(threadId, { ifNotExists: "reject", multitaskStrategy: strategy });
      const err = await expectRuntimeError(store!.admitRun(input), "THREAD_NOT_FOUND");
      expect(err.details).toMatchObject({ threadId });
      expect(await store!.getRun(input.runId)).toBeNull();
    }
    expect(await store!.getThread(threadId)).toBeNull();
    expect(await store!.countThreads()).toBe(0);
    expect(await store!.listActiveRuns()).toEqual([]);
  });

  test("reject refuses a second run while one is pending or running (THREAD_BUSY) and changes nothing", async ([
    store,
  ]) => {
    const threadId = uid("t");
    const { run: first } = await admit(store!, threadId, "reject");
    const before = await snapshot(store!, threadId);
    const refused = admission(threadId, { multitaskStrategy: "reject" });
    const err = await expectRuntimeError(store!.admitRun(refused), "THREAD_BUSY");
    expect(err.details).toEqual({ threadId, activeRunIds: [first.runId] });
    expect(await snapshot(store!, threadId)).toEqual(before);
    expect(await store!.getRun(refused.runId)).toBeNull();

    await store!.tryStartRun(first.runId);
    const running = await snapshot(store!, threadId);
    await expectRuntimeError(
      store!.admitRun(admission(threadId, { multitaskStrategy: "reject", ifNotExists: "reject" })),
      "THREAD_BUSY",
    );
    expect(await snapshot(store!, threadId)).toEqual(running);
  });

  test("reject admits once the earlier run finished", async ([store]) => {
    const threadId = uid("t");
    const first = await admitRunning(store!, threadId);
    await store!.finishRun(first.runId, { status: "success", threadStatus: "idle" });
    const { run, superseded, thread } = await admit(store!, threadId, "reject");
    expect(run.status).toBe("pending");
    expect(superseded).toEqual([]);
    expect(thread.status).toBe("busy");
  });

  for (const strategy of ["interrupt", "rollback"] as const) {
    test(`${strategy} supersedes active runs: pending ones end interrupted, running ones get cancelAction "${strategy}"`, async ([
      store,
    ]) => {
      const threadId = uid("t");
      const running = await admitRunning(store!, threadId);
      const { run: pending } = await admit(store!, threadId, "enqueue");
      const done = await admitDone(store!, uid("t"));
      const { run, superseded, thread } = await admit(store!, threadId, strategy);

      expect(run.status).toBe("pending");
      expect(thread.status).toBe("busy");
      expect(superseded).toHaveLength(2);
      const [supRunning, supPending] = superseded as [RunRecord, RunRecord];
      expect(supRunning).toEqual({ ...running, cancelAction: strategy, updatedAt: supRunning.updatedAt });
      expect(supPending).toEqual({
        ...pending,
        status: "interrupted",
        error: "Cancelled by newer run",
        endedAt: supPending.endedAt,
        updatedAt: supPending.updatedAt,
      });
      expect(supPending.endedAt).not.toBeNull();
      expect(supPending.cancelAction).toBeNull();
      expect(supPending.updatedAt >= pending.updatedAt).toBe(true);
      expectIsoTimestamps(expect, supPending);
      expect(await store!.getRun(running.runId)).toEqual(supRunning);
      expect(await store!.getRun(pending.runId)).toEqual(supPending);
      // Runs of other threads are untouched.
      expect(await store!.getRun(done.runId)).toEqual(done);
      // The superseded pending run can no longer start; the running one is told to stop.
      expect((await store!.tryStartRun(pending.runId)).outcome).toBe("cancelled");
    });
  }

  test("a second interrupt keeps the first cancel request of a running run", async ([store]) => {
    const threadId = uid("t");
    const running = await admitRunning(store!, threadId);
    const requested = await store!.requestCancel(running.runId, "rollback");
    const { superseded } = await admit(store!, threadId, "interrupt");
    expect(superseded).toEqual([requested]);
    const { superseded: again } = await admit(store!, threadId, "interrupt");
    expect(again[0]).toEqual(requested);
    expect(again[1]?.status).toBe("interrupted");
  });

  test("enqueue leaves active runs alone", async ([store]) => {
    const threadId = uid("t");
    const running = await admitRunning(store!, threadId);
    const { run: pending } = await admit(store!, threadId, "enqueue");
    const { run, superseded } = await admit(store!, threadId, "enqueue");
    expect(superseded).toEqual([]);
    expect(run.status).toBe("pending");
    expect(await store!.getRun(running.runId)).toEqual(running);
    expect(await store!.getRun(pending.runId)).toEqual(pending);
    expect((await store!.listActiveRuns()).map((r) => r.runId)).toEqual([running.runId, pending.runId, run.runId]);
  });

  test("a taken run id is refused with INVALID_ARGUMENT and nothing is written", async ([store]) => {
    const threadId = uid("t");
    const running = await admitRunning(store!, threadId);
    const before = await snapshot(store!, threadId);
    // Even an interrupt admission must not supersede anything when it fails.
    await expectRuntimeError(
      store!.admitRun(admission(threadId, { runId: running.runId, multitaskStrategy: "interrupt" })),
      "INVALID_ARGUMENT",
    );
    expect(await snapshot(store!, threadId)).toEqual(before);
    const otherThread = uid("t");
    await expectRuntimeError(store!.admitRun(admission(otherThread, { runId: running.runId })), "INVALID_ARGUMENT");
    expect(await store!.getThread(otherThread)).toBeNull();
  });

  test("malformed admissions fail with INVALID_ARGUMENT before anything is written", async ([store]) => {
    const threadId = uid("t");
    const bad = [
      admission(threadId, { multitaskStrategy: "queue" as "enqueue" }),
      admission(threadId, { onDisconnect: "ignore" as "cancel" }),
      admission(threadId, { ifNotExists: "maybe" as "create" }),
      admission(threadId, { runId: "" }),
      admission("", {}),
      admission(threadId, { metadata: null as unknown as Record<string, unknown> }),
      admission(threadId, { kwargs: { streamMode: ["values"], input: "nul\u0000" } }),
    ];
    for (const input of bad) await expectRuntimeError(store!.admitRun(input), "INVALID_ARGUMENT");
    expect(await store!.getThread(threadId)).toBeNull();
    expect(await store!.listActiveRuns()).toEqual([]);
  });
}

/** A finished run on its own thread. */
async function admitDone(store: RunStore, threadId: string): Promise<RunRecord> {
  const run = await admitRunning(store, threadId);
  const done = await store.finishRun(run.runId, { status: "success", threadStatus: "idle" });
  if (!done) throw new Error("finishRun of a running run returned null");
  return done;
}
