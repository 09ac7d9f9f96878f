import { describe, expect, it } from "vitest";
import { KeyedLock } from "./keyed-lock.js";

const ticks = async (n: number): Promise<void> => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe("KeyedLock", () => {
  it("runs holders of one key one at a time, in call order, passing results through", async () => {
    const lock = new KeyedLock();
    const log: string[] = [];
    const job = (name: string) => async () => {
      log.push(`${name}:start`);
      await ticks(3);
      log.push(`${name}:end`);
      return name;
    };
    const results = await Promise.all([lock.run("k", job("a")), lock.run("k", job("b")), lock.run("k", job("c"))]);
    expect(results).toEqual(["a", "b", "c"]);
    expect(log).toEqual(["a:start", "a:end", "b:start", "b:end", "c:start", "c:end"]);
  });

  it("lets different keys overlap", async () => {
    const lock = new KeyedLock();
    const events: string[] = [];
    const task = (id: string) => async () => {
      events.push(`start ${id}`);
      await ticks(1);
      events.push(`end ${id}`);
    };
    await Promise.all([lock.run("a", task("a")), lock.run("b", task("b"))]);
    expect(events.slice(0, 2)).toEqual(["start a", "start b"]);
  });

  it("does not make a key wait for a held other key", async () => {
    const lock = new KeyedLock();
    let release: () => void = () => {};
    const held = lock.run("a", () => new Promise<void>((resolve) => (release = resolve)));
    await expect(lock.run("b", async () => "b")).resolves.toBe("b");
    release();
    await held;
  });

  it("releases the key when the holder rejects", async () => {
    const lock = new KeyedLock();
    const failed = lock.run("k", () => Promise.reject(new Error("boom")));
    const next = lock.run("k", () => Promise.resolve("after"));
    await expect(failed).rejects.toThrow("boom");
    await expect(next).resolves.toBe("after");
  });

  it("forgets keys nobody holds", async () => {
    const lock = new KeyedLock();
    const running = Promise.all([
      lock.run("x", () => ticks(1)),
      lock.run("y", () => ticks(1)),
      lock.run("x", () => ticks(1)),
    ]);
    expect(lock.size).toBe(2);
    await running;
    expect(lock.size).toBe(0);
  });

  it("cancels a queued holder with the configured abort error and keeps the key's order", async () => {
    const aborted = new Error("ABORTED");
    const lock = new KeyedLock({ abortError: () => aborted });
    const log: string[] = [];
    let release: () => void = () => {};
    const first = lock.run("k", () =>
      new Promise<void>((resolve) => (release = resolve)).then(() => void log.push("first")),
    );
    const controller = new AbortController();
    const cancelled = lock.run("k", async () => void log.push("cancelled"), controller.signal);
    const third = lock.run("k", async () => void log.push("third"));
    controller.abort();
    await expect(cancelled).rejects.toBe(aborted);
    release();
    await Promise.all([first, third]);
    expect(log).toEqual(["first", "third"]);
    expect(lock.size).toBe(0);
  });
});
