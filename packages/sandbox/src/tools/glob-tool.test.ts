import { describe, expect, it } from "vitest";
import { SandboxError } from "../errors.js";
import { effectiveMaxResults } from "./search-results.js";
import { harness } from "../../test/support/tools/tool-harness.js";

const W = "/mnt/user-data/workspace";

describe("createGlobTool", () => {
  it("numbers the matching paths under a Found header", async () => {
    const { call } = harness({ files: { [`${W}/a.py`]: "", [`${W}/src/b.py`]: "", [`${W}/c.txt`]: "" } });
    expect(await call("glob", { description: "find", pattern: "**/*.py", path: W })).toBe(
      [`Found 2 paths under ${W}`, `1. ${W}/a.py`, `2. ${W}/src/b.py`].join("\n"),
    );
  });

  it("says when nothing matched", async () => {
    const { call } = harness();
    expect(await call("glob", { pattern: "*.rs", path: W })).toBe(`No files matched under ${W}`);
  });

  it("includes directories only when asked", async () => {
    const { call } = harness({ files: { [`${W}/pkg/x.py`]: "" } });
    expect(await call("glob", { pattern: "pkg", path: W })).toBe(`No files matched under ${W}`);
    expect(await call("glob", { pattern: "pkg", path: W, include_dirs: true })).toBe(
      [`Found 1 paths under ${W}`, `1. ${W}/pkg`].join("\n"),
    );
  });

  it("marks truncated results", async () => {
    const files = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`${W}/f${i}.md`, ""]));
    const { call } = harness({ files });
    expect(await call("glob", { pattern: "*.md", path: W, max_results: 2 })).toBe(
      [
        `Found 2 paths under ${W} (showing first 2)`,
        `1. ${W}/f0.md`,
        `2. ${W}/f1.md`,
        "Results truncated. Narrow the path or pattern to see fewer matches.",
      ].join("\n"),
    );
  });

  it("never asks for more than the operator's cap", async () => {
    const files = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`${W}/f${i}.md`, ""]));
    const { call } = harness({ files }, { globMaxResults: 3 });
    expect(await call("glob", { pattern: "*.md", path: W, max_results: 500 })).toMatch(
      /^Found 3 paths under .* \(showing first 3\)/,
    );
  });

  it("reports a missing root, a file root and a permission failure", async () => {
    const { call, sandbox } = harness({ files: { [`${W}/a.txt`]: "" } });
    expect(await call("glob", { pattern: "*", path: `${W}/missing` })).toBe(`Error: Directory not found: ${W}/missing`);
    expect(await call("glob", { pattern: "*", path: `${W}/a.txt` })).toBe(`Error: Path is not a directory: ${W}/a.txt`);
    sandbox.failNext.set("glob", new SandboxError("PERMISSION_DENIED", "denied"));
    expect(await call("glob", { pattern: "*", path: W })).toBe(`Error: Permission denied: ${W}`);
  });

  it("reports unexpected errors", async () => {
    const { call, sandbox } = harness();
    sandbox.failNext.set("glob", new RangeError("too deep"));
    expect(await call("glob", { pattern: "*", path: W })).toBe(
      "Error: Unexpected error searching paths: RangeError: too deep",
    );
  });

  it("refuses .. segments", async () => {
    const { call } = harness();
    expect(await call("glob", { pattern: "*", path: `${W}/..` })).toBe("Error: Access denied: path traversal detected");
  });

  it("filters paths of blocked skills and counts only what is shown", async () => {
    const { call } = harness(
      { files: { "/mnt/skills/public/pdf/SKILL.md": "", "/mnt/skills/public/web/SKILL.md": "" } },
      { isPathBlocked: async (p) => (p.startsWith("/mnt/skills/public/pdf") ? "Skill 'pdf' is disabled." : null) },
    );
    expect(await call("glob", { pattern: "**/SKILL.md", path: "/mnt/skills" })).toBe(
      ["Found 1 paths under /mnt/skills", "1. /mnt/skills/public/web/SKILL.md"].join("\n"),
    );
  });

  it("refuses a blocked root with the hook's text", async () => {
    const { call } = harness({}, { isPathBlocked: async () => "Skill 'pdf' is disabled." });
    expect(await call("glob", { pattern: "*", path: "/mnt/skills/public/pdf" })).toBe(
      "Error: Skill 'pdf' is disabled.",
    );
  });
});

describe("effectiveMaxResults", () => {
  it("takes the smaller of the request and the operator cap", () => {
    expect(effectiveMaxResults(50, 200, "glob")).toBe(50);
    expect(effectiveMaxResults(900, 300, "glob")).toBe(300);
  });

  it("treats zero and negatives as the default", () => {
    expect(effectiveMaxResults(0, 200, "glob")).toBe(200);
    expect(effectiveMaxResults(-5, -1, "grep")).toBe(100);
  });

  it("caps glob at 1000 and grep at 500", () => {
    expect(effectiveMaxResults(5000, 5000, "glob")).toBe(1000);
    expect(effectiveMaxResults(5000, 5000, "grep")).toBe(500);
  });
});
