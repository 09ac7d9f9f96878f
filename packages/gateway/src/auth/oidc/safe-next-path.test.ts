import { describe, expect, it } from "vitest";
import { MAX_NEXT_PATH_LENGTH, safeNextPath } from "./safe-next-path.js";

describe("safeNextPath", () => {
  it("keeps same-site paths with their query", () => {
    expect(safeNextPath("/")).toBe("/");
    expect(safeNextPath("/chat/abc?x=1&y=%2F")).toBe("/chat/abc?x=1&y=%2F");
  });

  it.each([
    ["absent", undefined],
    ["empty", ""],
    ["relative", "chat"],
    ["protocol-relative", "//evil.example/x"],
    ["absolute http", "http://evil.example"],
    ["absolute https", "https://evil.example"],
    ["backslash", "/\\evil.example"],
    ["scheme after slash", "/javascript:alert(1)"],
    ["tab turning into //", "/\t/evil.example"],
    ["newline", "/\n/evil.example"],
    ["space", "/ /evil.example"],
    ["NUL", "/a\u0000b"],
    ["too long", `/${"a".repeat(MAX_NEXT_PATH_LENGTH)}`],
  ])("refuses %s", (_label, next) => {
    expect(safeNextPath(next)).toBeUndefined();
  });
});
