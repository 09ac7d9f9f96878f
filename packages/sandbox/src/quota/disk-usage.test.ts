import { chmod, link, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { measureDiskUsage } from "./disk-usage.js";

let root: string;
let outside: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "disk-usage-"));
  outside = await mkdtemp(path.join(os.tmpdir(), "disk-usage-outside-"));
});
afterEach(async () => {
  await chmod(root, 0o700).catch(() => undefined);
  await rm(root, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

describe("measureDiskUsage", () => {
  it("sums file sizes and counts every entry below the roots", async () => {
    const a = path.join(root, "a");
    const b = path.join(root, "b");
    await mkdir(path.join(a, "sub"), { recursive: true });
    await mkdir(b);
    await writeFile(path.join(a, "one.txt"), "x".repeat(100));
    await writeFile(path.join(a, "sub", "two.txt"), "y".repeat(50));
    await writeFile(path.join(b, "three.txt"), "z".repeat(7));
    const usage = await measureDiskUsage([a, b, path.join(root, "missing")], { maxEntries: 1000 });
    expect(usage).toEqual({ bytes: 157, files: 4, stoppedEarly: false, incomplete: undefined });
  });

  it("never follows symlinks (a link to a big tree counts as the link itself)", async () => {
    await writeFile(path.join(outside, "big.bin"), Buffer.alloc(1 << 20));
    await symlink(outside, path.join(root, "link"));
    const usage = await measureDiskUsage([root], { maxEntries: 1000 });
    expect(usage.files).toBe(1);
    expect(usage.bytes).toBe(outside.length);
  });

  it("counts a hard-linked file once", async () => {
    await writeFile(path.join(root, "f"), Buffer.alloc(1000));
    await link(path.join(root, "f"), path.join(root, "g"));
    const usage = await measureDiskUsage([root], { maxEntries: 1000 });
    expect(usage).toMatchObject({ bytes: 1000, files: 2 });
  });

  it("stops past maxEntries and says so", async () => {
    for (let i = 0; i < 20; i += 1) await writeFile(path.join(root, `f${i}`), "1");
    const usage = await measureDiskUsage([root], { maxEntries: 5 });
    expect(usage.stoppedEarly).toBe(true);
    expect(usage.files).toBe(6);
  });

  it("reports folders nested deeper than maxDepth as incomplete (so they cannot hide data)", async () => {
    const deep = path.join(root, "1", "2", "3", "4");
    await mkdir(deep, { recursive: true });
    await writeFile(path.join(deep, "hidden.bin"), Buffer.alloc(4096));
    const usage = await measureDiskUsage([root], { maxEntries: 1000, maxDepth: 2 });
    expect(usage.incomplete).toMatch(/nested deeper than 2 levels/);
    expect((await measureDiskUsage([root], { maxEntries: 1000, maxDepth: 10 })).incomplete).toBeUndefined();
  });

  it.skipIf(process.getuid?.() === 0)(
    "reports an unreadable folder as incomplete (non-root only: root reads every folder)",
    async () => {
      const locked = path.join(root, "locked");
      await mkdir(locked);
      await writeFile(path.join(locked, "hidden.bin"), Buffer.alloc(4096));
      await chmod(locked, 0o000);
      try {
        expect((await measureDiskUsage([root], { maxEntries: 1000 })).incomplete).toMatch(
          /could not be read \(EACCES\)/,
        );
      } finally {
        await chmod(locked, 0o700);
      }
    },
  );

  it("walks paths longer than PATH_MAX by failing closed, not by skipping them", async () => {
    // 20 levels of 250-character names: about 5,000 characters, past Linux's 4,096.
    let dir = root;
    const name = "d".repeat(250);
    for (let i = 0; i < 20; i += 1) {
      dir = path.join(dir, name);
      await mkdir(dir).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== "ENAMETOOLONG") throw err;
      });
    }
    const usage = await measureDiskUsage([root], { maxEntries: 1000 });
    // Either everything was reachable (the kernel accepted the path) or the walk says it is incomplete.
    if (usage.incomplete === undefined) expect(usage.files).toBeGreaterThan(0);
    else expect(usage.incomplete).toMatch(/ENAMETOOLONG/);
  });
});
