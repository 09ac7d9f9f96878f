import { describe, expect, it } from "vitest";
import { SkillsError } from "../errors.js";
import { applyPatch } from "./patch-content.js";

function errorOf(fn: () => unknown): SkillsError {
  try {
    fn();
  } catch (err) {
    if (SkillsError.isInstance(err)) return err;
    throw err;
  }
  throw new Error("expected a throw");
}

describe("applyPatch", () => {
  it("replaces only the first occurrence by default and reports every match", () => {
    expect(applyPatch("a x a x a", "a", "b")).toEqual({ content: "b x a x a", replacements: 1, matches: 3 });
  });

  it("replaces exactly expectedCount occurrences when the count matches", () => {
    expect(applyPatch("a x a x a", "a", "b", 3)).toEqual({ content: "b x b x b", replacements: 3, matches: 3 });
  });

  it("fails with DeerFlow's message when the count differs", () => {
    const err = errorOf(() => applyPatch("a a", "a", "b", 3));
    expect(err.message).toBe("Expected 3 replacements but found 2.");
  });

  it("fails with DeerFlow's message when the target is absent", () => {
    expect(errorOf(() => applyPatch("abc", "zzz", "y")).message).toBe("Patch target not found in SKILL.md.");
  });

  it("counts non-overlapping occurrences like Python's str.count", () => {
    expect(applyPatch("aaaa", "aa", "b", 2)).toEqual({ content: "bb", replacements: 2, matches: 2 });
  });

  it("treats find and replace literally (no regex, no $ patterns)", () => {
    expect(applyPatch("cost: $1 (.*)", "(.*)", "$&$1", 1).content).toBe("cost: $1 $&$1");
  });
});
