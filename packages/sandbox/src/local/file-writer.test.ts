import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SandboxError } from "../errors.js";
import { MountResolver } from "../paths/mount-resolver.js";
import { appendToFile, writeFileAtomic, type WriteChange } from "./file-writer.js";

const WS = "/mnt/user-data/workspace";
let tmp: string;
let workspace: string;
let resolver: MountResolver;

beforeEach(async () => {
  tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "sandbox-writer-")));
  workspace = path.join(tmp, "workspace");
  await fs.mkdir(workspace);
  resolver = new MountResolver([{ virtualPath: WS, hostPath: workspace, readOnly: false }]);
});

afterEach(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

const refuse = async (): Promise<void> => {
  throw new SandboxError("TOO_LARGE", "quota");
};

describe("writeFileAtomic", () => {
  it("tells beforeWrite what the write changes", async () => {
    const changes: WriteChange[] = [];
    const hooks = { beforeWrite: async (change: WriteChange) => void changes.push(change) };
    await writeFileAtomic(resolver, `${WS}/a/b/c.txt`, "héllo", hooks);
    await writeFileAtomic(resolver, `${WS}/a/b/c.txt`, "hi", hooks);
    expect(changes).toEqual([
      { virtualPath: `${WS}/a/b/c.txt`, bytes: 6, existingBytes: 0, append: false, created: true, createdDirs: 2 },
      { virtualPath: `${WS}/a/b/c.txt`, bytes: 2, existingBytes: 6, append: false, created: false, createdDirs: 0 },
    ]);
    expect(await fs.readFile(path.join(workspace, "a", "b", "c.txt"), "utf8")).toBe("hi");
  });

  it("leaves the old content, and no temp file, when beforeWrite refuses", async () => {
    await fs.writeFile(path.join(workspace, "a.txt"), "old");
    await expect(writeFileAtomic(resolver, `${WS}/a.txt`, "new", { beforeWrite: refuse })).rejects.toMatchObject({
      code: "TOO_LARGE",
    });
    expect(await fs.readdir(workspace)).toEqual(["a.txt"]);
    expect(await fs.readFile(path.join(workspace, "a.txt"), "utf8")).toBe("old");
  });

  it("keeps an existing file's mode", async () => {
    await fs.writeFile(path.join(workspace, "run.sh"), "#!/bin/sh\n", { mode: 0o750 });
    await fs.chmod(path.join(workspace, "run.sh"), 0o750);
    await writeFileAtomic(resolver, `${WS}/run.sh`, "#!/bin/sh\necho hi\n");
    expect((await fs.stat(path.join(workspace, "run.sh"))).mode & 0o7777).toBe(0o750);
  });

  it("writes through a symlink that stays in the mount, and replaces the link's target, not the link", async () => {
    await fs.writeFile(path.join(workspace, "real.txt"), "old");
    await fs.symlink("real.txt", path.join(workspace, "alias.txt"));
    await writeFileAtomic(resolver, `${WS}/alias.txt`, "new");
    expect(await fs.readFile(path.join(workspace, "real.txt"), "utf8")).toBe("new");
    expect((await fs.lstat(path.join(workspace, "alias.txt"))).isSymbolicLink()).toBe(true);
  });

  it("refuses a directory at the name with IS_A_DIRECTORY", async () => {
    await fs.mkdir(path.join(workspace, "d"));
    await expect(writeFileAtomic(resolver, `${WS}/d`, "x")).rejects.toMatchObject({ code: "IS_A_DIRECTORY" });
    await expect(writeFileAtomic(resolver, WS, "x")).rejects.toMatchObject({ code: "IS_A_DIRECTORY" });
  });
});

describe("appendToFile", () => {
  it("creates nothing when beforeWrite refuses", async () => {
    await expect(appendToFile(resolver, `${WS}/new.txt`, "x", { beforeWrite: refuse })).rejects.toMatchObject({
      code: "TOO_LARGE",
    });
    expect(await fs.readdir(workspace)).toEqual([]);
  });

  it("appends, telling beforeWrite the current size", async () => {
    const changes: WriteChange[] = [];
    const hooks = { beforeWrite: async (change: WriteChange) => void changes.push(change) };
    await appendToFile(resolver, `${WS}/log.txt`, "one\n", hooks);
    await appendToFile(resolver, `${WS}/log.txt`, "two\n", hooks);
    expect(await fs.readFile(path.join(workspace, "log.txt"), "utf8")).toBe("one\ntwo\n");
    expect(changes.map((c) => [c.existingBytes, c.created, c.append])).toEqual([
      [0, true, true],
      [4, false, true],
    ]);
  });

  it("refuses a symlink at the name that leads out of the mount, creating nothing there", async () => {
    await fs.symlink(path.join(tmp, "planted.txt"), path.join(workspace, "trap.txt"));
    await expect(appendToFile(resolver, `${WS}/trap.txt`, "x")).rejects.toMatchObject({ code: "PATH_ESCAPE" });
    await expect(fs.access(path.join(tmp, "planted.txt"))).rejects.toThrow();
  });
});
