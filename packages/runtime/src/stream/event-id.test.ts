import { describe, expect, it } from "vitest";
import { RuntimeError } from "../errors.js";
import { compareEventIds, parseCursor, parseEventId } from "./event-id.js";

describe("event ids and cursors", () => {
  it("parses <ms>-<seq> up to 2^64-1 per part", () => {
    expect(parseEventId("1718000000000-5")).toEqual({ id: "1718000000000-5", ms: 1718000000000n, seq: 5n });
    expect(parseEventId("18446744073709551615-18446744073709551615")?.seq).toBe(2n ** 64n - 1n);
    for (const bad of [
      "18446744073709551616-0",
      "0-18446744073709551616",
      "1",
      "1-",
      "-1",
      "a-1",
      "1-1-1",
      "",
      " 1-1",
    ]) {
      expect(parseEventId(bad), bad).toBeNull();
    }
  });

  it("orders ids by ms, then seq, numerically", () => {
    const id = (s: string) => parseEventId(s) as NonNullable<ReturnType<typeof parseEventId>>;
    expect(compareEventIds(id("2-0"), id("10-0"))).toBe(-1);
    expect(compareEventIds(id("5-10"), id("5-9"))).toBe(1);
    expect(compareEventIds(id("5-9"), id("5-9"))).toBe(0);
  });

  it("maps the from-start forms to null and throws INVALID_ARGUMENT for anything else", () => {
    for (const start of [undefined, null, "-1", "0", "0-0"]) expect(parseCursor("r", start)).toBeNull();
    expect(parseCursor("r", "7-3")?.seq).toBe(3n);
    let error: unknown;
    try {
      parseCursor("run-1", "bogus");
    } catch (err) {
      error = err;
    }
    expect(RuntimeError.isInstance(error) && error.code).toBe("INVALID_ARGUMENT");
    expect((error as Error).message).toContain('"bogus"');
    expect((error as Error).message).toContain('run "run-1"');
    expect(() => parseCursor("r", 5 as unknown as string)).toThrow(/must be a string/);
    expect(() => parseCursor("r", "x".repeat(10_000))).toThrow(/Malformed/);
  });
});
