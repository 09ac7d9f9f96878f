import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SandboxError } from "../errors.js";
import type { Mount } from "../mount.js";
import { MountResolver } from "./mount-resolver.js";

let tmp: string;
let workspace: string;
let skills: string;
let otherThread: string;
let outside: string;
let resolver: MountResolver;

beforeEach(async () => {
  tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "sandbox-resolver-")));
  workspace = path.join(tmp, "threads", "t1", "user-data", "workspace");
  otherThread = path.join(tmp, "threads", "t2", "user-data", "workspace");
  skills = path.join(tmp, "skills");
  outside = path.join(tmp, "outside");
  for (const dir of [workspace, otherThread, skills, outside]) await fs.mkdir(dir, { recursive: true });
  const mounts: Mount[] = [
    { virtualPath: "/mnt/user-data/workspace", hostPath: workspace, readOnly: false },
    { virtualPath: "/mnt/skills", hostPath: skills, readOnly: true },
  ];
  resolver = new MountResolver(mounts);
});

afterEach(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

async function failure(promise: Promise<unknown>): Promise<SandboxError> {
  try {
    await promise;
  } catch (err) {
    if (SandboxError.isInstance(err)) return err;
    throw err;
  }
  throw new Error("expected a rejection");
}

describe("MountResolver.resolve", () => {
  it("maps a virtual path to the host path inside the mount", async () => {
    const resolved = await resolver.resolve("/mnt/user-data/workspace/a/b.txt");
    expect(resolved.hostPath).toBe(path.join(workspace, "a", "b.txt"));
    expect(resolved.virtualPath).toBe("/mnt/user-data/workspace/a/b.txt");
    expect(resolved.hostRoot).toBe(workspace);
  });

  it("refuses paths outside every mount", async () => {
    const err = await failure(resolver.resolve("/etc/passwd"));
    expect(err.code).toBe("PATH_NOT_ALLOWED");
    expect(err.message).toBe("Only paths under /mnt/user-data/, /mnt/skills/, or configured mount paths are allowed");
  });

  it("refuses a sibling directory that shares the mount's string prefix", async () => {
    expect((await failure(resolver.resolve("/mnt/user-data/workspace-extra/a"))).code).toBe("PATH_NOT_ALLOWED");
  });

  it("refuses traversal before touching the filesystem", async () => {
    const err = await failure(resolver.resolve("/mnt/user-data/workspace/../../etc"));
    expect(err.code).toBe("PATH_ESCAPE");
    expect(err.message).toBe("Access denied: path traversal detected");
  });

  it("refuses a symlink to /etc", async () => {
    await fs.symlink("/etc", path.join(workspace, "etc"));
    const err = await failure(resolver.resolve("/mnt/user-data/workspace/etc/passwd"));
    expect(err.code).toBe("PATH_ESCAPE");
    expect(err.message).toBe("Access denied: path escapes mounted directory");
    expect(err.path).toBe("/mnt/user-data/workspace/etc/passwd");
  });

  it("refuses a symlink into another thread's folder", async () => {
    await fs.writeFile(path.join(otherThread, "secret.txt"), "theirs");
    await fs.symlink(otherThread, path.join(workspace, "peek"));
    expect((await failure(resolver.resolve("/mnt/user-data/workspace/peek/secret.txt"))).code).toBe("PATH_ESCAPE");
    expect((await failure(resolver.resolve("/mnt/user-data/workspace/peek"))).code).toBe("PATH_ESCAPE");
  });

  it("refuses a dangling symlink whose target would be created outside the mount", async () => {
    await fs.symlink(path.join(outside, "created-by-agent.txt"), path.join(workspace, "trap.txt"));
    const err = await failure(resolver.resolve("/mnt/user-data/workspace/trap.txt", "write"));
    expect(err.code).toBe("PATH_ESCAPE");
  });

  it("refuses a dangling directory symlink in the middle of a missing path", async () => {
    await fs.symlink(path.join(outside, "missing-dir"), path.join(workspace, "dir"));
    expect((await failure(resolver.resolve("/mnt/user-data/workspace/dir/sub/new.txt", "write"))).code).toBe("PATH_ESCAPE");
  });

  it("follows symlinks that stay inside the mount", async () => {
    await fs.mkdir(path.join(workspace, "real"));
    await fs.symlink("real", path.join(workspace, "alias"));
    const resolved = await resolver.resolve("/mnt/user-data/workspace/alias/new.txt", "write");
    expect(resolved.hostPath).toBe(path.join(workspace, "real", "new.txt"));
  });

  it("treats a symlink cycle as an escape", async () => {
    await fs.symlink("b", path.join(workspace, "a"));
    await fs.symlink("a", path.join(workspace, "b"));
    expect((await failure(resolver.resolve("/mnt/user-data/workspace/a/x"))).code).toBe("PATH_ESCAPE");
  });

  it("refuses writes to a read-only mount with the virtual path", async () => {
    const err = await failure(resolver.resolve("/mnt/skills/pdf/SKILL.md", "write"));
    expect(err.code).toBe("READ_ONLY");
    expect(err.message).toBe("Read-only file system: /mnt/skills/pdf/SKILL.md");
  });

  it("allows reads from a read-only mount", async () => {
    await expect(resolver.resolve("/mnt/skills/pdf/SKILL.md")).resolves.toMatchObject({ relative: "pdf/SKILL.md" });
  });

  it("refuses writes that reach a read-only mount's host folder through a writable parent", async () => {
    const parent = path.join(tmp, "data");
    const locked = path.join(parent, "locked");
    await fs.mkdir(locked, { recursive: true });
    await fs.symlink("locked", path.join(parent, "alias"));
    const nested = new MountResolver([
      { virtualPath: "/mnt/data", hostPath: parent, readOnly: false },
      { virtualPath: "/mnt/data-locked", hostPath: locked, readOnly: true },
    ]);
    expect((await failure(nested.resolve("/mnt/data/alias/x.txt", "write"))).code).toBe("READ_ONLY");
    await expect(nested.resolve("/mnt/data/alias/x.txt", "read")).resolves.toBeDefined();
  });

  it("reports NOT_FOUND when a mount's host folder is gone", async () => {
    await fs.rm(skills, { recursive: true });
    const err = await failure(resolver.resolve("/mnt/skills/a"));
    expect(err.code).toBe("NOT_FOUND");
    expect(err.message).not.toContain(tmp);
  });

  it("never puts host paths in error messages", async () => {
    await fs.symlink("/etc", path.join(workspace, "etc"));
    const attempts = [
      () => resolver.resolve("/mnt/user-data/workspace/etc/passwd"),
      () => resolver.resolve("/mnt/skills/x", "write"),
      () => resolver.resolve("/nope"),
    ];
    for (const attempt of attempts) expect((await failure(attempt())).message).not.toContain(tmp);
  });
});

describe("MountResolver.toVirtual", () => {
  it("maps both configured and real host paths back", async () => {
    const link = path.join(tmp, "ws-link");
    await fs.symlink(workspace, link);
    const linked = new MountResolver([{ virtualPath: "/mnt/user-data/workspace", hostPath: link, readOnly: false }]);
    expect(linked.toVirtual(path.join(link, "a.txt"))).toBe("/mnt/user-data/workspace/a.txt");
    await linked.resolve("/mnt/user-data/workspace/a.txt");
    expect(linked.toVirtual(path.join(workspace, "a.txt"))).toBe("/mnt/user-data/workspace/a.txt");
    expect(linked.toVirtual("/etc/passwd")).toBeUndefined();
  });
});
