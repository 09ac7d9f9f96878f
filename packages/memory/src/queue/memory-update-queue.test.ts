import { HumanMessage } from "@langchain/core/messages";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { MemoryQueueItem } from "./memory-update-queue.js";
import { MemoryUpdateQueue } from "./memory-update-queue.js";

const alice = { userId: "alice" };
const msgs = (text: string) => [new HumanMessage(text)];

function recorder(options: { debounceMs?: number; maxDepth?: number; interItemDelayMs?: number } = {}) {
  const seen: MemoryQueueItem[] = [];
  const queue = new MemoryUpdateQueue({
    debounceMs: 1000,
    interItemDelayMs: 0,
    ...options,
    process: async (item) => {
      seen.push(item);
    },
  });
  return { queue, seen };
}

describe("MemoryUpdateQueue", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("coalesces two adds of one thread and agent: the latest messages win, signals merge", async () => {
    const { queue, seen } = recorder();
    queue.add("t1", alice, msgs("first"), { signals: ["correction"] });
    queue.add("t1", alice, msgs("second"), { signals: ["reinforcement"] });
    expect(queue.size).toBe(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.messages[0]?.content).toBe("second");
    expect([...(seen[0]?.signals ?? [])].sort()).toEqual(["correction", "reinforcement"]);
  });

  it("keeps different agents, users and threads apart", async () => {
    const { queue, seen } = recorder();
    queue.add("t1", alice, msgs("a"));
    queue.add("t1", { userId: "alice", agentName: "coder" }, msgs("b"));
    queue.add("t1", { userId: "bob" }, msgs("c"));
    queue.add("t2", alice, msgs("d"));
    await vi.advanceTimersByTimeAsync(1000);
    expect(seen.map((i) => i.messages[0]?.content)).toEqual(["a", "b", "c", "d"]);
  });

  it("restarts the one debounce timer on every add", async () => {
    const { queue, seen } = recorder();
    queue.add("t1", alice, msgs("a"));
    await vi.advanceTimersByTimeAsync(900);
    queue.add("t2", alice, msgs("b"));
    await vi.advanceTimersByTimeAsync(900);
    expect(seen).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(100);
    expect(seen).toHaveLength(2);
  });

  it("fires at once for an immediate add", async () => {
    const { queue, seen } = recorder({ debounceMs: 60_000 });
    queue.add("t1", alice, msgs("a"), { immediate: true });
    await vi.advanceTimersByTimeAsync(0);
    expect(seen).toHaveLength(1);
  });

  it("refuses a new conversation on a full queue unless it carries a signal; a pending key is always replaced", async () => {
    const { queue } = recorder({ maxDepth: 2 });
    queue.add("t1", alice, msgs("a"));
    queue.add("t2", alice, msgs("b"));
    expect(() => queue.add("t3", alice, msgs("c"))).toThrow(expect.objectContaining({ code: "QUEUE_FULL" }));
    queue.add("t1", alice, msgs("a2"));
    queue.add("t3", alice, msgs("c"), { signals: ["correction"] });
    expect(queue.size).toBe(3);
  });

  it("waits interItemDelayMs between items while draining", async () => {
    const { queue, seen } = recorder({ interItemDelayMs: 500 });
    queue.add("t1", alice, msgs("a"));
    queue.add("t2", alice, msgs("b"));
    await vi.advanceTimersByTimeAsync(1000);
    expect(seen).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(500);
    expect(seen).toHaveLength(2);
  });

  it("drops a failing item and goes on with the next", async () => {
    const seen: string[] = [];
    const queue = new MemoryUpdateQueue({
      debounceMs: 10,
      interItemDelayMs: 0,
      process: async (item) => {
        if (item.threadId === "bad") throw new Error("model down");
        seen.push(item.threadId);
      },
    });
    queue.add("bad", alice, msgs("a"));
    queue.add("good", alice, msgs("b"));
    await vi.advanceTimersByTimeAsync(10);
    expect(seen).toEqual(["good"]);
  });

  it("runs again after the current drain when the timer fires meanwhile", async () => {
    let release: () => void = () => {};
    const seen: string[] = [];
    const queue = new MemoryUpdateQueue({
      debounceMs: 10,
      interItemDelayMs: 0,
      process: async (item) => {
        seen.push(item.threadId);
        if (item.threadId === "slow") await new Promise<void>((r) => (release = r));
      },
    });
    queue.add("slow", alice, msgs("a"));
    await vi.advanceTimersByTimeAsync(10);
    queue.add("later", alice, msgs("b"));
    await vi.advanceTimersByTimeAsync(10);
    expect(seen).toEqual(["slow"]);
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect(seen).toEqual(["slow", "later"]);
  });
});

describe("MemoryUpdateQueue.close", () => {
  it("drains everything pending without the pauses, then refuses adds", async () => {
    const seen: string[] = [];
    const queue = new MemoryUpdateQueue({
      debounceMs: 3_600_000,
      interItemDelayMs: 3_600_000,
      process: async (item) => {
        seen.push(item.threadId);
      },
    });
    queue.add("t1", alice, msgs("a"));
    queue.add("t2", alice, msgs("b"));
    await queue.close(10_000);
    expect(seen).toEqual(["t1", "t2"]);
    expect(() => queue.add("t3", alice, msgs("c"))).toThrow(expect.objectContaining({ code: "QUEUE_CLOSED" }));
  });

  it("aborts the item in flight at the deadline and drops the rest", async () => {
    let aborted = false;
    const queue = new MemoryUpdateQueue({
      debounceMs: 3_600_000,
      process: (_item, signal) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener("abort", () => {
            aborted = true;
            reject(signal.reason);
          });
        }),
    });
    queue.add("t1", alice, msgs("a"));
    queue.add("t2", alice, msgs("b"));
    await queue.close(50);
    expect(aborted).toBe(true);
    expect(queue.size).toBe(0);
  });

  it("flush processes now and waits", async () => {
    const { queue, seen } = recorder({ debounceMs: 3_600_000 });
    queue.add("t1", alice, msgs("a"));
    await queue.flush();
    expect(seen).toHaveLength(1);
  });

  it("rejects negative or fractional settings", () => {
    expect(() => new MemoryUpdateQueue({ process: async () => {}, debounceMs: -1 })).toThrow(/debounceMs/);
    expect(() => new MemoryUpdateQueue({ process: async () => {}, maxDepth: 1.5 })).toThrow(/maxDepth/);
  });
});
