import { describe, expect, it } from "vitest";
import { createLimiter } from "./limiter.js";

const tick = () => new Promise<void>((r) => setImmediate(r));

describe("createLimiter", () => {
  it("never runs more than the limit at once", async () => {
    const limit = createLimiter(3);
    let active = 0;
    let peak = 0;
    await Promise.all(
      Array.from({ length: 20 }, () =>
        limit(async () => {
          active++;
          peak = Math.max(peak, active);
          await tick();
          active--;
        }),
      ),
    );
    expect(peak).toBe(3);
  });

  it("starts waiting tasks in FIFO order", async () => {
    const limit = createLimiter(1);
    const order: number[] = [];
    await Promise.all([1, 2, 3].map((n) => limit(async () => void order.push(n))));
    expect(order).toEqual([1, 2, 3]);
  });

  it("passes results and rejections through and frees the slot", async () => {
    const limit = createLimiter(1);
    await expect(limit(async () => Promise.reject(new Error("x")))).rejects.toThrow("x");
    expect(await limit(async () => 7)).toBe(7);
  });
});
