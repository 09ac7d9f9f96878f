import { describe, expect, it } from "vitest";
import { collector, effectiveMaxResults } from "./result-cap.js";

describe("effectiveMaxResults", () => {
  it("applies the default, the floor and the cap", () => {
    expect(effectiveMaxResults(undefined, 200, 1000)).toBe(200);
    expect(effectiveMaxResults(0, 200, 1000)).toBe(200);
    expect(effectiveMaxResults(-5, 200, 1000)).toBe(200);
    expect(effectiveMaxResults(Number.NaN, 200, 1000)).toBe(200);
    expect(effectiveMaxResults(7.9, 200, 1000)).toBe(7);
    expect(effectiveMaxResults(5000, 200, 1000)).toBe(1000);
  });
});

describe("collector", () => {
  it("reports exactly-at-cap as complete", () => {
    const c = collector<number>(2);
    expect(c.push(1)).toBe(true);
    expect(c.push(2)).toBe(true);
    expect(c.result()).toEqual({ matches: [1, 2], truncated: false });
  });

  it("reports one past the cap as truncated", () => {
    const c = collector<number>(2);
    c.push(1);
    c.push(2);
    expect(c.push(3)).toBe(false);
    expect(c.result()).toEqual({ matches: [1, 2], truncated: true });
  });
});
