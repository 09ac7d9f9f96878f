import { describe, expect, it } from "vitest";
import { SandboxError } from "../errors.js";
import { binaryFileMessage } from "./read-file-tool.js";
import { harness } from "../../test/support/tools/tool-harness.js";

const F = "/mnt/user-data/workspace/notes.md";
const DISABLED =
  "Skill 'pdf' is disabled. Access to its files is blocked. Enable the skill in settings before using it.";

describe("createReadFileTool", () => {
  it("returns the whole file", async () => {
    const { call } = harness({ files: { [F]: "one\ntwo\nthree\n" } });
    expect(await call("read_file", { description: "read", path: F })).toBe("one\ntwo\nthree\n");
  });

  it("returns a 1-based inclusive line range", async () => {
    const { call } = harness({ files: { [F]: "one\ntwo\nthree\nfour\n" } });
    expect(await call("read_file", { path: F, start_line: 2, end_line: 3 })).toBe("two\nthree");
  });

  it("accepts single-sided ranges", async () => {
    const { call } = harness({ files: { [F]: "one\ntwo\nthree" } });
    expect(await call("read_file", { path: F, start_line: 3 })).toBe("three");
    expect(await call("read_file", { path: F, end_line: 1 })).toBe("one");
  });

  it("treats null range bounds as absent", async () => {
    const { call } = harness({ files: { [F]: "one\ntwo" } });
    expect(await call("read_file", { path: F, start_line: null, end_line: null })).toBe("one\ntwo");
  });

  it.each([
    [{ start_line: 0 }, "(start_line must be >= 1)"],
    [{ start_line: -3, end_line: 2 }, "(start_line must be >= 1)"],
    [{ end_line: 0 }, "(end_line must be >= 1)"],
    [{ start_line: 5, end_line: 2 }, "(start_line > end_line — no lines in range)"],
  ])("answers an unusable range %o with %s", async (range, message) => {
    const { call, sandbox } = harness({ files: { [F]: "x" } });
    expect(await call("read_file", { path: F, ...range })).toBe(message);
    expect(sandbox.calls.get("readFile")).toBeUndefined();
  });

  it("says when start_line is past the end", async () => {
    const { call } = harness({ files: { [F]: "one\ntwo" } });
    expect(await call("read_file", { path: F, start_line: 10 })).toBe("(start_line exceeds file length)");
  });

  it("says (empty) for an empty file", async () => {
    const { call } = harness({ files: { [F]: "" } });
    expect(await call("read_file", { path: F })).toBe("(empty)");
  });

  it("head-truncates to readFileOutputMaxChars", async () => {
    const { call } = harness({ files: { [F]: "x".repeat(60_000) } });
    const out = await call("read_file", { path: F });
    expect(out.length).toBeLessThanOrEqual(50_000);
    expect(out).toMatch(
      /\n\.\.\. \[truncated: showing first \d+ of 60000 chars\. Use start_line\/end_line to read a specific range\] \.\.\.$/,
    );
  });

  it("returns the whole file when readFileOutputMaxChars is 0", async () => {
    const { call } = harness({ files: { [F]: "x".repeat(60_000) } }, { readFileOutputMaxChars: 0 });
    expect((await call("read_file", { path: F })).length).toBe(60_000);
  });

  it("refuses files that are not UTF-8", async () => {
    const { call } = harness({ files: { [F]: new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0xff, 0xfe, 0x80]) } });
    expect(await call("read_file", { path: F })).toBe(binaryFileMessage(F));
    expect(binaryFileMessage(F)).toBe(
      `Error: cannot read '${F}' as text — it appears to be a binary file (e.g. .xlsx, .pdf, or an image). read_file only supports UTF-8 text. Use bash with a suitable library instead (pandas/openpyxl for spreadsheets), or view_image for images.`,
    );
  });

  it("refuses files containing NUL bytes", async () => {
    const { call } = harness({ files: { [F]: "abc\u0000def" } });
    expect(await call("read_file", { path: F })).toBe(binaryFileMessage(F));
  });

  it("returns the decoded text when the bytes cannot be fetched to verify it", async () => {
    const { call, sandbox } = harness({ files: { [F]: new Uint8Array([0x61, 0xff, 0x62]) } });
    sandbox.failNext.set("readBytes", new Error("too large to verify"));
    expect(await call("read_file", { path: F })).toBe("a\uFFFDb");
  });

  it("returns text that genuinely contains U+FFFD", async () => {
    const { call } = harness({ files: { [F]: "replacement char: \uFFFD" } });
    expect(await call("read_file", { path: F })).toBe("replacement char: \uFFFD");
  });

  it("reports a missing file, a directory and a permission failure", async () => {
    const { call, sandbox } = harness();
    expect(await call("read_file", { path: F })).toBe(`Error: File not found: ${F}`);
    expect(await call("read_file", { path: "/mnt/user-data/workspace" })).toBe(
      "Error: Path is a directory, not a file: /mnt/user-data/workspace",
    );
    sandbox.failNext.set("readFile", new SandboxError("PERMISSION_DENIED", "denied"));
    expect(await call("read_file", { path: F })).toBe(`Error: Permission denied reading file: ${F}`);
  });

  it("returns other SandboxErrors' messages and reports unexpected errors", async () => {
    const { call, sandbox } = harness();
    sandbox.failNext.set("readFile", new SandboxError("TOO_LARGE", "File exceeds maximum size"));
    expect(await call("read_file", { path: F })).toBe("Error: File exceeds maximum size");
    sandbox.failNext.set("readFile", new Error("EBADF: bad file descriptor, read '/home/u/.deerflow/x'"));
    expect(await call("read_file", { path: F })).toBe(
      "Error: Unexpected error reading file: Error: EBADF: bad file descriptor, read '<host path>'",
    );
  });

  it("masks a known mount's host path as its virtual path", async () => {
    const mounts = [{ virtualPath: "/mnt/user-data", hostPath: "/srv/deerflow/threads/t1/user-data", readOnly: false }];
    const { call, sandbox } = harness({ mounts });
    sandbox.failNext.set("readFile", new Error("EIO: failed '/srv/deerflow/threads/t1/user-data/workspace/notes.md'"));
    expect(await call("read_file", { path: F })).toBe(
      `Error: Unexpected error reading file: Error: EIO: failed '${F}'`,
    );
  });

  it("refuses .. segments", async () => {
    const { call } = harness();
    expect(await call("read_file", { path: "/mnt/user-data/workspace/../../../etc/passwd" })).toBe(
      "Error: Access denied: path traversal detected",
    );
    expect(await call("read_file", { path: "/mnt/skills\\..\\x" })).toBe(
      "Error: Access denied: path traversal detected",
    );
  });

  it("refuses a disabled skill's files with the hook's text", async () => {
    const { call, sandbox } = harness(
      { files: { "/mnt/skills/public/pdf/SKILL.md": "secret" } },
      { isPathBlocked: async (p) => (p.startsWith("/mnt/skills/public/pdf/") ? DISABLED : null) },
    );
    expect(await call("read_file", { path: "/mnt/skills/public/pdf/SKILL.md" })).toBe(`Error: ${DISABLED}`);
    expect(sandbox.calls.get("readFile")).toBeUndefined();
  });

  it("fails closed when the hook throws", async () => {
    const { call } = harness(
      { files: { [F]: "x" } },
      {
        isPathBlocked: () => {
          throw new Error("state file corrupt");
        },
      },
    );
    expect(await call("read_file", { path: F })).toBe(
      `Error: Access to ${F} is blocked because its access check failed.`,
    );
  });
});
