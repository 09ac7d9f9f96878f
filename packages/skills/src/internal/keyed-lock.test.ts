import { describe, expect, it } from "vitest";
import { KeyedLock } from "./keyed-lock.js";

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("KeyedLock", () => {
  it("runs tasks for one key one at a time in arrival order", async () => {
    const lock = new KeyedLock();
    const events: string[] = [];
    const task = (id: string) => async () => {
      events.push(`start ${id}`);
      await tick();
      await tick();
      events.push(`end ${id}`);
      return id;
    };
    const results = await Promise.all([lock.run("k", task("1")), lock.run("k", task("2")), lock.run("k", task("3"))]);
    expect(results).toEqual(["1", "2", "3"]);
    expect(events).toEqual(["start 1", "end 1", "start 2", "end 2", "start 3", "end 3"]);
  });

  it("lets different keys overlap", async () => {
    const lock = new KeyedLock();
    const events: string[] = [];
    const task = (id: string) => async () => {
      events.push(`start ${id}`);
      await tick();
      events.push(`end ${id}`);
    };
    await Promise.all([lock.run("a", task("a")), lock.run("b", task("b"))]);
    expect(events.slice(0, 2)).toEqual(["start a", "start b"]);
  });

  it("keeps going after a task rejects and forgets idle keys", async () => {
    const lock = new KeyedLock();
    const failed = lock.run("k", () => Promise.reject(new Error("boom")));
    const next = lock.run("k", () => Promise.resolve("after"));
    await expect(failed).rejects.toThrow("boom");
    await expect(next).resolves.toBe("after");
    expect(lock.size).toBe(0);
  });
});
