import { describe, expect, it } from "vitest";
import { SandboxError } from "../errors.js";
import { harness } from "../../test/support/tools/tool-harness.js";

const W = "/mnt/user-data/workspace";

describe("createGrepTool", () => {
  it("lists path:line: text under a Found header, case-insensitively by default", async () => {
    const { call } = harness({ files: { [`${W}/a.py`]: "import os\nTODO: fix\n", [`${W}/b.py`]: "# todo later" } });
    expect(await call("grep", { description: "todos", pattern: "todo", path: W })).toBe(
      [`Found 2 matches under ${W}`, `${W}/a.py:2: TODO: fix`, `${W}/b.py:1: # todo later`].join("\n"),
    );
  });

  it("honours case_sensitive", async () => {
    const { call } = harness({ files: { [`${W}/a.py`]: "TODO\ntodo" } });
    expect(await call("grep", { pattern: "todo", path: W, case_sensitive: true })).toBe(
      [`Found 1 matches under ${W}`, `${W}/a.py:2: todo`].join("\n"),
    );
  });

  it("treats the pattern literally when asked", async () => {
    const { call } = harness({ files: { [`${W}/a.txt`]: "a.b\naxb" } });
    expect(await call("grep", { pattern: "a.b", path: W, literal: true })).toBe(
      [`Found 1 matches under ${W}`, `${W}/a.txt:1: a.b`].join("\n"),
    );
  });

  it("filters candidate files with glob", async () => {
    const { call } = harness({ files: { [`${W}/a.py`]: "x", [`${W}/a.md`]: "x" } });
    expect(await call("grep", { pattern: "x", path: W, glob: "*.md" })).toBe(
      [`Found 1 matches under ${W}`, `${W}/a.md:1: x`].join("\n"),
    );
  });

  it("searches a single file root", async () => {
    const { call } = harness({ files: { [`${W}/a.py`]: "one\ntwo" } });
    expect(await call("grep", { pattern: "two", path: `${W}/a.py` })).toBe(
      [`Found 1 matches under ${W}/a.py`, `${W}/a.py:2: two`].join("\n"),
    );
  });

  it("says when nothing matched", async () => {
    const { call } = harness({ files: { [`${W}/a.py`]: "one" } });
    expect(await call("grep", { pattern: "zzz", path: W })).toBe(`No matches found under ${W}`);
  });

  it("marks truncated results", async () => {
    const { call } = harness({ files: { [`${W}/a.txt`]: "x\nx\nx" } });
    expect(await call("grep", { pattern: "x", path: W, max_results: 2 })).toBe(
      [
        `Found 2 matches under ${W} (showing first 2)`,
        `${W}/a.txt:1: x`,
        `${W}/a.txt:2: x`,
        "Results truncated. Narrow the path or add a glob filter.",
      ].join("\n"),
    );
  });

  it("never asks for more than the operator's cap", async () => {
    const { call } = harness({ files: { [`${W}/a.txt`]: "x\nx\nx" } }, { grepMaxResults: 1 });
    expect(await call("grep", { pattern: "x", path: W })).toMatch(/^Found 1 matches under .* \(showing first 1\)/);
  });

  it("reports an invalid regex without asking the sandbox", async () => {
    const { call, sandbox } = harness();
    expect(await call("grep", { pattern: "(unclosed", path: W })).toMatch(
      /^Error: Invalid regex pattern: Invalid regular expression: /,
    );
    expect(sandbox.calls.get("grep")).toBeUndefined();
  });

  it("accepts an invalid regex as a literal string", async () => {
    const { call } = harness({ files: { [`${W}/a.txt`]: "call(unclosed" } });
    expect(await call("grep", { pattern: "(unclosed", path: W, literal: true })).toBe(
      [`Found 1 matches under ${W}`, `${W}/a.txt:1: call(unclosed`].join("\n"),
    );
  });

  it("reports missing roots, non-directories and permission failures", async () => {
    const { call, sandbox } = harness();
    expect(await call("grep", { pattern: "x", path: `${W}/missing` })).toBe(`Error: Directory not found: ${W}/missing`);
    sandbox.failNext.set("grep", new SandboxError("NOT_A_DIRECTORY", "nope"));
    expect(await call("grep", { pattern: "x", path: W })).toBe(`Error: Path is not a directory: ${W}`);
    sandbox.failNext.set("grep", new SandboxError("PATH_ESCAPE", "Access denied: path escapes mounted directory"));
    expect(await call("grep", { pattern: "x", path: W })).toBe(`Error: Permission denied: ${W}`);
  });

  it("returns other SandboxErrors' messages and reports unexpected errors", async () => {
    const { call, sandbox } = harness();
    sandbox.failNext.set("grep", new SandboxError("UNAVAILABLE", "Sandbox service unreachable"));
    expect(await call("grep", { pattern: "x", path: W })).toBe("Error: Sandbox service unreachable");
    sandbox.failNext.set("grep", new Error("worker crashed"));
    expect(await call("grep", { pattern: "x", path: W })).toBe(
      "Error: Unexpected error searching file contents: Error: worker crashed",
    );
  });

  it("drops matches in blocked files, asking once per file", async () => {
    const asked: string[] = [];
    const { call } = harness(
      { files: { "/mnt/skills/public/pdf/SKILL.md": "pdf\npdf\npdf", "/mnt/skills/public/web/SKILL.md": "pdf" } },
      {
        isPathBlocked: async (p) => {
          asked.push(p);
          return p.startsWith("/mnt/skills/public/pdf") ? "Skill 'pdf' is disabled." : null;
        },
      },
    );
    expect(await call("grep", { pattern: "pdf", path: "/mnt/skills" })).toBe(
      ["Found 1 matches under /mnt/skills", "/mnt/skills/public/web/SKILL.md:1: pdf"].join("\n"),
    );
    expect(asked.filter((p) => p === "/mnt/skills/public/pdf/SKILL.md")).toHaveLength(1);
  });

  it("refuses .. segments and blocked roots", async () => {
    const { call } = harness(
      {},
      { isPathBlocked: async (p) => (p.includes("pdf") ? "Skill 'pdf' is disabled." : null) },
    );
    expect(await call("grep", { pattern: "x", path: "/mnt/skills/../etc" })).toBe(
      "Error: Access denied: path traversal detected",
    );
    expect(await call("grep", { pattern: "x", path: "/mnt/skills/public/pdf" })).toBe(
      "Error: Skill 'pdf' is disabled.",
    );
  });
});
