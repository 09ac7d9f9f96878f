/**
 * A run's `durability` (LangGraph's): `async` (default) checkpoints every
 * step, `exit` once at the end — with interrupts, resume, cancel and rollback
 * still working — and the manager's `defaultDurability`.
 */
import { randomUUID } from "node:crypto";
import { Annotation, END, interrupt, MemorySaver, START, StateGraph } from "@langchain/langgraph";
import { afterEach, describe, expect, it } from "vitest";
import type { Durability } from "../runs/types.js";
import { RunManager } from "./run-manager.js";

const State = Annotation.Root({
  log: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
  ask: Annotation<boolean>({ reducer: (_a, b) => b, default: () => false }),
});

/** Releases node `b` of the run that waits on it. */
class Gate {
  entered!: Promise<void>;
  release!: () => void;
  private enter!: () => void;
  constructor() {
    this.reset();
  }
  reset(): void {
    this.entered = new Promise((resolve) => (this.enter = resolve));
    const opened = new Promise<void>((resolve) => (this.release = resolve));
    this.wait = async (signal?: AbortSignal) => {
      this.enter();
      await new Promise<void>((resolve, reject) => {
        void opened.then(resolve);
        signal?.addEventListener("abort", () => reject(signal.reason), { once: true });
      });
    };
  }
  wait!: (signal?: AbortSignal) => Promise<void>;
}

/** `a → b → c`; `b` waits on the gate (when given) and asks for approval when `ask` is set. */
function threeSteps(checkpointer: MemorySaver, gate?: Gate) {
  return new StateGraph(State)
    .addNode("a", async () => ({ log: ["a"] }))
    .addNode("b", async (state, config) => {
      if (gate) await gate.wait(config.signal);
      const answer = state.ask ? String(interrupt("approve?")) : "auto";
      return { log: [`b:${answer}`] };
    })
    .addNode("c", async () => ({ log: ["c"] }))
    .addEdge(START, "a")
    .addEdge("a", "b")
    .addEdge("b", "c")
    .addEdge("c", END)
    .compile({ checkpointer });
}

const managers: RunManager[] = [];
afterEach(async () => {
  for (const m of managers.splice(0)) await m.shutdown({ drain: false, timeoutMs: 2_000 });
});

function setup(options: { gate?: Gate; defaultDurability?: Durability } = {}) {
  const checkpointer = new MemorySaver();
  const graph = threeSteps(checkpointer, options.gate);
  const manager = new RunManager({
    graphs: { steps: () => graph },
    checkpointer,
    ...(options.defaultDurability === undefined ? {} : { defaultDurability: options.defaultDurability }),
  });
  managers.push(manager);
  const log = async (threadId: string): Promise<string[]> =>
    ((await graph.getState({ configurable: { thread_id: threadId } })).values as { log?: string[] }).log ?? [];
  const checkpoints = async (threadId: string): Promise<number> => {
    let count = 0;
    for await (const _ of checkpointer.list({ configurable: { thread_id: threadId } })) count++;
    return count;
  };
  return { manager, checkpointer, log, checkpoints };
}

describe("RunManager durability", () => {
  it("checkpoints every step by default and once per run with exit, to the same final state", async () => {
    const { manager, log, checkpoints } = setup();
    const [steps, once] = [randomUUID(), randomUUID()];
    const a = await manager.create({ threadId: steps, assistantId: "steps", input: { log: ["in"] } });
    const b = await manager.create({
      threadId: once,
      assistantId: "steps",
      input: { log: ["in"] },
      durability: "exit",
    });
    expect(a.kwargs.durability).toBeUndefined();
    expect(b.kwargs.durability).toBe("exit");
    for (const run of [a, b]) expect((await manager.join(run.runId)).status).toBe("success");
    expect(await log(steps)).toEqual(["in", "a", "b:auto", "c"]);
    expect(await log(once)).toEqual(["in", "a", "b:auto", "c"]);
    expect(await checkpoints(steps)).toBeGreaterThanOrEqual(4);
    expect(await checkpoints(once)).toBeLessThanOrEqual(2);
  });

  it("with exit, the thread shows the run's progress only at its end", async () => {
    const gate = new Gate();
    const { manager, log } = setup({ gate });
    const threadId = randomUUID();
    const run = await manager.create({ threadId, assistantId: "steps", input: { log: ["in"] }, durability: "exit" });
    await gate.entered;
    expect(await log(threadId)).toEqual([]);
    gate.release();
    expect((await manager.join(run.runId)).status).toBe("success");
    expect(await log(threadId)).toEqual(["in", "a", "b:auto", "c"]);
  });

  it("with exit, an interrupt is saved and the thread resumes from it", async () => {
    const { manager, log } = setup();
    const threadId = randomUUID();
    const asked = await manager.create({
      threadId,
      assistantId: "steps",
      input: { log: ["in"], ask: true },
      durability: "exit",
    });
    // As on the LangGraph Platform: the run succeeded, its thread waits at the interrupt.
    expect((await manager.join(asked.runId)).status).toBe("success");
    expect((await manager.store.getThread(threadId))?.status).toBe("interrupted");
    expect(await log(threadId)).toEqual(["in", "a"]);
    const resumed = await manager.create({
      threadId,
      assistantId: "steps",
      command: { resume: "yes" },
      durability: "exit",
    });
    expect((await manager.join(resumed.runId)).status).toBe("success");
    expect(await log(threadId)).toEqual(["in", "a", "b:yes", "c"]);
  });

  it("with exit, cancelling keeps the steps done (interrupt) or restores the thread (rollback)", async () => {
    const gate = new Gate();
    const { manager, log } = setup({ gate });
    const threadId = randomUUID();
    const first = await manager.create({ threadId, assistantId: "steps", input: { log: ["one"] } });
    await gate.entered;
    gate.release();
    expect((await manager.join(first.runId)).status).toBe("success");
    const before = await log(threadId);

    gate.reset();
    const kept = await manager.create({ threadId, assistantId: "steps", input: { log: ["two"] }, durability: "exit" });
    await gate.entered;
    await manager.cancel(kept.runId, { action: "interrupt", wait: true });
    expect((await manager.get(kept.runId))?.status).toBe("interrupted");
    expect(await log(threadId)).toEqual([...before, "two", "a"]);

    gate.reset();
    const undone = await manager.create({
      threadId,
      assistantId: "steps",
      input: { log: ["three"] },
      durability: "exit",
    });
    await gate.entered;
    await manager.cancel(undone.runId, { action: "rollback", wait: true });
    expect(await log(threadId)).toEqual([...before, "two", "a"]);
  });

  it("applies the manager's defaultDurability to runs that set none, and checks both", async () => {
    const { manager, checkpoints } = setup({ defaultDurability: "exit" });
    const [byDefault, own] = [randomUUID(), randomUUID()];
    const a = await manager.create({ threadId: byDefault, assistantId: "steps", input: { log: ["in"] } });
    const b = await manager.create({ threadId: own, assistantId: "steps", input: { log: ["in"] }, durability: "sync" });
    expect(a.kwargs.durability).toBe("exit");
    expect(b.kwargs.durability).toBe("sync");
    for (const run of [a, b]) expect((await manager.join(run.runId)).status).toBe("success");
    expect(await checkpoints(byDefault)).toBeLessThanOrEqual(2);
    expect(await checkpoints(own)).toBeGreaterThanOrEqual(4);
    await expect(
      manager.create({ threadId: randomUUID(), assistantId: "steps", durability: "later" as Durability }),
    ).rejects.toMatchObject({ code: "INVALID_ARGUMENT", message: expect.stringContaining('"later"') });
    expect(() => new RunManager({ graphs: {}, defaultDurability: "never" as Durability })).toThrow(
      expect.objectContaining({ code: "CONFIG_INVALID" }),
    );
  });
});
