import { DeerflowError } from "@deerflow/kernel";
import { describe, expect, it } from "vitest";
import { SkillsError, isDeerflowError } from "./errors.js";

describe("SkillsError", () => {
  it("carries its code, details, cause and name", () => {
    const cause = new Error("EACCES");
    const err = new SkillsError("SKILL_READ_ONLY", "public skills are read-only", {
      cause,
      details: { skill: "deep-research" },
    });
    expect([err.name, err.code, err.message, err.details, err.cause]).toEqual([
      "SkillsError",
      "SKILL_READ_ONLY",
      "public skills are read-only",
      { skill: "deep-research" },
      cause,
    ]);
  });

  it("is recognised by its own brand and the shared one, and recognises nothing else", () => {
    const err = new SkillsError("SKILL_NOT_FOUND", "no such skill");
    expect(Symbol.keyFor(SkillsError.brand)).toBe("@deerflow/skills/error");
    expect(SkillsError.isInstance(err)).toBe(true);
    expect(isDeerflowError(err)).toBe(true);
    expect(SkillsError.isInstance(new DeerflowError("SKILL_NOT_FOUND", "base only"))).toBe(false);
    expect(SkillsError.isInstance(Object.assign(new Error("x"), { code: "SKILL_NOT_FOUND" }))).toBe(false);
  });
});
