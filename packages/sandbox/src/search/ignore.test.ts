import { describe, expect, it } from "vitest";
import { IGNORE_PATTERNS, escapeRegExp, isIgnoredName, isIgnoredPath } from "./ignore.js";

describe("isIgnoredName", () => {
  it.each([
    ".git",
    "node_modules",
    "__pycache__",
    ".venv",
    "venv",
    ".env",
    "env",
    "dist",
    "build",
    "target",
    "out",
    ".DS_Store",
    ".cache",
    "logs",
    ".pytest_cache",
    ".idea",
    ".vscode",
  ])("ignores %s", (name) => expect(isIgnoredName(name)).toBe(true));

  it.each([
    "server.log",
    "a.tmp",
    "x.bak",
    "pkg.egg-info",
    "notes.txt~",
    "file.swp",
    ".upload-abc.part",
    "x.cache",
    "y.temp",
    "z.lnk",
  ])("ignores the wildcard match %s", (name) => expect(isIgnoredName(name)).toBe(true));

  it.each([
    "src",
    "README.md",
    "environment",
    "output",
    "builder",
    "log",
    ".gitignore",
    ".envrc",
    "upload-a.part",
    "a.log.txt",
  ])("keeps %s", (name) => expect(isIgnoredName(name)).toBe(false));

  it("is case-sensitive", () => {
    expect(isIgnoredName("Node_Modules")).toBe(false);
    expect(isIgnoredName("A.LOG")).toBe(false);
  });

  it("carries DeerFlow's list", () => {
    expect(IGNORE_PATTERNS).toHaveLength(50);
    expect(IGNORE_PATTERNS).toContain(".upload-*.part");
  });
});

describe("isIgnoredPath", () => {
  it("ignores a path when any segment is ignored", () => {
    expect(isIgnoredPath("src/node_modules/x/index.js")).toBe(true);
    expect(isIgnoredPath("src/app/index.js")).toBe(false);
  });
});

describe("escapeRegExp", () => {
  it("escapes every metacharacter", () => {
    const text = "a.b*c+d?e^f$g{h}i(j)k|l[m]n\\o/p";
    expect(new RegExp(`^${escapeRegExp(text)}$`).test(text)).toBe(true);
  });
});
