import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { classifySymlink, walkTree, type WalkEntry } from "./walk.js";

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

describe("walkTree", () => {
  it("visits entries in name order, directories before their contents, skipping ignored names", async () => {
    expect(await collect(walkTree(root))).toEqual(["file:a.txt", "directory:b", "directory:b/c", "file:b/c/d.txt"]);
  });

  it("stops at maxDepth", async () => {
    expect(await collect(walkTree(root, { maxDepth: 1 }))).toEqual(["file:a.txt", "directory:b"]);
  });

  it("reports symlinks without following them", async () => {
    await fs.symlink("/etc", path.join(root, "etc"));
    const entries = await collect(walkTree(root));
    expect(entries).toContain("symlink:etc");
    expect(entries.some((e) => e.startsWith("file:etc/"))).toBe(false);
  });

  it("omits entries and their subtrees on request", async () => {
    expect(await collect(walkTree(root, { omit: (rel) => rel === "b" }))).toEqual(["file:a.txt"]);
  });

  it("stops reading when the consumer breaks", async () => {
    const seen: string[] = [];
    for await (const entry of walkTree(root)) {
      seen.push(entry.relativePath);
      break;
    }
    expect(seen).toEqual(["a.txt"]);
  });

  it("yields nothing for an unreadable root", async () => {
    expect(await collect(walkTree(path.join(root, "missing")))).toEqual([]);
  });
});

describe("classifySymlink", () => {
  it("returns the target's kind when it stays inside the boundary", async () => {
    await fs.symlink("b", path.join(root, "to-dir"));
    await fs.symlink("a.txt", path.join(root, "to-file"));
    expect(await classifySymlink(path.join(root, "to-dir"), root)).toBe("directory");
    expect(await classifySymlink(path.join(root, "to-file"), root)).toBe("file");
  });

  it("returns undefined for escaping or dangling links", async () => {
    await fs.symlink("/etc", path.join(root, "etc"));
    await fs.symlink("missing", path.join(root, "dangling"));
    expect(await classifySymlink(path.join(root, "etc"), root)).toBeUndefined();
    expect(await classifySymlink(path.join(root, "dangling"), root)).toBeUndefined();
  });
});
