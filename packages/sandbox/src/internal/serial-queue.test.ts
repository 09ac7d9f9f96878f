import { describe, expect, it } from "vitest";
import { SandboxError } from "../errors.js";
import { KeyedSerialQueue, SerialQueue } from "./serial-queue.js";

// Ordering, cancellation and idle keys are the kernel's (packages/kernel/src/concurrency);
// what is the sandbox's own is the error a cancelled task rejects with.
/** A task that runs until `open()` is called. */
function gate(): { task: () => Promise<void>; open: () => void } {
  let open = (): void => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { task: () => opened, open: () => open() };
}

describe("SerialQueue", () => {
  it("rejects a queued task with ABORTED when its signal aborts, without running it", async () => {
    const queue = new SerialQueue();
    const held = gate();
    const first = queue.run(held.task);
    const controller = new AbortController();
    let ran = false;
    const second = queue.run(async () => {
      ran = true;
    }, controller.signal);
    controller.abort();
    const err: unknown = await second.catch((e: unknown) => e);
    expect(SandboxError.isInstance(err) && err.code).toBe("ABORTED");
    held.open();
    await first;
    await queue.run(async () => undefined);
    expect(ran).toBe(false);
  });

  it("rejects with ABORTED at once when the signal is already aborted", async () => {
    const queue = new SerialQueue();
    await expect(queue.run(async () => 1, AbortSignal.abort())).rejects.toMatchObject({ code: "ABORTED" });
    expect(await queue.run(async () => 2)).toBe(2);
  });
});

describe("KeyedSerialQueue", () => {
  it("rejects a task cancelled behind another of its key with ABORTED, and forgets the key once idle", async () => {
    const queues = new KeyedSerialQueue();
    const held = gate();
    const first = queues.run("a", held.task);
    const controller = new AbortController();
    const second = queues.run("a", async () => "ran", controller.signal);
    controller.abort();
    const err: unknown = await second.catch((e: unknown) => e);
    expect(SandboxError.isInstance(err) && err.code).toBe("ABORTED");
    held.open();
    await first;
    await new Promise((resolve) => setImmediate(resolve));
    expect(queues.size).toBe(0);
  });
});
