import { describe, expect, it } from "vitest";
import { SandboxError } from "../errors.js";
import { countOccurrences } from "./str-replace-tool.js";
import { harness } from "../../test/support/tools/tool-harness.js";

const F = "/mnt/user-data/workspace/app.py";

describe("createStrReplaceTool", () => {
  it("replaces a unique occurrence and says OK", async () => {
    const { call, sandbox } = harness({ files: { [F]: "x = 1\ny = 2\n" } });
    expect(await call("str_replace", { description: "fix", path: F, old_str: "y = 2", new_str: "y = 3" })).toBe("OK");
    expect(sandbox.text(F)).toBe("x = 1\ny = 3\n");
  });

  it("refuses an ambiguous match unless replace_all", async () => {
    const { call, sandbox } = harness({ files: { [F]: "a a a" } });
    expect(await call("str_replace", { path: F, old_str: "a", new_str: "b" })).toBe(
      `Error: String to replace appears 3 times in ${F}. Provide more context to make it unique, or set replace_all to true.`,
    );
    expect(sandbox.text(F)).toBe("a a a");
  });

  it("replaces every occurrence with replace_all", async () => {
    const { call, sandbox } = harness({ files: { [F]: "a a a" } });
    expect(await call("str_replace", { path: F, old_str: "a", new_str: "b", replace_all: true })).toBe("OK");
    expect(sandbox.text(F)).toBe("b b b");
  });

  it("inserts the replacement literally", async () => {
    const { call, sandbox } = harness({ files: { [F]: "price = X" } });
    expect(await call("str_replace", { path: F, old_str: "X", new_str: "$& $1 $$" })).toBe("OK");
    expect(sandbox.text(F)).toBe("price = $& $1 $$");
  });

  it("reports a missing string", async () => {
    const { call } = harness({ files: { [F]: "abc" } });
    expect(await call("str_replace", { path: F, old_str: "zzz", new_str: "y" })).toBe(
      `Error: String to replace not found in file: ${F}`,
    );
  });

  it("reports a missing string in an empty file", async () => {
    const { call } = harness({ files: { [F]: "" } });
    expect(await call("str_replace", { path: F, old_str: "a", new_str: "b" })).toBe(
      `Error: String to replace not found in file: ${F}`,
    );
  });

  it("treats an empty old_str as a no-op", async () => {
    const { call, sandbox } = harness({ files: { [F]: "abc" } });
    expect(await call("str_replace", { path: F, old_str: "", new_str: "zzz" })).toBe("OK");
    expect(sandbox.text(F)).toBe("abc");
    expect(sandbox.calls.get("writeFile")).toBeUndefined();
  });

  it("reports a missing file", async () => {
    const { call } = harness();
    expect(await call("str_replace", { path: F, old_str: "a", new_str: "b" })).toBe(`Error: File not found: ${F}`);
  });

  it("reports a directory and permission failures", async () => {
    const { call, sandbox } = harness({ files: { [F]: "a" } });
    expect(await call("str_replace", { path: "/mnt/user-data/workspace", old_str: "a", new_str: "b" })).toBe(
      "Error: Path is a directory, not a file: /mnt/user-data/workspace",
    );
    sandbox.failNext.set("readFile", new SandboxError("PERMISSION_DENIED", "denied"));
    expect(await call("str_replace", { path: F, old_str: "a", new_str: "b" })).toBe(
      `Error: Permission denied accessing file: ${F}`,
    );
  });

  it("refuses skills paths, read-only mounts and .. before reading", async () => {
    const mounts = [{ virtualPath: "/mnt/data", hostPath: "/srv/data", readOnly: true }];
    const { call, sandbox } = harness({ mounts });
    expect(await call("str_replace", { path: "/mnt/skills/public/x/SKILL.md", old_str: "a", new_str: "b" })).toBe(
      "Error: Write access to skills path is not allowed: /mnt/skills/public/x/SKILL.md",
    );
    expect(await call("str_replace", { path: "/mnt/data/a.csv", old_str: "a", new_str: "b" })).toBe(
      "Error: Write access to read-only mount is not allowed: /mnt/data/a.csv",
    );
    expect(await call("str_replace", { path: "/mnt/user-data/../x", old_str: "a", new_str: "b" })).toBe(
      "Error: Access denied: path traversal detected",
    );
    expect(sandbox.calls.get("readFile")).toBeUndefined();
  });

  it("reports unexpected errors", async () => {
    const { call, sandbox } = harness({ files: { [F]: "a" } });
    sandbox.failNext.set("writeFile", new TypeError("cannot write"));
    expect(await call("str_replace", { path: F, old_str: "a", new_str: "b" })).toBe(
      "Error: Unexpected error replacing string: TypeError: cannot write",
    );
  });

  it("loses no update when 20 replacements of one file run concurrently", async () => {
    const markers = Array.from({ length: 20 }, (_, i) => `<<marker-${i}>>`);
    const { call, sandbox } = harness({ files: { [F]: markers.join("\n") } });
    const results = await Promise.all(
      markers.map((m, i) => call("str_replace", { path: F, old_str: m, new_str: `done-${i}` })),
    );
    expect(results).toEqual(markers.map(() => "OK"));
    expect(sandbox.text(F)).toBe(markers.map((_, i) => `done-${i}`).join("\n"));
  });

  it("serialises str_replace with concurrent appends on the same file", async () => {
    const { call, sandbox } = harness({ files: { [F]: "start" } });
    await Promise.all([
      call("write_file", { path: F, content: "|one", append: true }),
      call("str_replace", { path: F, old_str: "start", new_str: "begin" }),
      call("write_file", { path: F, content: "|two", append: true }),
    ]);
    expect(sandbox.text(F)).toBe("begin|one|two");
  });
});

describe("countOccurrences", () => {
  it("counts non-overlapping occurrences like Python's str.count", () => {
    expect(countOccurrences("aaaa", "aa")).toBe(2);
    expect(countOccurrences("abc", "d")).toBe(0);
  });
});
