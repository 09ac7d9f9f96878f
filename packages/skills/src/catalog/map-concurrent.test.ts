import { describe, expect, it } from "vitest";
import { mapConcurrent } from "./map-concurrent.js";

const tick = () => new Promise<void>((r) => setImmediate(r));

describe("mapConcurrent", () => {
  it("keeps input order in the results", async () => {
    const out = await mapConcurrent([5, 1, 3], 2, async (n) => {
      for (let i = 0; i < n; i++) await tick();
      return n * 10;
    });
    expect(out).toEqual([50, 10, 30]);
  });

  it("never runs more than the limit at once", async () => {
    let active = 0;
    let peak = 0;
    await mapConcurrent(
      Array.from({ length: 50 }, (_, i) => i),
      7,
      async () => {
        active++;
        peak = Math.max(peak, active);
        await tick();
        active--;
      },
    );
    expect(peak).toBe(7);
  });

  it("rejects with the first error and stops taking new items", async () => {
    const started: number[] = [];
    await expect(
      mapConcurrent([0, 1, 2, 3, 4, 5], 1, async (n) => {
        started.push(n);
        if (n === 2) throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(started).toEqual([0, 1, 2]);
  });

  it("handles an empty list", async () => {
    expect(await mapConcurrent([], 4, async () => 1)).toEqual([]);
  });
});
