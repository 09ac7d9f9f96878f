import { describe, expect, it } from "vitest";
import { SandboxError } from "../errors.js";
import { harness } from "../../test/support/tools/tool-harness.js";

const DISABLED =
  "Skill 'pdf' is disabled. Access to its files is blocked. Enable the skill in settings before using it.";
const blockPdf = async (path: string): Promise<string | null> =>
  path === "/mnt/skills/public/pdf" || path.startsWith("/mnt/skills/public/pdf/") ? DISABLED : null;

describe("createLsTool", () => {
  it("lists two levels deep with directories suffixed by a slash", async () => {
    const { call } = harness({
      files: {
        "/mnt/user-data/workspace/a.txt": "a",
        "/mnt/user-data/workspace/src/b.ts": "b",
        "/mnt/user-data/workspace/src/deep/c.ts": "c",
      },
    });
    expect(await call("ls", { description: "look", path: "/mnt/user-data/workspace" })).toBe(
      [
        "/mnt/user-data/workspace/a.txt",
        "/mnt/user-data/workspace/src/",
        "/mnt/user-data/workspace/src/b.ts",
        "/mnt/user-data/workspace/src/deep/",
      ].join("\n"),
    );
  });

  it("says (empty) for an empty directory", async () => {
    const { call } = harness();
    expect(await call("ls", { path: "/mnt/user-data/outputs" })).toBe("(empty)");
  });

  it("reports a missing directory", async () => {
    const { call } = harness();
    expect(await call("ls", { path: "/mnt/user-data/workspace/nope" })).toBe(
      "Error: Directory not found: /mnt/user-data/workspace/nope",
    );
  });

  it("reports a file given as a directory", async () => {
    const { call } = harness({ files: { "/mnt/user-data/workspace/a.txt": "a" } });
    expect(await call("ls", { path: "/mnt/user-data/workspace/a.txt" })).toBe(
      "Error: Path is not a directory: /mnt/user-data/workspace/a.txt",
    );
  });

  it("reports permission failures with the requested path", async () => {
    const { call, sandbox } = harness();
    sandbox.failNext.set(
      "listDir",
      new SandboxError("PATH_NOT_ALLOWED", "Only paths under /mnt/user-data/ … are allowed"),
    );
    expect(await call("ls", { path: "/etc" })).toBe("Error: Permission denied: /etc");
  });

  it("refuses .. segments before asking the sandbox", async () => {
    const { call, sandbox } = harness();
    expect(await call("ls", { path: "/mnt/user-data/workspace/../../etc" })).toBe(
      "Error: Access denied: path traversal detected",
    );
    expect(sandbox.calls.get("listDir")).toBeUndefined();
  });

  it("reports unexpected errors", async () => {
    const { call, sandbox } = harness();
    sandbox.failNext.set("listDir", new Error("EIO: i/o error, scandir '/var/lib/deerflow/threads/t1'"));
    expect(await call("ls", { path: "/mnt/user-data" })).toBe(
      "Error: Unexpected error listing directory: Error: EIO: i/o error, scandir '<host path>'",
    );
  });

  it("head-truncates long listings to lsOutputMaxChars", async () => {
    const files = Object.fromEntries(
      Array.from({ length: 400 }, (_, i) => [`/mnt/user-data/workspace/file-${String(i).padStart(4, "0")}.txt`, "x"]),
    );
    const { call } = harness({ files }, { lsOutputMaxChars: 1000 });
    const out = await call("ls", { path: "/mnt/user-data/workspace" });
    expect(out.length).toBeLessThanOrEqual(1000);
    expect(out).toMatch(
      /\n\.\.\. \[truncated: showing first \d+ of \d+ chars\. Use a more specific path to see fewer results\] \.\.\.$/,
    );
  });

  it("refuses a blocked directory with the hook's text", async () => {
    const { call, sandbox } = harness(
      { files: { "/mnt/skills/public/pdf/SKILL.md": "x" } },
      { isPathBlocked: blockPdf },
    );
    expect(await call("ls", { path: "/mnt/skills/public/pdf/" })).toBe(`Error: ${DISABLED}`);
    expect(sandbox.calls.get("listDir")).toBeUndefined();
  });

  it("filters blocked entries out of an ancestor's listing", async () => {
    const { call } = harness(
      { files: { "/mnt/skills/public/pdf/SKILL.md": "x", "/mnt/skills/public/web/SKILL.md": "y" } },
      { isPathBlocked: blockPdf },
    );
    expect(await call("ls", { path: "/mnt/skills/public" })).toBe(
      ["/mnt/skills/public/web/", "/mnt/skills/public/web/SKILL.md"].join("\n"),
    );
  });

  it("says (empty) when every entry is blocked", async () => {
    const { call } = harness({ files: { "/mnt/skills/public/pdf/SKILL.md": "x" } }, { isPathBlocked: blockPdf });
    expect(await call("ls", { path: "/mnt/skills/public" })).toBe("(empty)");
  });

  it("fails closed when the hook throws", async () => {
    const { call, sandbox } = harness(
      { files: { "/mnt/skills/public/pdf/SKILL.md": "x" } },
      { isPathBlocked: () => Promise.reject(new Error("corrupt skill state")) },
    );
    expect(await call("ls", { path: "/mnt/skills/public" })).toBe(
      "Error: Access to /mnt/skills/public is blocked because its access check failed.",
    );
    expect(sandbox.calls.get("listDir")).toBeUndefined();
  });

  it("drops entries whose check throws", async () => {
    const { call } = harness(
      { files: { "/mnt/skills/public/pdf/SKILL.md": "x", "/mnt/skills/public/web/SKILL.md": "y" } },
      {
        isPathBlocked: async (p) => {
          if (p.includes("/pdf")) throw new Error("cannot decide");
          return null;
        },
      },
    );
    expect(await call("ls", { path: "/mnt/skills/public" })).toBe(
      ["/mnt/skills/public/web/", "/mnt/skills/public/web/SKILL.md"].join("\n"),
    );
  });
});
