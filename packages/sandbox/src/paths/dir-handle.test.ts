import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DirHandle, usingDir } from "./dir-handle.js";

let tmp: string;
let root: string;

beforeEach(async () => {
  tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "sandbox-dirfd-")));
  root = path.join(tmp, "root");
  await fs.mkdir(path.join(root, "d"), { recursive: true });
  await fs.mkdir(path.join(tmp, "outside"));
});

afterEach(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

describe("DirHandle", () => {
  it("keeps acting on the folder it opened after the folder is moved and a symlink takes its place", async () => {
    await usingDir(DirHandle.open(path.join(root, "d")), async (d) => {
      await fs.rename(path.join(root, "d"), path.join(root, "moved"));
      await fs.symlink(path.join(tmp, "outside"), path.join(root, "d"));
      await (await d.openFile("new.txt", fs.constants.O_WRONLY | fs.constants.O_CREAT)).close();
      await d.mkdir("sub");
      await d.rename("new.txt", "renamed.txt");
      expect((await d.readdir()).map((e) => e.name).sort()).toEqual(["renamed.txt", "sub"]);
      await d.unlink("renamed.txt");
    });
    expect(await fs.readdir(path.join(root, "moved"))).toEqual(["sub"]);
    expect(await fs.readdir(path.join(tmp, "outside"))).toEqual([]);
  });

  it("never follows a symlink in the name it is given", async () => {
    await fs.symlink(path.join(tmp, "outside"), path.join(root, "link"));
    await fs.writeFile(path.join(tmp, "secret.txt"), "host");
    await fs.symlink(path.join(tmp, "secret.txt"), path.join(root, "file-link"));
    await usingDir(DirHandle.open(root), async (dir) => {
      await expect(dir.openDir("link")).rejects.toMatchObject({ code: "ENOTDIR" });
      await expect(dir.openFile("file-link", fs.constants.O_RDONLY)).rejects.toMatchObject({ code: "ELOOP" });
      await expect(dir.openFile("file-link", fs.constants.O_WRONLY | fs.constants.O_CREAT)).rejects.toMatchObject({
        code: "ELOOP",
      });
      expect((await dir.lstat("link")).isSymbolicLink()).toBe(true);
      expect(await dir.readlink("link")).toBe(path.join(tmp, "outside"));
    });
  });

  it("takes single components only", async () => {
    await usingDir(DirHandle.open(root), async (dir) => {
      for (const name of ["..", ".", "", "a/b", "a\0b"]) expect(() => dir.path(name)).toThrow(TypeError);
      expect(dir.path()).toBe(`/proc/self/fd/${dir.fd}`);
    });
  });

  it("closes its descriptor with its last owner only", async () => {
    const dir = await DirHandle.open(root);
    const fd = dir.fd;
    dir.retain();
    await dir.close();
    expect((await fs.stat(`/proc/self/fd/${fd}`)).isDirectory()).toBe(true);
    await dir.close();
    expect(() => dir.path("d")).toThrow(TypeError);
  });
});
