import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DirHandle, usingDir } from "../paths/dir-handle.js";
import { walkTree, type WalkEntry, type WalkOptions } from "./walk.js";

let tmp: string;
let root: string;

beforeEach(async () => {
  tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "sandbox-walk-")));
  root = path.join(tmp, "root");
  await fs.mkdir(path.join(root, "b", "c"), { recursive: true });
  await fs.mkdir(path.join(root, "node_modules", "pkg"), { recursive: true });
  await fs.writeFile(path.join(root, "a.txt"), "a");
  await fs.writeFile(path.join(root, "b", "c", "d.txt"), "d");
  await fs.writeFile(path.join(root, "node_modules", "pkg", "index.js"), "x");
  await fs.writeFile(path.join(root, "debug.log"), "x");
});

afterEach(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

async function collect(iterable: AsyncIterable<WalkEntry>): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of iterable) out.push(`${entry.kind}:${entry.relativePath}`);
  return out;
}

/** Walks `dir` (opened for the call) and collects `kind:relativePath` entries. */
function walk(dir: string, options?: WalkOptions): Promise<string[]> {
  return usingDir(DirHandle.open(dir), (handle) => collect(walkTree(handle, options)));
}

/** Descriptors this process has open. */
async function openDescriptors(): Promise<number> {
  return (await fs.readdir("/proc/self/fd")).length;
}

describe("walkTree", () => {
  it("visits entries in name order, directories before their contents, skipping ignored names", async () => {
    expect(await walk(root)).toEqual(["file:a.txt", "directory:b", "directory:b/c", "file:b/c/d.txt"]);
  });

  it("stops at maxDepth", async () => {
    expect(await walk(root, { maxDepth: 1 })).toEqual(["file:a.txt", "directory:b"]);
  });

  it("reports symlinks without following them", async () => {
    await fs.symlink("/etc", path.join(root, "etc"));
    const entries = await walk(root);
    expect(entries).toContain("symlink:etc");
    expect(entries.some((e) => e.startsWith("file:etc/"))).toBe(false);
  });

  it("omits entries and their subtrees on request", async () => {
    expect(await walk(root, { omit: (rel) => rel === "b" })).toEqual(["file:a.txt"]);
  });

  it("stops reading when the consumer breaks, and closes what it opened", async () => {
    const dir = await DirHandle.open(root);
    const before = await openDescriptors();
    const seen: string[] = [];
    for await (const entry of walkTree(dir)) {
      seen.push(entry.relativePath);
      if (entry.relativePath === "b/c") break;
    }
    expect(seen).toEqual(["a.txt", "b", "b/c"]);
    expect(await openDescriptors()).toBe(before);
    await dir.close();
  });

  it("yields nothing for a root removed after it was opened", async () => {
    const gone = path.join(tmp, "gone");
    await fs.mkdir(gone);
    const dir = await DirHandle.open(gone);
    await fs.rmdir(gone);
    expect(await collect(walkTree(dir))).toEqual([]);
    await dir.close();
  });

  it("keeps walking the folders it opened when their paths are swapped for symlinks mid-walk", async () => {
    const outside = path.join(tmp, "outside");
    await fs.mkdir(path.join(outside, "c"), { recursive: true });
    await fs.writeFile(path.join(outside, "c", "secret.txt"), "host");
    const seen: string[] = [];
    await usingDir(DirHandle.open(root), async (dir) => {
      for await (const entry of walkTree(dir)) {
        seen.push(entry.relativePath);
        if (entry.relativePath === "b") {
          // Between listing b and opening it: b becomes a link to a host folder with the same layout.
          await fs.rename(path.join(root, "b"), path.join(root, "b-real"));
          await fs.symlink(outside, path.join(root, "b"));
        }
      }
    });
    expect(seen).toEqual(["a.txt", "b"]);
    expect(seen.some((p) => p.includes("secret"))).toBe(false);
  });

  it("walks a tree deeper than the folders it keeps open, with a bounded number of descriptors", async () => {
    const levels = 100;
    const deep = path.join(tmp, "deep");
    let current = deep;
    for (let i = 0; i < levels; i++) {
      current = path.join(current, `l${i}`);
      await fs.mkdir(current, { recursive: true });
      await fs.writeFile(path.join(current, "f.txt"), String(i));
    }
    const before = await openDescriptors();
    let most = 0;
    let files = 0;
    await usingDir(DirHandle.open(deep), async (dir) => {
      for await (const entry of walkTree(dir)) {
        if (entry.kind === "file") files++;
        if (entry.depth % 10 === 0) most = Math.max(most, await openDescriptors());
      }
    });
    expect(files).toBe(levels);
    expect(most - before).toBeLessThan(40);
  });
});
