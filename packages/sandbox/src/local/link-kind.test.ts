import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Mount } from "../mount.js";
import { MountResolver } from "../paths/mount-resolver.js";
import { linkKind } from "./link-kind.js";

let tmp: string;
let workspace: string;
let mount: Mount;
let resolver: MountResolver;

beforeEach(async () => {
  tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "sandbox-linkkind-")));
  workspace = path.join(tmp, "workspace");
  await fs.mkdir(path.join(workspace, "sub", "deeper"), { recursive: true });
  await fs.writeFile(path.join(workspace, "real.txt"), "x");
  mount = { virtualPath: "/mnt/user-data/workspace", hostPath: workspace, readOnly: false };
  resolver = new MountResolver([mount]);
});

afterEach(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

const kind = (...segments: string[]) =>
  linkKind(resolver, mount, segments, `/mnt/user-data/workspace/${segments.join("/")}`);

describe("linkKind", () => {
  it("gives the kind of a target inside the mount, relative links resolved from their own folder", async () => {
    await fs.symlink("real.txt", path.join(workspace, "to-file"));
    await fs.symlink("sub", path.join(workspace, "to-dir"));
    await fs.symlink("../../real.txt", path.join(workspace, "sub", "deeper", "up"));
    execFileSync("mkfifo", [path.join(workspace, "pipe")]);
    await fs.symlink("pipe", path.join(workspace, "to-pipe"));
    expect(await kind("to-file")).toBe("file");
    expect(await kind("to-dir")).toBe("directory");
    expect(await kind("sub", "deeper", "up")).toBe("file");
    expect(await kind("to-pipe")).toBe("other");
  });

  it("skips links out of the mount, above its root, dangling or looping", async () => {
    await fs.symlink("/etc", path.join(workspace, "etc"));
    await fs.symlink("../../..", path.join(workspace, "sub", "up"));
    await fs.symlink("missing", path.join(workspace, "dangling"));
    await fs.symlink("loop", path.join(workspace, "loop"));
    for (const link of [["etc"], ["sub", "up"], ["dangling"], ["loop"]]) expect(await kind(...link)).toBeUndefined();
  });
});
