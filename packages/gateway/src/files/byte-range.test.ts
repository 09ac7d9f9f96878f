import { describe, expect, it } from "vitest";
import { entityTag, ifRangeAllows, parseByteRange } from "./byte-range.js";

describe("parseByteRange", () => {
  it.each([
    ["bytes=0-0", 0, 0],
    ["bytes=10-19", 10, 19],
    ["bytes=100-", 100, 99_999],
    ["bytes=-500", 99_500, 99_999],
    ["bytes=-100000000", 0, 99_999],
    ["bytes=99990-100000000", 99_990, 99_999],
    ["bytes=, 7-8 ,", 7, 8],
  ])("reads %j as %i-%i", (header, start, end) => {
    expect(parseByteRange(header, 100_000)).toEqual({ kind: "partial", range: { start, end } });
  });

  it.each(["bytes=100000-", "bytes=100000-100001", "bytes=-0", "bytes=99999999999999999999999-"])(
    "finds %j unsatisfiable",
    (header) => {
      expect(parseByteRange(header, 100_000)).toEqual({ kind: "unsatisfiable" });
    },
  );

  it("finds every range of an empty file unsatisfiable", () => {
    expect(parseByteRange("bytes=0-", 0)).toEqual({ kind: "unsatisfiable" });
    expect(parseByteRange("bytes=-5", 0)).toEqual({ kind: "unsatisfiable" });
  });

  it.each([
    undefined,
    "",
    "bytes",
    "bytes=",
    "bytes=-",
    "bytes=a-b",
    "bytes=5-2",
    "bytes=0-1,5-6",
    "items=0-5",
    "bytes=1.5-2",
    "bytes=-1-2",
  ])("ignores %j", (header) => {
    expect(parseByteRange(header, 100)).toEqual({ kind: "full" });
  });
});

describe("If-Range", () => {
  const modified = new Date("2026-01-02T03:04:05.678Z");
  const etag = entityTag(1000, modified);
  const lastModified = modified.toUTCString();

  it("makes a strong tag of size and modification time", () => {
    expect(etag).toBe(`"3e8-${modified.getTime().toString(16)}"`);
    expect(entityTag(1001, modified)).not.toBe(etag);
    expect(entityTag(1000, new Date(modified.getTime() + 1))).not.toBe(etag);
  });

  it.each([
    [undefined, true],
    [etag, true],
    [` ${etag} `, true],
    [lastModified, true],
    [`W/${etag}`, false],
    ['"other"', false],
    ["Thu, 01 Jan 1970 00:00:00 GMT", false],
  ])("allows a range under %j: %s", (ifRange, allowed) => {
    expect(ifRangeAllows(ifRange, etag, lastModified)).toBe(allowed);
  });
});
