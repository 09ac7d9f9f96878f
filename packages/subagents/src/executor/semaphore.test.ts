import { describe, expect, it } from "vitest";
import { Semaphore } from "./semaphore.js";

describe("Semaphore", () => {
  it("grants slots in FIFO order", async () => {
    const sem = new Semaphore(1);
    const first = await sem.acquire();
    const order: number[] = [];
    const waiters = [1, 2, 3].map((n) => sem.acquire().then((release) => { order.push(n); release(); }));
    expect(sem.waiting).toBe(3);
    first();
    await Promise.all(waiters);
    expect(order).toEqual([1, 2, 3]);
    expect(sem.active).toBe(0);
  });

  it("removes an aborted waiter from the queue", async () => {
    const sem = new Semaphore(1);
    const held = await sem.acquire();
    const controller = new AbortController();
    const waiting = sem.acquire(controller.signal);
    controller.abort(new Error("stop"));
    await expect(waiting).rejects.toThrow("stop");
    expect(sem.waiting).toBe(0);
    held();
    held();
    expect(sem.active).toBe(0);
  });

  it("rejects a limit below 1", () => {
    expect(() => new Semaphore(0)).toThrow(RangeError);
  });
});
