import { describe, expect, it } from "vitest";
import { compileQueryRegex, isRiskyPattern } from "./query-regex.js";

describe("compileQueryRegex", () => {
  it("compiles a valid pattern case-insensitively", () => {
    const re = compileQueryRegex("chart|graph");
    expect(re.test("Bar CHART maker")).toBe(true);
    expect(re.flags).toBe("i");
  });

  it("falls back to a literal match for an invalid pattern", () => {
    const re = compileQueryRegex("c++ (unclosed");
    expect(re.test("learn C++ (unclosed brackets)")).toBe(true);
    expect(re.test("c")).toBe(false);
  });

  it("takes a catastrophic pattern literally and finishes on long input", () => {
    const re = compileQueryRegex("(a+)+$");
    expect(re.test(`${"a".repeat(5000)}!`)).toBe(false);
    expect(re.test("x(a+)+$y")).toBe(true);
  });

  it("adds the global flag on request", () => {
    expect(compileQueryRegex("x", true).flags).toBe("gi");
  });
});

describe("isRiskyPattern", () => {
  it.each([
    "(a+)+",
    "(a*)*b",
    "(a|aa)+",
    "(?:x+y*)+",
    "(\\w+\\s?)*$",
    "(a)\\1",
    "(?<n>a)\\k<n>",
    "(a{2,})+",
    "a*a*a*a*a*a*a*a*a*",
  ])("flags %s", (p) => {
    expect(isRiskyPattern(p)).toBe(true);
  });

  it.each([
    "chart|graph",
    "deep-res.*",
    "^pdf$",
    "(a+)?",
    "[(+*]+",
    "\\(a+\\)+",
    "(ab)+",
    "a{1,3}",
    "research|analysis|report",
  ])("accepts %s", (p) => {
    expect(isRiskyPattern(p)).toBe(false);
  });
});
