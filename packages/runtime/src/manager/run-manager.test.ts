import { randomUUID } from "node:crypto";
import { MemorySaver } from "@langchain/langgraph";
import { afterEach, describe, expect, it } from "vitest";
import { LocalCoordinationHub, LocalRunCoordinator } from "../coordination/local-run-coordinator.js";
import { RuntimeError } from "../errors.js";
import { RunManager } from "./run-manager.js";
import type { RunManagerOptions } from "./run-manager-options.js";
import { MemoryRunStore } from "../runs/memory-run-store.js";
import { MemoryStreamBridge } from "../stream/memory-stream-bridge.js";
import type { StreamItem } from "../stream/stream-bridge.js";
import { Trace, buildWorkGraph, workGraphFactory } from "../../test/support/manager/graphs.js";

const managers: RunManager[] = [];
afterEach(async () => {
  for (const m of managers.splice(0)) await m.shutdown({ drain: false, timeoutMs: 2_000 });
});

function makeManager(extra: Partial<RunManagerOptions> = {}, trace = new Trace()) {
  const checkpointer = new MemorySaver();
  const manager = new RunManager({ graphs: { work: workGraphFactory(trace) }, checkpointer, ...extra });
  managers.push(manager);
  return { manager, checkpointer, trace };
}

async function collect(items: AsyncIterable<StreamItem>): Promise<StreamItem[]> {
  const out: StreamItem[] = [];
  for await (const item of items) {
    if (item.kind !== "heartbeat") out.push(item);
    if (item.kind === "end" || item.kind === "gap") break;
  }
  return out;
}

function events(items: StreamItem[]): string[] {
  return items.map((i) => (i.kind === "event" ? i.event : i.kind));
}

async function stateOf(checkpointer: MemorySaver, threadId: string): Promise<string[]> {
  const state = await buildWorkGraph(checkpointer).getState({ configurable: { thread_id: threadId } });
  return (state.values as { log?: string[] }).log ?? [];
}

/** Waits until the run has started executing (its first custom event). */
async function started(manager: RunManager, runId: string): Promise<void> {
  for await (const item of manager.stream(runId)) if (item.kind === "event" && item.event === "custom") return;
}

describe("RunManager on one instance", () => {
  it("runs a graph in the background and streams metadata first, then events, then end", async () => {
    const { manager, checkpointer } = makeManager();
    const threadId = randomUUID();
    const run = await manager.create({
      threadId,
      assistantId: "work",
      input: { log: ["a"] },
      streamMode: ["values", "custom"],
    });
    expect(run.status).toBe("pending");
    const items = await collect(manager.stream(run.runId));
    expect(events(items)[0]).toBe("metadata");
    expect(events(items)).toContain("custom");
    expect(events(items).at(-1)).toBe("end");
    const meta = items[0] as { data: Record<string, unknown> };
    expect(meta.data).toMatchObject({ run_id: run.runId, thread_id: threadId });
    const final = await manager.join(run.runId);
    expect(final.status).toBe("success");
    expect(final.startedAt).not.toBeNull();
    expect((await manager.store.getThread(threadId))?.status).toBe("idle");
    expect(await stateOf(checkpointer, threadId)).toEqual(["a", "done:a"]);
  });

  it("hands the graph factory the same checkpointer on every run, so a graph compiled for it is compiled once", async () => {
    const checkpointer = new MemorySaver();
    const seen = new Set<unknown>();
    const compiled = new Map<unknown, ReturnType<typeof buildWorkGraph>>();
    let compiles = 0;
    const manager = new RunManager({
      graphs: {
        work: ({ checkpointer: saver }) => {
          seen.add(saver);
          let graph = compiled.get(saver);
          if (graph === undefined) {
            compiles++;
            graph = buildWorkGraph(saver);
            compiled.set(saver, graph);
          }
          return graph;
        },
      },
      checkpointer,
    });
    managers.push(manager);
    const threads = [randomUUID(), randomUUID()];
    for (const threadId of [...threads, threads[0]!]) {
      const run = await manager.create({ threadId, assistantId: "work", input: { log: [threadId] } });
      expect((await manager.join(run.runId)).status).toBe("success");
    }
    expect(seen.size).toBe(1);
    expect(compiles).toBe(1);
    // The view writes through to the manager's saver (what the state routes and rollback read).
    const t = threads[0]!;
    expect(await stateOf(checkpointer, t)).toEqual([t, `done:${t}`, t, `done:${t}`]);
  });

  it("status is terminal before the stream ends", async () => {
    const { manager } = makeManager();
    const run = await manager.create({ threadId: randomUUID(), assistantId: "work", input: { log: ["a"] } });
    await collect(manager.stream(run.runId));
    expect((await manager.get(run.runId))?.status).toBe("success");
  });

  it("rejects a second run on a busy thread under `reject` and leaves the first untouched", async () => {
    const { manager } = makeManager();
    const threadId = randomUUID();
    const first = await manager.create({ threadId, assistantId: "work", input: { log: ["a"], delayMs: 300 } });
    const err = await manager.create({ threadId, assistantId: "work", input: { log: ["b"] } }).catch((e: unknown) => e);
    expect(RuntimeError.isInstance(err) && err.code).toBe("THREAD_BUSY");
    expect((await manager.join(first.runId)).status).toBe("success");
    expect(await manager.list(threadId)).toHaveLength(1);
  });

  it("`interrupt` stops the running run and the new one continues from its checkpointed state", async () => {
    const { manager, checkpointer } = makeManager();
    const threadId = randomUUID();
    const first = await manager.create({
      threadId,
      assistantId: "work",
      input: { log: ["a"], delayMs: 60_000 },
      streamMode: "custom",
    });
    await started(manager, first.runId);
    const second = await manager.create({
      threadId,
      assistantId: "work",
      input: { log: ["b"], delayMs: 0 },
      multitaskStrategy: "interrupt",
    });
    expect((await manager.join(second.runId)).status).toBe("success");
    expect((await manager.get(first.runId))?.status).toBe("interrupted");
    // The interrupted run's input was checkpointed; its node never completed.
    expect(await stateOf(checkpointer, threadId)).toEqual(["a", "b", "done:b"]);
  });

  it("`rollback` undoes the running run before the new one starts", async () => {
    const { manager, checkpointer } = makeManager();
    const threadId = randomUUID();
    const zero = await manager.create({ threadId, assistantId: "work", input: { log: ["z"] } });
    await manager.join(zero.runId);
    const first = await manager.create({
      threadId,
      assistantId: "work",
      input: { log: ["a"], delayMs: 60_000 },
      streamMode: "custom",
    });
    await started(manager, first.runId);
    const second = await manager.create({
      threadId,
      assistantId: "work",
      input: { log: ["b"], delayMs: 0 },
      multitaskStrategy: "rollback",
    });
    expect((await manager.join(second.runId)).status).toBe("success");
    const old = await manager.get(first.runId);
    expect(old?.status).toBe("error");
    expect(old?.error).toBe("Rolled back by user");
    expect(await stateOf(checkpointer, threadId)).toEqual(["z", "done:z", "b", "done:b"]);
  });

  it("`enqueue` runs one thread's runs one at a time in creation order", async () => {
    const { manager, trace } = makeManager();
    const threadId = randomUUID();
    const runs = [];
    for (const label of ["1", "2", "3", "4"]) {
      runs.push(
        await manager.create({
          threadId,
          assistantId: "work",
          input: { log: [label], delayMs: 20 },
          multitaskStrategy: "enqueue",
        }),
      );
    }
    for (const run of runs) expect((await manager.join(run.runId)).status).toBe("success");
    expect(trace.events).toEqual(["start:1", "end:1", "start:2", "end:2", "start:3", "end:3", "start:4", "end:4"]);
    expect(trace.maxActive).toBe(1);
  });

  it("cancel interrupts, is idempotent, and waits when asked", async () => {
    const { manager } = makeManager();
    const threadId = randomUUID();
    const run = await manager.create({
      threadId,
      assistantId: "work",
      input: { log: ["a"], delayMs: 60_000 },
      streamMode: "custom",
    });
    await started(manager, run.runId);
    expect(await manager.cancel(run.runId, { wait: true })).toBe("cancelled");
    expect((await manager.get(run.runId))?.status).toBe("interrupted");
    expect(await manager.cancel(run.runId)).toBe("cancelled");
    // The thread is usable afterwards.
    const next = await manager.create({ threadId, assistantId: "work", input: { log: ["b"], delayMs: 0 } });
    expect((await manager.join(next.runId)).status).toBe("success");
  });

  it("cancel with rollback restores the thread to its checkpoint from before the run", async () => {
    const { manager, checkpointer } = makeManager();
    const threadId = randomUUID();
    await manager.join((await manager.create({ threadId, assistantId: "work", input: { log: ["z"] } })).runId);
    const run = await manager.create({
      threadId,
      assistantId: "work",
      input: { log: ["a"], delayMs: 60_000 },
      streamMode: "custom",
    });
    await started(manager, run.runId);
    expect(await stateOf(checkpointer, threadId)).toEqual(["z", "done:z", "a"]);
    await manager.cancel(run.runId, { action: "rollback", wait: true });
    expect(await stateOf(checkpointer, threadId)).toEqual(["z", "done:z"]);
    expect(await manager.cancel(run.runId, { action: "rollback" })).toBe("cancelled");
  });

  it("rollback of a thread's first run leaves the thread empty", async () => {
    const { manager, checkpointer } = makeManager();
    const threadId = randomUUID();
    const run = await manager.create({
      threadId,
      assistantId: "work",
      input: { log: ["a"], delayMs: 60_000 },
      streamMode: "custom",
    });
    await started(manager, run.runId);
    await manager.cancel(run.runId, { action: "rollback", wait: true });
    expect(await stateOf(checkpointer, threadId)).toEqual([]);
  });

  it("cancelling a pending run ends it without running it and ends its stream", async () => {
    const { manager, trace } = makeManager();
    const threadId = randomUUID();
    const first = await manager.create({
      threadId,
      assistantId: "work",
      input: { log: ["a"], delayMs: 200 },
      multitaskStrategy: "enqueue",
    });
    const second = await manager.create({
      threadId,
      assistantId: "work",
      input: { log: ["b"] },
      multitaskStrategy: "enqueue",
    });
    expect(await manager.cancel(second.runId)).toBe("cancelled");
    expect(events(await collect(manager.stream(second.runId)))).toEqual(["end"]);
    expect((await manager.join(first.runId)).status).toBe("success");
    expect((await manager.get(second.runId))?.status).toBe("interrupted");
    expect(trace.events).not.toContain("start:b");
  });

  it("a finished run cannot be cancelled, an unknown one is not found", async () => {
    const { manager } = makeManager();
    const run = await manager.create({ threadId: randomUUID(), assistantId: "work", input: { log: ["a"] } });
    await manager.join(run.runId);
    await expect(manager.cancel(run.runId)).rejects.toMatchObject({ code: "NOT_CANCELLABLE" });
    await expect(manager.cancel(randomUUID())).rejects.toMatchObject({ code: "RUN_NOT_FOUND" });
  });

  it("a run past its timeout ends with status timeout", async () => {
    const { manager } = makeManager();
    const run = await manager.create({
      threadId: randomUUID(),
      assistantId: "work",
      input: { log: ["a"], delayMs: 60_000 },
      timeoutMs: 100,
    });
    const final = await manager.join(run.runId);
    expect(final.status).toBe("timeout");
    expect(final.error).toMatch(/timeout/i);
  });

  it("a failing graph publishes an error event, ends `error`, and the thread stays usable", async () => {
    const { manager } = makeManager();
    const threadId = randomUUID();
    const run = await manager.create({ threadId, assistantId: "work", input: { log: ["a"], fail: "Boo!" } });
    const items = await collect(manager.stream(run.runId));
    const error = items.find((i) => i.kind === "event" && i.event === "error");
    expect(error).toMatchObject({ data: { message: "Boo!" } });
    expect(events(items).at(-1)).toBe("end");
    expect((await manager.get(run.runId))?.status).toBe("error");
    expect((await manager.store.getThread(threadId))?.status).toBe("error");
    const next = await manager.create({ threadId, assistantId: "work", input: { log: ["b"], fail: null } });
    expect((await manager.join(next.runId)).status).toBe("success");
  });

  it("runs the graph of graphId while recording the assistant id (a user-created assistant of a graph)", async () => {
    const { manager, checkpointer } = makeManager();
    const threadId = randomUUID();
    const run = await manager.create({
      threadId,
      assistantId: "stored-assistant",
      graphId: "work",
      input: { log: ["s"] },
    });
    expect(run.assistantId).toBe("stored-assistant");
    expect((await manager.join(run.runId)).status).toBe("success");
    expect(await stateOf(checkpointer, threadId)).toContain("s");
    await expect(manager.create({ threadId, assistantId: "work", graphId: "nope" })).rejects.toMatchObject({
      code: "ASSISTANT_NOT_FOUND",
    });
  });

  it("validates input before admitting anything", async () => {
    const { manager } = makeManager();
    const threadId = randomUUID();
    await expect(manager.create({ threadId, assistantId: "nope" })).rejects.toMatchObject({
      code: "ASSISTANT_NOT_FOUND",
    });
    await expect(manager.create({ threadId, assistantId: "work", streamMode: ["events"] })).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
    });
    await expect(manager.create({ threadId, assistantId: "work", timeoutMs: -1 })).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
    });
    await expect(manager.create({ threadId, assistantId: "work", ifNotExists: "reject" })).rejects.toMatchObject({
      code: "THREAD_NOT_FOUND",
    });
    expect(await manager.store.getThread(threadId)).toBeNull();
  });

  it("removes finished runs after the retention period", async () => {
    const { manager } = makeManager({ retentionMs: 50, sweepIntervalMs: 30 });
    const run = await manager.create({ threadId: randomUUID(), assistantId: "work", input: { log: ["a"] } });
    await manager.join(run.runId);
    for (let i = 0; i < 100 && (await manager.get(run.runId)); i++) await new Promise((r) => setTimeout(r, 30));
    expect(await manager.get(run.runId)).toBeNull();
  });

  it("streaming a finished run whose stream expired yields only end", async () => {
    const { manager } = makeManager({ streamRetentionMs: 0 });
    const run = await manager.create({ threadId: randomUUID(), assistantId: "work", input: { log: ["a"] } });
    await manager.join(run.runId);
    for (let i = 0; i < 50 && (await manager.bridge.exists(run.runId)); i++)
      await new Promise((r) => setTimeout(r, 10));
    expect(events(await collect(manager.stream(run.runId)))).toEqual(["end"]);
  });

  it("runs 100 runs on 100 threads concurrently", async () => {
    const { manager } = makeManager();
    const runs = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        manager.create({ threadId: randomUUID(), assistantId: "work", input: { log: [`r${i}`], delayMs: 5 } }),
      ),
    );
    const finals = await Promise.all(runs.map((r) => manager.join(r.runId)));
    expect(finals.every((r) => r.status === "success")).toBe(true);
  });

  it("shutdown interrupts what does not finish in time and refuses new runs", async () => {
    const { manager } = makeManager({ store: new MemoryRunStore() });
    const run = await manager.create({
      threadId: randomUUID(),
      assistantId: "work",
      input: { log: ["a"], delayMs: 60_000 },
      streamMode: "custom",
    });
    await started(manager, run.runId);
    await manager.shutdown({ timeoutMs: 50 });
    expect((await manager.get(run.runId))?.status).toBe("interrupted");
    await expect(manager.create({ threadId: randomUUID(), assistantId: "work" })).rejects.toMatchObject({
      code: "SHUTTING_DOWN",
    });
  });
});

describe("RunManager.deleteThread", () => {
  it("keeps the thread when deleting its checkpoints fails, so a retry deletes both", async () => {
    const { manager, checkpointer } = makeManager();
    const threadId = randomUUID();
    const run = await manager.create({ threadId, assistantId: "work", input: { log: ["a"] } });
    await manager.join(run.runId);
    expect(await stateOf(checkpointer, threadId)).not.toEqual([]);
    const realDelete = checkpointer.deleteThread.bind(checkpointer);
    let failures = 1;
    checkpointer.deleteThread = async (id: string) => {
      if (failures-- > 0) throw new Error("checkpoint store unavailable");
      return realDelete(id);
    };
    await expect(manager.deleteThread(threadId)).rejects.toThrow("checkpoint store unavailable");
    expect(await manager.store.getThread(threadId)).not.toBeNull();
    expect(await manager.deleteThread(threadId)).toBe(true);
    expect(await manager.store.getThread(threadId)).toBeNull();
    expect(await stateOf(checkpointer, threadId)).toEqual([]);
    expect(await manager.deleteThread(threadId)).toBe(false);
  });
});

describe("RunManager across instances sharing a store, bridge and coordination hub", () => {
  function pair(leaseMs = 30_000, options: { sweepIntervalMs?: number; withoutLeaseOf?: boolean } = {}) {
    const store = new MemoryRunStore();
    const bridge = new MemoryStreamBridge();
    const hub = new LocalCoordinationHub();
    const checkpointer = new MemorySaver();
    const make = () => {
      const coordinator = new LocalRunCoordinator({ hub, leaseMs });
      // A coordinator that cannot tell how long a lease has left (leaseOf is optional).
      if (options.withoutLeaseOf === true) (coordinator as { leaseOf?: unknown }).leaseOf = undefined;
      const manager = new RunManager({
        graphs: { work: workGraphFactory() },
        store,
        bridge,
        checkpointer,
        coordinator,
        sweepIntervalMs: options.sweepIntervalMs ?? 100,
        maxStartPollMs: 20,
      });
      managers.push(manager);
      return { manager, coordinator };
    };
    return { a: make(), b: make(), checkpointer, hub };
  }

  /** Bounds a wait that must end well before the test's own timeout, so a hang fails with a message. */
  function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>(
      (_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms)),
    );
    return Promise.race([promise, late]).finally(() => clearTimeout(timer));
  }

  it("a run created on A is streamed, joined and cancelled through B", async () => {
    const { a, b } = pair();
    const run = await a.manager.create({
      threadId: randomUUID(),
      assistantId: "work",
      input: { log: ["a"], delayMs: 60_000 },
      streamMode: "custom",
    });
    await started(b.manager, run.runId);
    const streamed = collect(b.manager.stream(run.runId));
    expect(await b.manager.cancel(run.runId)).toBe("requested");
    expect((await b.manager.join(run.runId)).status).toBe("interrupted");
    expect(events(await streamed).at(-1)).toBe("end");
    expect(a.manager.localRunCount).toBe(0);
  });

  it("recovers the runs of an instance that stopped renewing its leases", async () => {
    const { a, b } = pair(300);
    const run = await a.manager.create({
      threadId: randomUUID(),
      assistantId: "work",
      input: { log: ["a"], delayMs: 60_000 },
      streamMode: "custom",
    });
    await started(b.manager, run.runId);
    const streamed = collect(b.manager.stream(run.runId));
    await a.coordinator.close({ abandon: true }); // A "dies": its lease is no longer renewed
    await b.manager.start();
    const final = await b.manager.join(run.runId);
    expect(final.status).toBe("error");
    expect(final.stopReason).toBe("orphan_recovered");
    expect(events(await streamed).at(-1)).toBe("end");
  });

  it("recovers an orphan as soon as its lease expires, not at the next sweep", async () => {
    // The periodic sweep (every 10 min) cannot be what recovers it within the bound below.
    const { a, b, hub } = pair(400, { sweepIntervalMs: 600_000 });
    const run = await a.manager.create({
      threadId: randomUUID(),
      assistantId: "work",
      input: { log: ["a"], delayMs: 60_000 },
      streamMode: "custom",
    });
    await started(b.manager, run.runId);
    await b.manager.start(); // sees the run owned by A, with the time left on its lease
    const expiresAt = performance.now() + (hub.leaseOf(run.runId)?.expiresInMs ?? 0);
    await a.coordinator.close({ abandon: true });
    const final = await within(b.manager.join(run.runId), 20_000, "recovery of the orphan");
    expect(final.stopReason).toBe("orphan_recovered");
    // A generous upper bound (a loaded machine); the next sweep would have been 10 min away.
    expect(performance.now() - expiresAt).toBeLessThan(5_000);
  });

  it("without leaseOf, the sweep recovers an orphan within one sweep interval of its lease's expiry", async () => {
    const sweepIntervalMs = 300;
    const { a, b, hub } = pair(400, { sweepIntervalMs, withoutLeaseOf: true });
    const run = await a.manager.create({
      threadId: randomUUID(),
      assistantId: "work",
      input: { log: ["a"], delayMs: 60_000 },
      streamMode: "custom",
    });
    await started(b.manager, run.runId);
    await b.manager.start();
    const expiresAt = performance.now() + (hub.leaseOf(run.runId)?.expiresInMs ?? 0);
    await a.coordinator.close({ abandon: true });
    const final = await within(b.manager.join(run.runId), 20_000, "recovery of the orphan");
    expect(final.stopReason).toBe("orphan_recovered");
    // One sweep interval after the expiry, plus a generous allowance for a loaded machine.
    expect(performance.now() - expiresAt).toBeLessThan(sweepIntervalMs + 3_000);
  });
});
