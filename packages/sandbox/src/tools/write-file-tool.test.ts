import { describe, expect, it } from "vitest";
import { SandboxError } from "../errors.js";
import { KeyedLock, fileLockKey } from "./keyed-lock.js";
import { harness } from "../../test/support/tools/tool-harness.js";
import { writeFileTooLargeMessage } from "./write-file-tool.js";

const F = "/mnt/user-data/workspace/out/report.md";

describe("createWriteFileTool", () => {
  it("writes the file, creating parents, and says OK", async () => {
    const { call, sandbox } = harness();
    expect(await call("write_file", { description: "save", path: F, content: "# Report\n" })).toBe("OK");
    expect(sandbox.text(F)).toBe("# Report\n");
  });

  it("appends when asked", async () => {
    const { call, sandbox } = harness({ files: { [F]: "a" } });
    expect(await call("write_file", { path: F, content: "b", append: true })).toBe("OK");
    expect(sandbox.text(F)).toBe("ab");
  });

  it("refuses non-append content over 80 KiB with the size policy message", async () => {
    const { call, sandbox } = harness();
    const content = "é".repeat(41_000); // 82 000 UTF-8 bytes, 41 000 characters
    expect(await call("write_file", { path: F, content })).toBe(writeFileTooLargeMessage(82_000, 81_920));
    expect(writeFileTooLargeMessage(82_000, 81_920)).toBe(
      "Error: write_file content (82000 bytes) exceeds the 81920-byte single-call limit. Split the content into smaller pieces: either (a) write the first section now, then use `str_replace` for further edits, or (b) call write_file again with append=True carrying the next section. See SIZE POLICY in the tool docstring for the rationale.",
    );
    expect(sandbox.text(F)).toBeUndefined();
  });

  it("accepts content of exactly the limit", async () => {
    const { call } = harness();
    expect(await call("write_file", { path: F, content: "x".repeat(81_920) })).toBe("OK");
  });

  it("does not limit appends", async () => {
    const { call } = harness();
    expect(await call("write_file", { path: F, content: "x".repeat(100_000), append: true })).toBe("OK");
  });

  it("honours a configured limit and 0 to disable it", async () => {
    expect(await harness({}, { writeFileMaxBytes: 10 }).call("write_file", { path: F, content: "x".repeat(11) })).toBe(
      writeFileTooLargeMessage(11, 10),
    );
    expect(
      await harness({}, { writeFileMaxBytes: 0 }).call("write_file", { path: F, content: "x".repeat(200_000) }),
    ).toBe("OK");
  });

  it("refuses writes under /mnt/skills before asking the sandbox", async () => {
    const { call, sandbox } = harness();
    expect(await call("write_file", { path: "/mnt/skills/custom/x/SKILL.md", content: "x" })).toBe(
      "Error: Write access to skills path is not allowed: /mnt/skills/custom/x/SKILL.md",
    );
    expect(sandbox.calls.get("writeFile")).toBeUndefined();
  });

  it("refuses writes into the ACP workspace", async () => {
    const { call } = harness();
    expect(await call("write_file", { path: "/mnt/acp-workspace/a.py", content: "x" })).toBe(
      "Error: Write access to ACP workspace is not allowed: /mnt/acp-workspace/a.py",
    );
  });

  it("refuses writes into read-only mounts and configured read-only paths", async () => {
    const mounts = [
      { virtualPath: "/mnt/data", hostPath: "/srv/data", readOnly: true },
      { virtualPath: "/mnt/data/scratch", hostPath: "/srv/scratch", readOnly: false },
    ];
    const { call } = harness({ mounts }, { readOnlyPaths: ["/mnt/user-data/uploads"] });
    expect(await call("write_file", { path: "/mnt/data/x.csv", content: "x" })).toBe(
      "Error: Write access to read-only mount is not allowed: /mnt/data/x.csv",
    );
    expect(await call("write_file", { path: "/mnt/data/scratch/x.csv", content: "x" })).toBe("OK");
    expect(await call("write_file", { path: "/mnt/user-data/uploads/a.pdf", content: "x" })).toBe(
      "Error: Write access to read-only mount is not allowed: /mnt/user-data/uploads/a.pdf",
    );
  });

  it("maps a READ_ONLY error from the sandbox to the read-only mount message", async () => {
    const { call, sandbox } = harness();
    sandbox.failNext.set("writeFile", new SandboxError("READ_ONLY", "Read-only file system"));
    expect(await call("write_file", { path: F, content: "x" })).toBe(
      `Error: Write access to read-only mount is not allowed: ${F}`,
    );
  });

  it("refuses .. segments", async () => {
    const { call } = harness();
    expect(await call("write_file", { path: "/mnt/user-data/workspace/../../etc/cron.d/x", content: "x" })).toBe(
      "Error: Access denied: path traversal detected",
    );
  });

  it("reports permission, directory and other failures", async () => {
    const { call, sandbox } = harness({ files: { "/mnt/user-data/workspace/file": "x" } });
    sandbox.failNext.set("writeFile", new SandboxError("PERMISSION_DENIED", "denied"));
    expect(await call("write_file", { path: F, content: "x" })).toBe(`Error: Permission denied writing to file: ${F}`);
    expect(await call("write_file", { path: "/mnt/user-data/workspace", content: "x" })).toBe(
      "Error: Path is a directory, not a file: /mnt/user-data/workspace",
    );
    expect(await call("write_file", { path: "/mnt/user-data/workspace/file/child", content: "x" })).toBe(
      "Error: Failed to write file '/mnt/user-data/workspace/file/child': SandboxError: Not a directory: /mnt/user-data/workspace/file",
    );
  });

  it("bounds unexpected errors to 2000 characters without host paths", async () => {
    const { call, sandbox } = harness();
    sandbox.failNext.set("writeFile", new Error(`ENOSPC at /var/lib/deerflow/t1/file ${"z".repeat(5000)}`));
    const out = await call("write_file", { path: F, content: "x" });
    expect(out.startsWith(`Error: Failed to write file '${F}': Error: ENOSPC at <host path> zzz`)).toBe(true);
    expect(out).toContain("\n... [write_file error truncated: ");
    expect(out.length).toBeLessThanOrEqual(2000);
    expect(out).not.toContain("/var/lib");
  });

  it("waits for the per-(sandbox, path) lock and only for its own path", async () => {
    const fileLock = new KeyedLock();
    const { call, sandbox } = harness({}, { fileLock });
    let release: () => void = () => {};
    const held = fileLock.run(fileLockKey(sandbox.id, F), () => new Promise<void>((resolve) => (release = resolve)));
    const blocked = call("write_file", { path: F, content: "late" });
    expect(await call("write_file", { path: "/mnt/user-data/workspace/other.md", content: "free" })).toBe("OK");
    for (let i = 0; i < 10; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(sandbox.text(F)).toBeUndefined();
    release();
    await held;
    expect(await blocked).toBe("OK");
    expect(sandbox.text(F)).toBe("late");
  });
});
