import { describe, expect, it } from "vitest";
import { backoffDelay, retryWithBackoff, sleep } from "./backoff.js";

describe("backoff", () => {
  it("doubles from the base up to the cap, with half of each delay random", () => {
    const options = { baseDelayMs: 100, maxDelayMs: 1_000 };
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffDelay(n, options, () => 0))).toEqual([50, 100, 200, 400, 500, 500]);
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffDelay(n, options, () => 0.999999))).toEqual([
      100, 200, 400, 800, 1000, 1000,
    ]);
    expect(backoffDelay(500, options, () => 0)).toBe(500);
  });

  it("retries transient errors until success", async () => {
    const seen: number[] = [];
    const result = await retryWithBackoff(
      async (attempt) => {
        seen.push(attempt);
        if (attempt < 3) throw new Error("ECONNRESET");
        return "ok";
      },
      { attempts: 5, baseDelayMs: 1, maxDelayMs: 2, isTransient: () => true },
    );
    expect(result).toBe("ok");
    expect(seen).toEqual([1, 2, 3]);
  });

  it("throws the last error once the attempts are spent, and non-transient errors at once", async () => {
    let calls = 0;
    const retries: number[] = [];
    await expect(
      retryWithBackoff(
        async () => {
          calls++;
          throw new Error(`fail ${calls}`);
        },
        {
          attempts: 3,
          baseDelayMs: 1,
          maxDelayMs: 1,
          isTransient: () => true,
          onRetry: (_e, attempt) => void retries.push(attempt),
        },
      ),
    ).rejects.toThrow("fail 3");
    expect(retries).toEqual([1, 2]);
    calls = 0;
    await expect(
      retryWithBackoff(
        async () => {
          calls++;
          throw new Error("bad input");
        },
        { attempts: 5, baseDelayMs: 1, maxDelayMs: 1, isTransient: () => false },
      ),
    ).rejects.toThrow("bad input");
    expect(calls).toBe(1);
  });

  it("stops waiting when the signal aborts", async () => {
    const controller = new AbortController();
    let calls = 0;
    const run = retryWithBackoff(
      async () => {
        calls++;
        throw new Error("down");
      },
      { attempts: 10, baseDelayMs: 60_000, maxDelayMs: 60_000, isTransient: () => true, signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 10);
    await expect(run).rejects.toThrow("down");
    expect(calls).toBe(1);
    const started = Date.now();
    await sleep(60_000, AbortSignal.abort());
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
