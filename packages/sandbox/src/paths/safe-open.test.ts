import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { OpenRefusedError, descriptorPath, openRegularFileWithin } from "./safe-open.js";

let tmp: string;
let root: string;

beforeEach(async () => {
  tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "sandbox-open-")));
  root = path.join(tmp, "root");
  await fs.mkdir(root);
});

afterEach(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    const handle = (await promise) as { close(): Promise<void> };
    await handle.close();
  } catch (err) {
    if (err instanceof OpenRefusedError) return err.reason;
    throw err;
  }
  return "opened";
}

describe("openRegularFileWithin", () => {
  it("opens a regular file inside the boundary", async () => {
    await fs.writeFile(path.join(root, "a.txt"), "hello");
    const handle = await openRegularFileWithin(path.join(root, "a.txt"), "read", root);
    try {
      expect((await handle.readFile()).toString()).toBe("hello");
    } finally {
      await handle.close();
    }
  });

  it("refuses a final symlink (one swapped in after resolution)", async () => {
    await fs.writeFile(path.join(tmp, "outside.txt"), "secret");
    await fs.symlink(path.join(tmp, "outside.txt"), path.join(root, "link"));
    expect(await refusal(openRegularFileWithin(path.join(root, "link"), "read", root))).toBe("escape");
    expect(await refusal(openRegularFileWithin(path.join(root, "link"), "append", root))).toBe("escape");
    expect(await fs.readFile(path.join(tmp, "outside.txt"), "utf8")).toBe("secret");
  });

  it("refuses a file whose descriptor lies outside the boundary", async () => {
    await fs.writeFile(path.join(tmp, "outside.txt"), "secret");
    expect(await refusal(openRegularFileWithin(path.join(tmp, "outside.txt"), "read", root))).toBe("escape");
  });

  it("refuses directories", async () => {
    await fs.mkdir(path.join(root, "d"));
    expect(await refusal(openRegularFileWithin(path.join(root, "d"), "read", root))).toBe("directory");
  });

  it("refuses a FIFO without blocking", async () => {
    const fifo = path.join(root, "pipe");
    execFileSync("mkfifo", [fifo]);
    expect(await refusal(openRegularFileWithin(fifo, "read", root))).toBe("not-regular");
    expect(await refusal(openRegularFileWithin(fifo, "append", root))).toBe("not-regular");
  });

  it("creates a missing file in append mode", async () => {
    const handle = await openRegularFileWithin(path.join(root, "new.txt"), "append", root);
    await handle.close();
    expect((await fs.stat(path.join(root, "new.txt"))).isFile()).toBe(true);
  });

  it("passes other errors through", async () => {
    await expect(openRegularFileWithin(path.join(root, "missing"), "read", root)).rejects.toMatchObject({ code: "ENOENT" });
  });
});

describe("descriptorPath", () => {
  it("reports where a descriptor points on Linux", async () => {
    await fs.writeFile(path.join(root, "a.txt"), "x");
    const handle = await fs.open(path.join(root, "a.txt"), "r");
    try {
      const actual = await descriptorPath(handle.fd);
      if (process.platform === "linux") expect(actual).toBe(path.join(root, "a.txt"));
      else expect(actual === undefined || actual === path.join(root, "a.txt")).toBe(true);
    } finally {
      await handle.close();
    }
  });
});
