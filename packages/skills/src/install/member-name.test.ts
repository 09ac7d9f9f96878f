import { describe, expect, it } from "vitest";
import { isUnsafeMemberName, memberPathParts, toPosixMemberName } from "./member-name.js";

describe("isUnsafeMemberName", () => {
  it.each([
    "/etc/passwd",
    "\\etc\\passwd",
    "\\\\server\\share\\x",
    "../x",
    "a/../../x",
    "a\\..\\x",
    "..",
    "a/..",
    "C:\\x",
    "C:/x",
    "c:x",
    "a:b",
    "skill/file.txt:stream",
    "a\0b",
  ])("rejects %j", (name) => {
    expect(isUnsafeMemberName(name)).toBe(true);
  });

  it.each(["", "SKILL.md", "skill/SKILL.md", "skill/", "a/..b/c", "a..b", "./a", "a//b", "...", "a/.hidden"])(
    "accepts %j",
    (name) => {
      expect(isUnsafeMemberName(name)).toBe(false);
    },
  );
});

describe("toPosixMemberName", () => {
  it("turns backslashes into slashes", () => {
    expect(toPosixMemberName("a\\b\\c.txt")).toBe("a/b/c.txt");
  });
});

describe("memberPathParts", () => {
  it("drops empty and dot parts", () => {
    expect(memberPathParts("a//./b\\c")).toEqual(["a", "b", "c"]);
  });

  it("returns no parts for names that denote the root", () => {
    expect(memberPathParts("./")).toEqual([]);
    expect(memberPathParts("")).toEqual([]);
  });
});
