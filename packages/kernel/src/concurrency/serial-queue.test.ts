import { describe, expect, it } from "vitest";
import { SerialQueue } from "./serial-queue.js";

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe("SerialQueue", () => {
  it("runs tasks one at a time in call order", async () => {
    const queue = new SerialQueue();
    const log: string[] = [];
    let running = 0;
    const task = (name: string) => async () => {
      running++;
      expect(running).toBe(1);
      log.push(`start ${name}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
      log.push(`end ${name}`);
      running--;
    };
    await Promise.all([queue.run(task("a")), queue.run(task("b")), queue.run(task("c"))]);
    expect(log).toEqual(["start a", "end a", "start b", "end b", "start c", "end c"]);
  });

  it("keeps going after a task rejects or throws synchronously", async () => {
    const queue = new SerialQueue();
    const failed = queue.run(async () => {
      throw new Error("boom");
    });
    const thrown = queue.run(() => {
      throw new Error("sync");
    });
    await expect(failed).rejects.toThrow("boom");
    await expect(thrown).rejects.toThrow("sync");
    await expect(queue.run(async () => 42)).resolves.toBe(42);
  });

  it("rejects a queued task with the signal's reason when it aborts, without running it", async () => {
    const queue = new SerialQueue();
    const gate = deferred();
    const first = queue.run(() => gate.promise);
    const controller = new AbortController();
    let ran = false;
    const second = queue.run(async () => {
      ran = true;
    }, controller.signal);
    controller.abort(new Error("cancelled by caller"));
    await expect(second).rejects.toThrow("cancelled by caller");
    gate.resolve();
    await first;
    await queue.run(async () => undefined);
    expect(ran).toBe(false);
  });

  it("rejects with the configured abort error", async () => {
    const aborted = new Error("ABORTED");
    const queue = new SerialQueue({ abortError: () => aborted });
    const gate = deferred();
    const first = queue.run(() => gate.promise);
    const controller = new AbortController();
    const second = queue.run(async () => 1, controller.signal);
    controller.abort();
    await expect(second).rejects.toBe(aborted);
    await expect(queue.run(async () => 1, AbortSignal.abort())).rejects.toBe(aborted);
    gate.resolve();
    await first;
  });

  it("keeps the order behind an aborted task", async () => {
    const queue = new SerialQueue();
    const gate = deferred();
    const log: string[] = [];
    const first = queue.run(async () => {
      await gate.promise;
      log.push("first");
    });
    const controller = new AbortController();
    void queue.run(async () => undefined, controller.signal).catch(() => undefined);
    const third = queue.run(async () => {
      log.push("third");
    });
    controller.abort();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(log).toEqual([]);
    gate.resolve();
    await Promise.all([first, third]);
    expect(log).toEqual(["first", "third"]);
  });

  it("rejects at once when the signal is already aborted", async () => {
    const queue = new SerialQueue();
    await expect(queue.run(async () => 1, AbortSignal.abort(new Error("early")))).rejects.toThrow("early");
    expect(await queue.run(async () => 2)).toBe(2);
  });

  it("reports its size and calls onIdle when the last task finishes", async () => {
    let idle = 0;
    const queue = new SerialQueue({ onIdle: () => idle++ });
    const gate = deferred();
    const a = queue.run(() => gate.promise);
    const b = queue.run(async () => undefined);
    expect(queue.size).toBe(2);
    gate.resolve();
    await Promise.all([a, b]);
    expect(queue.size).toBe(0);
    expect(idle).toBe(1);
  });
});
