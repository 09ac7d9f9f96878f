import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SandboxError } from "../errors.js";
import type { Mount } from "../mount.js";
import { MountResolver, symlinkInTheWay, type AccessMode, type PathEntry } from "./mount-resolver.js";

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

/** Where an entry really is on the host (read back through procfs; tests only). */
async function hostPathOf(entry: PathEntry): Promise<string> {
  const dir = await fs.readlink(entry.dir.path());
  return entry.name === undefined ? dir : path.join(dir, entry.name);
}

/**
 * Resolves like a reader (the target opened with O_NOFOLLOW, so links are
 * followed virtually) and returns where the path ends on the host.
 */
function resolve(
  r: MountResolver,
  virtualPath: string,
  access: AccessMode = "read",
  createParents = false,
): Promise<string> {
  return r.withEntry(
    virtualPath,
    access,
    async (entry) => {
      if (entry.name !== undefined) {
        const stats = await entry.dir.lstat(entry.name).catch(() => undefined);
        if (stats?.isSymbolicLink() === true) throw symlinkInTheWay();
      }
      return hostPathOf(entry);
    },
    { createParents },
  );
}

describe("MountResolver.withEntry", () => {
  it("walks a virtual path to its place inside the mount", async () => {
    await fs.mkdir(path.join(workspace, "a"));
    expect(await resolve(resolver, "/mnt/user-data/workspace/a/b.txt")).toBe(path.join(workspace, "a", "b.txt"));
    expect(await resolve(resolver, "/mnt/user-data/workspace")).toBe(workspace);
    const segments = await resolver.withEntry("/mnt/user-data/workspace/a/b.txt", "read", async (e) => [
      e.virtualPath,
      e.segments,
      e.name,
    ]);
    expect(segments).toEqual(["/mnt/user-data/workspace/a/b.txt", ["a", "b.txt"], "b.txt"]);
  });

  it("reports a missing parent as NOT_FOUND, and creates it on request", async () => {
    expect((await failure(resolve(resolver, "/mnt/user-data/workspace/x/y/z.txt"))).code).toBe("NOT_FOUND");
    expect(await resolve(resolver, "/mnt/user-data/workspace/x/y/z.txt", "write", true)).toBe(
      path.join(workspace, "x", "y", "z.txt"),
    );
    expect((await fs.stat(path.join(workspace, "x", "y"))).isDirectory()).toBe(true);
  });

  it("refuses a parent that is a file with NOT_A_DIRECTORY", async () => {
    await fs.writeFile(path.join(workspace, "f"), "x");
    expect((await failure(resolve(resolver, "/mnt/user-data/workspace/f/x.txt", "write", true))).code).toBe(
      "NOT_A_DIRECTORY",
    );
  });

  it("refuses paths outside every mount", async () => {
    const err = await failure(resolve(resolver, "/etc/passwd"));
    expect(err.code).toBe("PATH_NOT_ALLOWED");
    expect(err.message).toBe("Only paths under /mnt/user-data/, /mnt/skills/, or configured mount paths are allowed");
  });

  it("refuses a sibling directory that shares the mount's string prefix", async () => {
    expect((await failure(resolve(resolver, "/mnt/user-data/workspace-extra/a"))).code).toBe("PATH_NOT_ALLOWED");
  });

  it("refuses traversal before touching the filesystem", async () => {
    const err = await failure(resolve(resolver, "/mnt/user-data/workspace/../../etc"));
    expect(err.code).toBe("PATH_ESCAPE");
    expect(err.message).toBe("Access denied: path traversal detected");
  });

  it("refuses a path longer than PATH_MAX", async () => {
    const long = `/mnt/user-data/workspace/${"a/".repeat(2100)}x`;
    expect((await failure(resolve(resolver, long, "write", true))).code).toBe("INVALID_ARGUMENT");
    expect(await fs.readdir(workspace)).toEqual([]);
  });

  it("refuses a symlink to /etc", async () => {
    await fs.symlink("/etc", path.join(workspace, "etc"));
    const err = await failure(resolve(resolver, "/mnt/user-data/workspace/etc/passwd"));
    expect(err.code).toBe("PATH_ESCAPE");
    expect(err.message).toBe("Access denied: path escapes mounted directory");
    expect(err.path).toBe("/mnt/user-data/workspace/etc/passwd");
  });

  it("refuses a symlink into another thread's folder", async () => {
    await fs.writeFile(path.join(otherThread, "secret.txt"), "theirs");
    await fs.symlink(otherThread, path.join(workspace, "peek"));
    expect((await failure(resolve(resolver, "/mnt/user-data/workspace/peek/secret.txt"))).code).toBe("PATH_ESCAPE");
    expect((await failure(resolve(resolver, "/mnt/user-data/workspace/peek"))).code).toBe("PATH_ESCAPE");
  });

  it("refuses a relative symlink that climbs above the mount's root", async () => {
    await fs.symlink("../../../t2/user-data/workspace", path.join(workspace, "up"));
    expect((await failure(resolve(resolver, "/mnt/user-data/workspace/up/secret.txt"))).code).toBe("PATH_ESCAPE");
  });

  it("refuses a dangling symlink whose target would be created outside the mount", async () => {
    await fs.symlink(path.join(outside, "created-by-agent.txt"), path.join(workspace, "trap.txt"));
    const err = await failure(resolve(resolver, "/mnt/user-data/workspace/trap.txt", "write"));
    expect(err.code).toBe("PATH_ESCAPE");
  });

  it("refuses a dangling directory symlink in the middle of a missing path, creating nothing outside", async () => {
    await fs.symlink(path.join(outside, "missing-dir"), path.join(workspace, "dir"));
    expect((await failure(resolve(resolver, "/mnt/user-data/workspace/dir/sub/new.txt", "write", true))).code).toBe(
      "PATH_ESCAPE",
    );
    expect(await fs.readdir(outside)).toEqual([]);
  });

  it("follows symlinks that stay inside the mount: relative, with .., by virtual path and by host path", async () => {
    await fs.mkdir(path.join(workspace, "real", "deeper"), { recursive: true });
    await fs.symlink("real", path.join(workspace, "alias"));
    await fs.symlink("../../real", path.join(workspace, "real", "deeper", "back"));
    await fs.symlink("/mnt/user-data/workspace/real", path.join(workspace, "by-virtual"));
    await fs.symlink(path.join(workspace, "real"), path.join(workspace, "by-host"));
    for (const via of ["alias", "real/deeper/back", "by-virtual", "by-host"]) {
      expect(await resolve(resolver, `/mnt/user-data/workspace/${via}/new.txt`, "write")).toBe(
        path.join(workspace, "real", "new.txt"),
      );
    }
    const segments = await resolver.withEntry("/mnt/user-data/workspace/alias", "read", async (e) => e.segments);
    expect(segments).toEqual(["alias"]);
  });

  it("treats a symlink cycle as an escape", async () => {
    await fs.symlink("b", path.join(workspace, "a"));
    await fs.symlink("a", path.join(workspace, "b"));
    expect((await failure(resolve(resolver, "/mnt/user-data/workspace/a/x"))).code).toBe("PATH_ESCAPE");
    expect((await failure(resolve(resolver, "/mnt/user-data/workspace/a"))).code).toBe("PATH_ESCAPE");
  });

  it("keeps using the folders it opened when one is swapped for a symlink during the call", async () => {
    await fs.mkdir(path.join(workspace, "d"));
    await resolver.withEntry(
      "/mnt/user-data/workspace/d/new.txt",
      "write",
      async ({ dir, name }) => {
        await fs.rename(path.join(workspace, "d"), path.join(workspace, "d-moved"));
        await fs.symlink(outside, path.join(workspace, "d"));
        await (await dir.openFile(name as string, fs.constants.O_WRONLY | fs.constants.O_CREAT)).close();
      },
      { createParents: true },
    );
    expect(await fs.readdir(outside)).toEqual([]);
    expect(await fs.readdir(path.join(workspace, "d-moved"))).toEqual(["new.txt"]);
  });

  it("refuses writes to a read-only mount with the virtual path", async () => {
    const err = await failure(resolve(resolver, "/mnt/skills/pdf/SKILL.md", "write"));
    expect(err.code).toBe("READ_ONLY");
    expect(err.message).toBe("Read-only file system: /mnt/skills/pdf/SKILL.md");
  });

  it("allows reads from a read-only mount", async () => {
    await fs.mkdir(path.join(skills, "pdf"));
    expect(await resolve(resolver, "/mnt/skills/pdf/SKILL.md")).toBe(path.join(skills, "pdf", "SKILL.md"));
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
    expect((await failure(resolve(nested, "/mnt/data/alias/x.txt", "write"))).code).toBe("READ_ONLY");
    expect((await failure(resolve(nested, "/mnt/data/locked/x.txt", "write"))).code).toBe("READ_ONLY");
    expect(await resolve(nested, "/mnt/data/alias/x.txt", "read")).toBe(path.join(locked, "x.txt"));
  });

  it("reaches a mount nested in another mount's folder without following a symlink swapped in for it", async () => {
    const parent = path.join(tmp, "data");
    await fs.mkdir(path.join(parent, "inner"), { recursive: true });
    const nested = new MountResolver([
      { virtualPath: "/mnt/data", hostPath: parent, readOnly: false },
      { virtualPath: "/mnt/inner", hostPath: path.join(parent, "inner"), readOnly: true },
    ]);
    expect(await resolve(nested, "/mnt/inner/x.txt")).toBe(path.join(parent, "inner", "x.txt"));
    // What a command writing in /mnt/data could do: replace the inner mount's folder by a link to the host.
    await fs.rename(path.join(parent, "inner"), path.join(parent, "inner-moved"));
    await fs.symlink("/etc", path.join(parent, "inner"));
    expect((await failure(resolve(nested, "/mnt/inner/passwd"))).code).toBe("NOT_FOUND");
  });

  it("reports NOT_FOUND when a mount's host folder is gone", async () => {
    await fs.rm(skills, { recursive: true });
    const err = await failure(resolve(resolver, "/mnt/skills/a"));
    expect(err.code).toBe("NOT_FOUND");
    expect(err.message).not.toContain(tmp);
  });

  it("never puts host paths in error messages", async () => {
    await fs.symlink("/etc", path.join(workspace, "etc"));
    await fs.writeFile(path.join(workspace, "f"), "x");
    const attempts = [
      () => resolve(resolver, "/mnt/user-data/workspace/etc/passwd"),
      () => resolve(resolver, "/mnt/skills/x", "write"),
      () => resolve(resolver, "/nope"),
      () => resolve(resolver, "/mnt/user-data/workspace/missing/x"),
      () => resolve(resolver, "/mnt/user-data/workspace/f/x", "write", true),
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
    await linked.realRoot(linked.mounts[0] as Mount);
    expect(linked.toVirtual(path.join(workspace, "a.txt"))).toBe("/mnt/user-data/workspace/a.txt");
    expect(linked.toVirtual("/etc/passwd")).toBeUndefined();
  });
});
