import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SETTLED_FILE_MS, settledTextFile } from "./settled-text-file.js";

let tmp: string;
let clock: number;
const later = (): void => {
  clock = Date.now() + SETTLED_FILE_MS + 5_000;
};
beforeEach(async () => {
  tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "kernel-settled-file-")));
  clock = Date.now();
});
afterEach(async () => {
  vi.restoreAllMocks();
  await fs.rm(tmp, { recursive: true, force: true });
});

/** Counts reads of the file system (opens for reading). */
function countReads(): { readonly count: () => number } {
  const read = fs.readFile;
  let reads = 0;
  vi.spyOn(fs, "readFile").mockImplementation(((...args: Parameters<typeof read>) => {
    reads++;
    return read(...args);
  }) as typeof read);
  return { count: () => reads };
}

describe("settledTextFile", () => {
  it("reads a settled file once, then answers from stats; an in-place write with mtime and size restored is seen", async () => {
    const file = path.join(tmp, "SOUL.md");
    await fs.writeFile(file, "one");
    const text = settledTextFile(file, { now: () => clock });
    later();
    const reads = countReads();
    expect(await text()).toBe("one");
    expect(await text()).toBe("one");
    expect(await text()).toBe("one");
    expect(reads.count()).toBe(1);
    const before = await fs.stat(file);
    await fs.writeFile(file, "two"); // same size, in place: the folder does not change
    await fs.utimes(file, before.atime, before.mtime);
    expect(await text()).toBe("two");
    expect(reads.count()).toBe(2);
  });

  it("does not keep a read that came within the settling time of the last change", async () => {
    const file = path.join(tmp, "SOUL.md");
    await fs.writeFile(file, "one");
    const text = settledTextFile(file, { now: () => clock });
    const reads = countReads();
    expect(await text()).toBe("one");
    expect(await text()).toBe("one");
    expect(reads.count()).toBe(2);
  });

  it("knows a missing file from the folder's stat, and sees it once created, renamed in or removed", async () => {
    const file = path.join(tmp, "SOUL.md");
    const text = settledTextFile(file, { now: () => clock });
    later();
    const reads = countReads();
    expect(await text()).toBeUndefined();
    expect(await text()).toBeUndefined();
    expect(reads.count()).toBe(1);
    await fs.writeFile(path.join(tmp, ".tmp"), "made");
    await fs.rename(path.join(tmp, ".tmp"), file);
    expect(await text()).toBe("made");
    later();
    expect(await text()).toBe("made");
    await fs.rm(file);
    expect(await text()).toBeUndefined();
    await fs.writeFile(file, "again");
    expect(await text()).toBe("again");
  });

  it("a missing folder is no file, and a dangling symlink is never remembered as missing", async () => {
    const inMissing = settledTextFile(path.join(tmp, "nope", "SOUL.md"), { now: () => clock });
    expect(await inMissing()).toBeUndefined();
    await fs.mkdir(path.join(tmp, "nope"));
    await fs.writeFile(path.join(tmp, "nope", "SOUL.md"), "here");
    expect(await inMissing()).toBe("here");

    const target = path.join(tmp, "elsewhere", "real.md");
    const link = path.join(tmp, "linked", "SOUL.md");
    await fs.mkdir(path.dirname(target));
    await fs.mkdir(path.dirname(link));
    await fs.symlink(target, link);
    const text = settledTextFile(link, { now: () => clock });
    later();
    expect(await text()).toBeUndefined();
    await fs.writeFile(target, "through the link"); // the link's folder does not change
    expect(await text()).toBe("through the link");
  });

  it("throws what the file system throws for anything but a missing file", async () => {
    const folder = path.join(tmp, "folder.md");
    await fs.mkdir(folder);
    await expect(settledTextFile(folder)()).rejects.toMatchObject({ code: "EISDIR" });
  });
});
