import { describe, expect, it } from "vitest";
import { SkillsError } from "../errors.js";
import { isValidSkillName, normalizeSkillName } from "./skill-name.js";
import { customSkillDir, customSkillFile, publicSkillFile, skillHistoryFile } from "./skill-paths.js";

function errorOf(fn: () => unknown): SkillsError {
  try {
    fn();
  } catch (err) {
    if (SkillsError.isInstance(err)) return err;
    throw err;
  }
  throw new Error("expected a throw");
}

describe("normalizeSkillName", () => {
  it("trims surrounding whitespace", () => {
    expect(normalizeSkillName("  my-skill\n")).toBe("my-skill");
  });

  it.each([
    "../../escaped",
    "My-Skill",
    "-lead",
    "trail-",
    "double--hyphen",
    "under_score",
    "a/b",
    "",
    "   ",
    "dot.name",
  ])("rejects %j with DeerFlow's hyphen-case message", (name) => {
    const err = errorOf(() => normalizeSkillName(name));
    expect(err.code).toBe("INVALID_NAME");
    expect(err.message).toBe("Skill name must be hyphen-case using lowercase letters, digits, and hyphens only.");
  });

  it("rejects non-string input", () => {
    expect(errorOf(() => normalizeSkillName(42)).code).toBe("INVALID_NAME");
  });

  it("accepts 64 characters and rejects 65 with the length message", () => {
    expect(normalizeSkillName("a".repeat(64))).toHaveLength(64);
    const err = errorOf(() => normalizeSkillName("a".repeat(65)));
    expect(err.code).toBe("INVALID_NAME");
    expect(err.message).toBe("Skill name must be 64 characters or fewer.");
  });

  it("reports validity without throwing through isValidSkillName", () => {
    expect(isValidSkillName("ok-1")).toBe(true);
    expect(isValidSkillName("../x")).toBe(false);
  });
});

describe("skill path helpers", () => {
  it("build paths below their roots", () => {
    expect(customSkillDir("/r/custom", "a-b")).toBe("/r/custom/a-b");
    expect(customSkillFile("/r/custom", " a-b ")).toBe("/r/custom/a-b/SKILL.md");
    expect(skillHistoryFile("/r/custom", "a-b")).toBe("/r/custom/.history/a-b.jsonl");
    expect(publicSkillFile("/r/public", "a-b")).toBe("/r/public/a-b/SKILL.md");
  });

  it.each([customSkillDir, customSkillFile, skillHistoryFile, publicSkillFile])(
    "refuse a traversal name (%o)",
    (helper) => {
      expect(errorOf(() => helper("/r", "../../escaped")).message).toContain("hyphen-case");
    },
  );
});
