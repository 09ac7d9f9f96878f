import { describe, expect, it } from "vitest";
import { isPathInside } from "./is-path-inside.js";

describe("isPathInside", () => {
  it("accepts the root itself and paths below it", () => {
    expect(isPathInside("/a", "/a")).toBe(true);
    expect(isPathInside("/a/b", "/a")).toBe(true);
    expect(isPathInside("/a/b/c.txt", "/a")).toBe(true);
  });

  it("compares at a segment boundary: /a does not contain /ab", () => {
    expect(isPathInside("/ab", "/a")).toBe(false);
    expect(isPathInside("/ab/c", "/a")).toBe(false);
    expect(isPathInside("/mnt/skills-old", "/mnt/skills")).toBe(false);
  });

  it("ignores trailing separators on either side", () => {
    expect(isPathInside("/a", "/a/")).toBe(true);
    expect(isPathInside("/a/", "/a")).toBe(true);
    expect(isPathInside("/a/b/", "/a/")).toBe(true);
    expect(isPathInside("/ab/", "/a/")).toBe(false);
  });

  it("resolves .. and . before comparing", () => {
    expect(isPathInside("/a/../etc/passwd", "/a")).toBe(false);
    expect(isPathInside("/a/b/../../etc", "/a")).toBe(false);
    expect(isPathInside("/a/b/../c", "/a")).toBe(true);
    expect(isPathInside("/a/./b", "/a")).toBe(true);
    expect(isPathInside("/a//b", "/a")).toBe(true);
    expect(isPathInside("/a/b", "/a/b/..")).toBe(true);
  });

  it("treats names that merely start with dots as ordinary names", () => {
    expect(isPathInside("/a/..b", "/a")).toBe(true);
    expect(isPathInside("/a/...", "/a")).toBe(true);
  });

  it("contains every absolute path in the file system root", () => {
    expect(isPathInside("/", "/")).toBe(true);
    expect(isPathInside("/etc", "/")).toBe(true);
    expect(isPathInside("/", "/etc")).toBe(false);
  });

  it("never mixes absolute and relative paths", () => {
    expect(isPathInside("a/b", "/")).toBe(false);
    expect(isPathInside("/a/b", "a")).toBe(false);
    expect(isPathInside("a/b", "a")).toBe(true);
    expect(isPathInside("b", ".")).toBe(true);
    expect(isPathInside("../b", ".")).toBe(false);
    expect(isPathInside("..", ".")).toBe(false);
  });

  it("with strict, excludes the root itself however it is spelled", () => {
    expect(isPathInside("/a", "/a", { strict: true })).toBe(false);
    expect(isPathInside("/a/", "/a", { strict: true })).toBe(false);
    expect(isPathInside("/a/b/..", "/a", { strict: true })).toBe(false);
    expect(isPathInside("/a/b", "/a", { strict: true })).toBe(true);
    expect(isPathInside("/ab", "/a", { strict: true })).toBe(false);
  });

  it("with posix, compares virtual paths by POSIX rules", () => {
    expect(isPathInside("/mnt/user-data/workspace/x", "/mnt/user-data", { posix: true })).toBe(true);
    expect(isPathInside("/mnt/user-data-2", "/mnt/user-data", { posix: true })).toBe(false);
    expect(isPathInside("/mnt/user-data/../skills", "/mnt/user-data", { posix: true })).toBe(false);
  });
});
