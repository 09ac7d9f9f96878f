import { describe, expect, it } from "vitest";
import { KeyedLock, fileLockKey } from "./keyed-lock.js";

const ticks = async (n: number): Promise<void> => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe("KeyedLock", () => {
  it("is the package's keyed queue: one holder per key at a time, a cancelled waiter rejects with ABORTED", async () => {
    const lock = new KeyedLock();
    const log: string[] = [];
    let release: () => void = () => {};
    const held = lock.run("k", () =>
      new Promise<void>((resolve) => (release = resolve)).then(() => void log.push("held")),
    );
    const controller = new AbortController();
    const cancelled = lock.run("k", async () => void log.push("cancelled"), controller.signal);
    const next = lock.run("k", async () => void log.push("next"));
    await ticks(2);
    expect(log).toEqual([]);
    controller.abort();
    await expect(cancelled).rejects.toMatchObject({ code: "ABORTED" });
    release();
    await Promise.all([held, next]);
    expect(log).toEqual(["held", "next"]);
    expect(lock.size).toBe(0);
  });
});

describe("fileLockKey", () => {
  it("gives one key for spellings of one path", () => {
    expect(fileLockKey("s", "/mnt/user-data/workspace//a.txt")).toBe(
      fileLockKey("s", "/mnt/user-data/workspace/a.txt"),
    );
    expect(fileLockKey("s", "/mnt/user-data/workspace/./a.txt/")).toBe(
      fileLockKey("s", "/mnt/user-data/workspace/a.txt"),
    );
  });

  it("separates sandboxes", () => {
    expect(fileLockKey("s1", "/a")).not.toBe(fileLockKey("s2", "/a"));
  });
});
