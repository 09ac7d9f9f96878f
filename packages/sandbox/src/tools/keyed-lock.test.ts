import { describe, expect, it } from "vitest";
import { KeyedLock, fileLockKey } from "./keyed-lock.js";

const ticks = async (n: number): Promise<void> => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe("KeyedLock", () => {
  it("runs holders of one key one at a time, in call order", async () => {
    const lock = new KeyedLock();
    const log: string[] = [];
    const job = (name: string) => async () => {
      log.push(`${name}:start`);
      await ticks(3);
      log.push(`${name}:end`);
    };
    await Promise.all([lock.run("k", job("a")), lock.run("k", job("b")), lock.run("k", job("c"))]);
    expect(log).toEqual(["a:start", "a:end", "b:start", "b:end", "c:start", "c:end"]);
  });

  it("does not make different keys wait for each other", async () => {
    const lock = new KeyedLock();
    let release: () => void = () => {};
    const held = lock.run("a", () => new Promise<void>((resolve) => (release = resolve)));
    let otherDone = false;
    await lock.run("b", async () => {
      otherDone = true;
    });
    expect(otherDone).toBe(true);
    release();
    await held;
  });

  it("releases the key when the holder rejects", async () => {
    const lock = new KeyedLock();
    await expect(lock.run("k", () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    await expect(lock.run("k", () => Promise.resolve(7))).resolves.toBe(7);
  });

  it("forgets keys nobody holds", async () => {
    const lock = new KeyedLock();
    await Promise.all([lock.run("x", () => ticks(1)), lock.run("y", () => ticks(1))]);
    expect(lock.size).toBe(0);
  });
});

describe("fileLockKey", () => {
  it("gives one key for spellings of one path", () => {
    expect(fileLockKey("s", "/mnt/user-data/workspace//a.txt")).toBe(fileLockKey("s", "/mnt/user-data/workspace/a.txt"));
    expect(fileLockKey("s", "/mnt/user-data/workspace/./a.txt/")).toBe(fileLockKey("s", "/mnt/user-data/workspace/a.txt"));
  });

  it("separates sandboxes", () => {
    expect(fileLockKey("s1", "/a")).not.toBe(fileLockKey("s2", "/a"));
  });
});
