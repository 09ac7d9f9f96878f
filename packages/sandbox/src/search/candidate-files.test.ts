import { describe, expect, it } from "vitest";
import { CandidateFiles } from "./candidate-files.js";

describe("CandidateFiles", () => {
  const candidates = new CandidateFiles(["src/a.ts", "src/deep/b.ts", "top.md"]);

  it("keeps candidates and the folders leading to them, and omits the rest", () => {
    const omit = candidates.omitting(() => false);
    expect(["src", "src/a.ts", "src/deep", "src/deep/b.ts", "top.md"].filter(omit)).toEqual([]);
    expect(["lib", "src/c.ts", "src/other", "top.md.bak", "sr"].filter(omit)).toEqual([
      "lib",
      "src/c.ts",
      "src/other",
      "top.md.bak",
      "sr",
    ]);
  });

  it("keeps the walk's own omissions", () => {
    const omit = candidates.omitting((rel) => rel === "src/deep");
    expect(omit("src/deep")).toBe(true);
    expect(omit("src/a.ts")).toBe(false);
  });

  it("reads paths of a nested root through its prefix", () => {
    const omit = candidates.omitting(() => false, "src");
    expect(omit("a.ts")).toBe(false);
    expect(omit("deep")).toBe(false);
    expect(omit("top.md")).toBe(true);
  });

  it("counts and finds candidates", () => {
    expect(candidates.size).toBe(3);
    expect(candidates.has("src/deep/b.ts")).toBe(true);
    expect(candidates.has("src/deep")).toBe(false);
  });
});
