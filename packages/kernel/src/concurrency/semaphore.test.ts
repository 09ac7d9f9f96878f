import { describe, expect, it } from "vitest";
import { Semaphore } from "./semaphore.js";

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("Semaphore", () => {
  it("grants slots in FIFO order", async () => {
    const sem = new Semaphore(1);
    const first = await sem.acquire();
    const order: number[] = [];
    const waiters = [1, 2, 3].map((n) =>
      sem.acquire().then((release) => {
        order.push(n);
        release();
      }),
    );
    expect(sem.waiting).toBe(3);
    first();
    await Promise.all(waiters);
    expect(order).toEqual([1, 2, 3]);
    expect(sem.active).toBe(0);
  });

  it("does not let a newcomer jump the queue when a slot is released", async () => {
    const sem = new Semaphore(1);
    const first = await sem.acquire();
    const order: string[] = [];
    const queued = sem.acquire().then((release) => {
      order.push("queued");
      release();
    });
    first();
    const newcomer = sem.acquire().then((release) => {
      order.push("newcomer");
      release();
    });
    await Promise.all([queued, newcomer]);
    expect(order).toEqual(["queued", "newcomer"]);
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

  it("rejects at once with an already aborted signal", async () => {
    const sem = new Semaphore(2);
    await expect(sem.acquire(AbortSignal.abort(new Error("gone")))).rejects.toThrow("gone");
    expect(sem.active).toBe(0);
  });

  it("rejects a limit that is not an integer >= 1", () => {
    expect(() => new Semaphore(0)).toThrow(RangeError);
    expect(() => new Semaphore(1.5)).toThrow(RangeError);
  });

  describe("run", () => {
    it("never runs more than the limit at once", async () => {
      const sem = new Semaphore(3);
      let active = 0;
      let peak = 0;
      await Promise.all(
        Array.from({ length: 20 }, () =>
          sem.run(async () => {
            active++;
            peak = Math.max(peak, active);
            await tick();
            active--;
          }),
        ),
      );
      expect(peak).toBe(3);
      expect(sem.active).toBe(0);
    });

    it("starts waiting tasks in FIFO order", async () => {
      const sem = new Semaphore(1);
      const order: number[] = [];
      await Promise.all([1, 2, 3].map((n) => sem.run(async () => void order.push(n))));
      expect(order).toEqual([1, 2, 3]);
    });

    it("passes results and rejections through and frees the slot, also for a synchronous throw", async () => {
      const sem = new Semaphore(1);
      await expect(sem.run(async () => Promise.reject(new Error("x")))).rejects.toThrow("x");
      await expect(
        sem.run(() => {
          throw new Error("sync");
        }),
      ).rejects.toThrow("sync");
      expect(await sem.run(async () => 7)).toBe(7);
      expect(sem.active).toBe(0);
    });
  });
});
