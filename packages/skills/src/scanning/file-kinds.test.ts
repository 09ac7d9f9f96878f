import { describe, expect, it } from "vitest";
import {
  isCodeFile,
  isExecutableSupportPath,
  isPromptInputFile,
  isPythonSource,
  isShellSource,
  needsShebangProbe,
} from "./file-kinds.js";

describe("isCodeFile", () => {
  it("treats everything under scripts/ and code suffixes as code", () => {
    expect(isCodeFile("scripts/data.csv")).toBe(true);
    expect(isCodeFile("lib/helper.MJS")).toBe(true);
    expect(isCodeFile("tools/run.ps1")).toBe(true);
  });

  it("treats a suffix-less file as code only when it starts with #!", () => {
    expect(isCodeFile("bin/tool", "#!/bin/sh\n")).toBe(true);
    expect(isCodeFile("bin/tool", Buffer.from("#!"))).toBe(true);
    expect(isCodeFile("bin/tool", "echo\n")).toBe(false);
    expect(isCodeFile("notes.md", "#!/bin/sh\n")).toBe(false);
  });
});

describe("needsShebangProbe", () => {
  it("probes only suffix-less files outside scripts/", () => {
    expect([needsShebangProbe("tool"), needsShebangProbe("a.md"), needsShebangProbe("scripts/tool")]).toEqual([
      true,
      false,
      false,
    ]);
  });
});

describe("isPromptInputFile", () => {
  it("accepts text under references/ and templates/ only", () => {
    expect(isPromptInputFile("references/api.md")).toBe(true);
    expect(isPromptInputFile("templates/mail.YAML")).toBe(true);
    expect(isPromptInputFile("references/logo.png")).toBe(false);
    expect(isPromptInputFile("docs/references/api.md")).toBe(false);
    expect(isPromptInputFile("assets/a.md")).toBe(false);
  });
});

describe("isExecutableSupportPath", () => {
  it("matches a scripts/ segment anywhere, with either separator", () => {
    expect(isExecutableSupportPath("scripts/run.py")).toBe(true);
    expect(isExecutableSupportPath("tools\\scripts\\run.py")).toBe(true);
    expect(isExecutableSupportPath("references/scripts.md")).toBe(false);
  });
});

describe("isPythonSource / isShellSource", () => {
  it("use the suffix or the shebang line", () => {
    expect(isPythonSource("a.py", "")).toBe(true);
    expect(isPythonSource("tool", "#!/usr/bin/env python3\n")).toBe(true);
    expect(isShellSource("tool", "#!/usr/bin/env bash\n")).toBe(true);
    expect(isShellSource("tool", "#!/bin/sh\n")).toBe(true);
    expect(isShellSource("tool", "#!/usr/bin/env python3\n")).toBe(false);
    expect(isShellSource("a.md", "# sh\n")).toBe(false);
  });
});
