import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SandboxError } from "../errors.js";
import { DirHandle } from "./dir-handle.js";
import { OpenRefusedError, openDirectory, openRegularFile, openTarget } from "./safe-open.js";

let tmp: string;
let root: string;
let dir: DirHandle;

beforeEach(async () => {
  tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "sandbox-open-")));
  root = path.join(tmp, "root");
  await fs.mkdir(root);
  dir = await DirHandle.open(root);
});

afterEach(async () => {
  await dir.close();
  await fs.rm(tmp, { recursive: true, force: true });
});

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    const handle = (await promise) as { close(): Promise<void> };
    await handle.close();
  } catch (err) {
    if (err instanceof OpenRefusedError) return err.reason;
    return (err as NodeJS.ErrnoException).code ?? String(err);
  }
  return "opened";
}

describe("openRegularFile", () => {
  it("opens a regular file of the directory", async () => {
    await fs.writeFile(path.join(root, "a.txt"), "hello");
    const handle = await openRegularFile(dir, "a.txt", "read");
    try {
      expect((await handle.readFile()).toString()).toBe("hello");
    } finally {
      await handle.close();
    }
  });

  it("fails with ELOOP on a symlink, for the resolver to follow virtually, and never reads through it", async () => {
    await fs.writeFile(path.join(tmp, "outside.txt"), "secret");
    await fs.symlink(path.join(tmp, "outside.txt"), path.join(root, "link"));
    expect(await refusal(openRegularFile(dir, "link", "read"))).toBe("ELOOP");
    expect(await refusal(openRegularFile(dir, "link", "append"))).toBe("ELOOP");
    expect(await fs.readFile(path.join(tmp, "outside.txt"), "utf8")).toBe("secret");
  });

  it("refuses directories, including the directory itself", async () => {
    await fs.mkdir(path.join(root, "d"));
    expect(await refusal(openRegularFile(dir, "d", "read"))).toBe("directory");
    expect(await refusal(openRegularFile(dir, undefined, "read"))).toBe("directory");
  });

  it("refuses a FIFO without blocking", async () => {
    execFileSync("mkfifo", [path.join(root, "pipe")]);
    expect(await refusal(openRegularFile(dir, "pipe", "read"))).toBe("not-regular");
    expect(await refusal(openRegularFile(dir, "pipe", "append"))).toBe("not-regular");
  });

  it("creates a missing file in append mode", async () => {
    await (await openRegularFile(dir, "new.txt", "append")).close();
    expect((await fs.stat(path.join(root, "new.txt"))).isFile()).toBe(true);
  });

  it("passes other errors through", async () => {
    await expect(openRegularFile(dir, "missing", "read")).rejects.toMatchObject({ code: "ENOENT" });
  });
});

describe("openTarget / openDirectory", () => {
  it("opens a file or a directory by what it is", async () => {
    await fs.writeFile(path.join(root, "a.txt"), "x");
    await fs.mkdir(path.join(root, "d"));
    const file = await openTarget({ dir, name: "a.txt" });
    expect(file.kind).toBe("file");
    if (file.kind === "file") await file.file.close();
    const sub = await openTarget({ dir, name: "d" });
    expect(sub.kind).toBe("directory");
    if (sub.kind === "directory") await sub.dir.close();
    const self = await openDirectory({ dir, name: undefined, virtualPath: "/mnt/x" });
    expect(self).toBe(dir);
    await self.close();
  });

  it("fails with ELOOP on a symlink to a directory", async () => {
    await fs.symlink(tmp, path.join(root, "up"));
    expect(await refusal(openTarget({ dir, name: "up" }))).toBe("ELOOP");
  });

  it("refuses a FIFO, and a file as a directory with NOT_A_DIRECTORY", async () => {
    execFileSync("mkfifo", [path.join(root, "pipe")]);
    await fs.writeFile(path.join(root, "a.txt"), "x");
    expect(await refusal(openTarget({ dir, name: "pipe" }))).toBe("not-regular");
    for (const name of ["pipe", "a.txt"]) {
      const err = await openDirectory({ dir, name, virtualPath: `/mnt/x/${name}` }).catch((e: unknown) => e);
      expect(SandboxError.isInstance(err) && err.code).toBe("NOT_A_DIRECTORY");
    }
  });
});
