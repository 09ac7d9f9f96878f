import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CommandSpec } from "./command-runner.js";
import { resolveMounts, resolveWorkingDirectory, validateSpec } from "./spec-validation.js";

const spec: CommandSpec = {
  command: "true",
  mounts: [{ virtualPath: "/mnt/user-data/workspace", hostPath: "/h/ws", readOnly: false }],
  cwd: "/mnt/user-data/workspace",
  env: {},
  timeoutMs: 1000,
  maxOutputBytes: 100,
  limits: {},
  network: false,
};

describe("validateSpec", () => {
  it("accepts a valid spec", () => {
    expect(() => validateSpec(spec)).not.toThrow();
  });

  it.each<[string, Partial<CommandSpec>, string]>([
    ["a NUL in the command", { command: "a\0b" }, "INVALID_ARGUMENT"],
    ["a bad env name", { env: { "A-B": "1" } }, "INVALID_ARGUMENT"],
    ["a zero timeout", { timeoutMs: 0 }, "INVALID_ARGUMENT"],
    ["a negative output cap", { maxOutputBytes: -1 }, "INVALID_ARGUMENT"],
    ["a fractional limit", { limits: { cpuSeconds: 0.5 } }, "INVALID_ARGUMENT"],
    ["`..` in the working directory", { cwd: "/mnt/user-data/workspace/../../etc" }, "PATH_ESCAPE"],
    ["a relative working directory", { cwd: "workspace" }, "INVALID_ARGUMENT"],
    ["a relative mount", { mounts: [{ virtualPath: "mnt/x", hostPath: "/h", readOnly: true }] }, "CONFIG_INVALID"],
    ["a mount at /", { mounts: [{ virtualPath: "/", hostPath: "/h", readOnly: true }] }, "CONFIG_INVALID"],
    [
      "a mount with a trailing slash",
      { mounts: [{ virtualPath: "/mnt/x/", hostPath: "/h", readOnly: true }] },
      "CONFIG_INVALID",
    ],
    ["a relative host path", { mounts: [{ virtualPath: "/mnt/x", hostPath: "h", readOnly: true }] }, "CONFIG_INVALID"],
  ])("rejects %s", (_name, patch, code) => {
    expect(() => validateSpec({ ...spec, ...patch })).toThrowError(expect.objectContaining({ code }));
  });
});

describe("resolveWorkingDirectory", () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), "exec-cwd-"));
    await mkdir(path.join(root, "ws", "sub"), { recursive: true });
    await mkdir(path.join(root, "outside"));
    await writeFile(path.join(root, "ws", "file"), "x");
    await symlink(path.join(root, "outside"), path.join(root, "ws", "escape"));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  const mountsOf = (r: string) =>
    resolveMounts([{ virtualPath: "/mnt/user-data/workspace", hostPath: path.join(r, "ws"), readOnly: false }]);

  it("maps a directory inside a mount", async () => {
    const mounts = await mountsOf(root);
    await expect(
      resolveWorkingDirectory(mounts, "/mnt/user-data/workspace/sub", { followSymlinksOnHost: true }),
    ).resolves.toMatch(/\/ws\/sub$/);
  });

  it("rejects a directory outside every mount without naming host paths", async () => {
    const mounts = await mountsOf(root);
    const err = await resolveWorkingDirectory(mounts, "/mnt/user-data/workspace-extra", {
      followSymlinksOnHost: true,
    }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "PATH_NOT_ALLOWED" });
    expect(String((err as Error).message)).not.toContain(root);
  });

  it("reports a missing directory with its virtual path", async () => {
    const mounts = await mountsOf(root);
    const err = await resolveWorkingDirectory(mounts, "/mnt/user-data/workspace/nope", {
      followSymlinksOnHost: false,
    }).catch((e: unknown) => e);
    expect(err).toMatchObject({
      code: "NOT_FOUND",
      message: "Working directory not found: /mnt/user-data/workspace/nope",
    });
  });

  it("rejects a file", async () => {
    const mounts = await mountsOf(root);
    await expect(
      resolveWorkingDirectory(mounts, "/mnt/user-data/workspace/file", { followSymlinksOnHost: true }),
    ).rejects.toMatchObject({ code: "NOT_A_DIRECTORY" });
  });

  it("rejects a symlink leaving the mount on the host", async () => {
    const mounts = await mountsOf(root);
    await expect(
      resolveWorkingDirectory(mounts, "/mnt/user-data/workspace/escape", { followSymlinksOnHost: true }),
    ).rejects.toMatchObject({ code: "PATH_ESCAPE" });
  });
});

describe("resolveMounts", () => {
  it("rejects a missing host directory without naming it", async () => {
    const err = await resolveMounts([
      { virtualPath: "/mnt/skills", hostPath: "/nonexistent/deerflow/skills", readOnly: true },
    ]).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "CONFIG_INVALID", path: "/mnt/skills" });
    expect(String((err as Error).message)).not.toContain("/nonexistent");
  });
});
