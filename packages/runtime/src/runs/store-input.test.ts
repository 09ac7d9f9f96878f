/** The shared input rules of the run stores (pure functions). */
import { describe, expect, it } from "vitest";
import { RuntimeError } from "../errors.js";
import { checkFinishRunInput, checkPage, checkId, threadStatusAfterRun, toJsonObject } from "./store-input.js";
import { checkThreadSearch, compareCodePoints, jsonContains } from "./thread-search.js";

const code = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (err) {
    return RuntimeError.isInstance(err) ? err.code : "not a RuntimeError";
  }
  return undefined;
};

describe("toJsonObject", () => {
  it("normalises like a jsonb round trip and shares nothing with the input", () => {
    const input = {
      when: new Date("2026-01-01T00:00:00.000Z"),
      gone: undefined,
      list: [1, undefined, { deep: true }],
      n: -0,
    };
    const out = toJsonObject(input, "metadata");
    expect(out).toEqual({ when: "2026-01-01T00:00:00.000Z", list: [1, null, { deep: true }], n: 0 });
    (input.list[2] as { deep: boolean }).deep = false;
    expect(out["list"]).toEqual([1, null, { deep: true }]);
  });

  it("rejects non-objects, unserialisable values and strings PostgreSQL cannot store", () => {
    for (const bad of [
      null,
      [],
      "x",
      1,
      { big: 1n },
      { s: "a\u0000b" },
      { ["k\u0000"]: 1 },
      { s: "\udc00x" },
      { nested: [{ s: "\ud800" }] },
    ]) {
      expect(
        code(() => toJsonObject(bad, "metadata")),
        JSON.stringify(bad, (_, v: unknown) => (typeof v === "bigint" ? "bigint" : v)),
      ).toBe("INVALID_ARGUMENT");
    }
    expect(toJsonObject({ emoji: "\ud83d\ude00" }, "metadata")).toEqual({ emoji: "😀" });
  });
});

describe("input checks", () => {
  it("checkId accepts non-empty storable strings only", () => {
    expect(checkId("run-1", "runId")).toBe("run-1");
    for (const bad of ["", "a\u0000", 5, null, undefined, "\ud800"])
      expect(code(() => checkId(bad, "runId"))).toBe("INVALID_ARGUMENT");
  });

  it("checkPage applies defaults 10/0 and bounds limit to 1..1000", () => {
    expect(checkPage({})).toEqual({ limit: 10, offset: 0 });
    expect(checkPage({ limit: 1000, offset: 5 })).toEqual({ limit: 1000, offset: 5 });
    for (const q of [{ limit: 0 }, { limit: 1001 }, { limit: 2.5 }, { offset: -1 }, { offset: 0.5 }])
      expect(code(() => checkPage(q))).toBe("INVALID_ARGUMENT");
  });

  it("checkFinishRunInput requires a terminal status and defaults expectStatus to the active ones", () => {
    expect(checkFinishRunInput({ status: "success", threadStatus: "idle" })).toEqual({
      status: "success",
      error: undefined,
      stopReason: undefined,
      threadStatus: "idle",
      expectStatus: ["pending", "running"],
    });
    expect(code(() => checkFinishRunInput({ status: "pending" as "success", threadStatus: "idle" }))).toBe(
      "INVALID_ARGUMENT",
    );
    expect(
      code(() => checkFinishRunInput({ status: "error", error: 5 as unknown as string, threadStatus: "idle" })),
    ).toBe("INVALID_ARGUMENT");
  });

  it("checkThreadSearch defaults to newest first", () => {
    expect(checkThreadSearch(undefined)).toEqual({
      metadata: undefined,
      status: undefined,
      ids: undefined,
      limit: 10,
      offset: 0,
      sortBy: "createdAt",
      sortOrder: "desc",
    });
  });

  it("threadStatusAfterRun keeps a thread busy while another run is active", () => {
    expect(threadStatusAfterRun(true, "error")).toBe("busy");
    expect(threadStatusAfterRun(false, "error")).toBe("error");
  });
});

describe("jsonContains and compareCodePoints", () => {
  it("follows jsonb @> for nested containers", () => {
    expect(jsonContains({ a: { b: 1, c: 2 } }, { a: { b: 1 } })).toBe(true);
    expect(jsonContains({ a: [1, 2] }, { a: 1 })).toBe(false);
    expect(jsonContains({ a: [[1], 2] }, { a: [1] })).toBe(false);
    expect(jsonContains({ a: [{ x: 1, y: 2 }, 3] }, { a: [{ x: 1 }] })).toBe(true);
    expect(jsonContains({ a: {} }, { a: [] })).toBe(false);
    expect(jsonContains({ a: null }, { a: null })).toBe(true);
  });

  it("orders strings by code point, unlike UTF-16 comparison above U+FFFF", () => {
    expect(compareCodePoints("\uffff", "\u{10000}")).toBeLessThan(0);
    // oxlint-disable-next-line no-constant-binary-expression -- comparing two literals is the point: UTF-16 order
    expect("\uffff" < "\u{10000}").toBe(false);
    expect(compareCodePoints("B", "a")).toBeLessThan(0);
  });
});
