/**
 * The shared tracked view of a saver: one object per saver, write counts per
 * thread, and `idle(threadId)` waiting for that thread's writes only.
 */
import { MemorySaver } from "@langchain/langgraph-checkpoint";
import { describe, expect, it } from "vitest";
import { trackCheckpointerWrites } from "./tracked-checkpointer.js";

/** A saver whose `putWrites` settle when the test says so. */
class GatedSaver extends MemorySaver {
  readonly gates: (() => void)[] = [];
  override async putWrites(...args: Parameters<MemorySaver["putWrites"]>): Promise<void> {
    await new Promise<void>((resolve) => this.gates.push(resolve));
    return super.putWrites(...args);
  }
}

const config = (threadId: string) => ({
  configurable: { thread_id: threadId, checkpoint_ns: "", checkpoint_id: "c1" },
});

describe("trackCheckpointerWrites", () => {
  it("returns the same view (and the same methods) for the same saver", () => {
    const saver = new MemorySaver();
    const view = trackCheckpointerWrites(saver);
    expect(trackCheckpointerWrites(saver)).toBe(view);
    expect(view.checkpointer.getTuple).toBe(view.checkpointer.getTuple);
    expect(trackCheckpointerWrites(new MemorySaver())).not.toBe(view);
  });

  it("idle(thread) waits for that thread's writes in flight, not for another thread's", async () => {
    const saver = new GatedSaver();
    const { checkpointer, idle } = trackCheckpointerWrites(saver);
    const a = checkpointer.putWrites(config("a"), [["x", 1]], "task");
    const b = checkpointer.putWrites(config("b"), [["x", 2]], "task");
    let aIdle = false;
    const waitA = idle("a").then(() => (aIdle = true));
    // Thread b's write is still gated, thread a's too: a is not idle yet, c (no writes) is.
    await idle("c");
    expect(aIdle).toBe(false);
    saver.gates[0]!();
    await a;
    await waitA;
    expect(aIdle).toBe(true);
    let bIdle = false;
    const waitB = idle("b").then(() => (bIdle = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(bIdle).toBe(false);
    saver.gates[1]!();
    await Promise.all([b, waitB]);
    expect(bIdle).toBe(true);
  });

  it("idle waits for a write chained right after the previous one settled", async () => {
    const saver = new GatedSaver();
    const { checkpointer, idle } = trackCheckpointerWrites(saver);
    const first = checkpointer.putWrites(config("t"), [["x", 1]], "task");
    // Like LangGraph's loop: the next write starts as soon as the previous one settles.
    const chained = first.then(() => checkpointer.putWrites(config("t"), [["x", 2]], "task"));
    let idleNow = false;
    const waiting = idle("t").then(() => (idleNow = true));
    saver.gates[0]!();
    await first;
    await new Promise((resolve) => setImmediate(resolve));
    expect(idleNow).toBe(false);
    saver.gates[1]!();
    await Promise.all([chained, waiting]);
    expect(idleNow).toBe(true);
  });
});
