import { AssertionError } from "node:assert";
import { describe, expect, it } from "vitest";
import { assertExpect } from "./assert-expect.js";

/** The AssertionError a failing matcher throws (fails the test when it passes). */
function failure(run: () => void): AssertionError {
  try {
    run();
  } catch (err) {
    if (err instanceof AssertionError) return err;
    throw err;
  }
  throw new Error("the matcher passed");
}

class Point {
  constructor(
    readonly x: number,
    readonly y?: number,
  ) {}
}

describe("assertExpect", () => {
  it("toBe is Object.is", () => {
    assertExpect(NaN).toBe(NaN);
    expect(failure(() => assertExpect(0).toBe(-0)).message).toBe("expected 0 to be -0");
    expect(failure(() => assertExpect({}).toBe({})).message).toMatch(/to be \{\}/);
  });

  it("toEqual ignores undefined properties and class identity, toStrictEqual does not", () => {
    assertExpect(new Point(1)).toEqual({ x: 1 });
    assertExpect({ a: [1, { b: undefined }] }).toEqual({ a: [1, {}] });
    assertExpect(Buffer.from("hi")).toEqual(new Uint8Array([104, 105]));
    failure(() => assertExpect({ a: 1 }).toEqual({ a: 2 }));
    failure(() => assertExpect(new Point(1)).toStrictEqual({ x: 1, y: undefined }));
    failure(() => assertExpect({ a: undefined }).toStrictEqual({}));
    assertExpect([{ kind: "end" }]).toStrictEqual([{ kind: "end" }]);
  });

  it("toMatchObject checks a recursive subset, arrays element by element", () => {
    assertExpect({ a: 1, b: { c: 2, d: 3 }, e: [{ f: 1, g: 2 }] }).toMatchObject({ b: { c: 2 }, e: [{ f: 1 }] });
    failure(() => assertExpect({ e: [{ f: 1 }, { f: 2 }] }).toMatchObject({ e: [{ f: 1 }] }));
    failure(() => assertExpect({ a: 1 }).toMatchObject({ b: undefined }));
    failure(() => assertExpect(null).toMatchObject({}));
  });

  it("checks null, undefined, defined, length, pattern, containment, order and type", () => {
    assertExpect(null).toBeNull();
    assertExpect(undefined).toBeUndefined();
    assertExpect(0).toBeDefined();
    assertExpect("abc").toHaveLength(3);
    assertExpect("a-1").toMatch(/^a-\d$/);
    assertExpect("hello").toMatch("ell");
    assertExpect(new Set(["x"])).toContain("x");
    assertExpect("hello").toContain("ll");
    assertExpect(2n).toBeGreaterThan(1n);
    assertExpect(1).toBeLessThan(2);
    assertExpect(2).toBeLessThanOrEqual(2);
    assertExpect(new Uint8Array(1)).toBeInstanceOf(Uint8Array);
    failure(() => assertExpect(undefined).toBeDefined());
    failure(() => assertExpect(undefined).toBeGreaterThan(0));
    failure(() => assertExpect(42).toMatch(/42/));
    failure(() => assertExpect([{ a: 1 }]).toContain({ a: 1 }));
  });

  it("negates with not, and prefixes failures with the message", () => {
    assertExpect(null).not.toBe(undefined);
    assertExpect(["a"]).not.toContain("b");
    const err = failure(() => assertExpect(3, "the count").not.toBe(3));
    expect(err.message).toBe("the count: expected 3 not to be 3");
  });

  it("rejects.toThrow awaits a rejection, matching its message when asked", async () => {
    await assertExpect(Promise.reject(new Error("store closed"))).rejects.toThrow();
    await assertExpect(Promise.reject(new Error("store closed"))).rejects.toThrow(/closed/);
    await assertExpect(Promise.reject(new Error("store closed"))).rejects.toThrow("store");
    await expect(assertExpect(Promise.resolve(1)).rejects.toThrow()).rejects.toThrow(/to reject/);
    await expect(assertExpect(Promise.reject(new Error("other"))).rejects.toThrow(/closed/)).rejects.toThrow(
      /rejection matching/,
    );
  });
});
