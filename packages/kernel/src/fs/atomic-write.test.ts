import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fsyncDirectory, writeFileAtomic } from "./atomic-write.js";

let tmp: string;
beforeEach(async () => {
  tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "kernel-atomic-write-")));
});
afterEach(async () => {
  vi.restoreAllMocks();
  await fs.rm(tmp, { recursive: true, force: true });
});

async function fileHandlePrototype(): Promise<{ sync(): Promise<void> }> {
  const handle = await fs.open(tmp, "r");
  await handle.close();
  return Object.getPrototypeOf(handle) as { sync(): Promise<void> };
}

describe("writeFileAtomic", () => {
  it("creates a new file with mode 0644 whatever the umask, leaving no temp file", async () => {
    const file = path.join(tmp, "a.json");
    const previous = process.umask(0o077);
    try {
      await writeFileAtomic(file, "{}");
    } finally {
      process.umask(previous);
    }
    expect(await fs.readFile(file, "utf8")).toBe("{}");
    expect((await fs.stat(file)).mode & 0o777).toBe(0o644);
    expect(await fs.readdir(tmp)).toEqual(["a.json"]);
  });

  it("keeps the mode of the file it replaces; a numeric mode applies to new files only", async () => {
    const file = path.join(tmp, "a.json");
    await fs.writeFile(file, "old");
    await fs.chmod(file, 0o600);
    await writeFileAtomic(file, "new", { mode: 0o640 });
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    expect(await fs.readFile(file, "utf8")).toBe("new");
    await writeFileAtomic(path.join(tmp, "b.json"), "x", { mode: 0o640 });
    expect((await fs.stat(path.join(tmp, "b.json"))).mode & 0o777).toBe(0o640);
  });

  it("lets a mode function map the existing mode (undefined for a new file)", async () => {
    const seen: (number | undefined)[] = [];
    const mode = (existing: number | undefined): number => {
      seen.push(existing);
      return (existing ?? 0o600) | 0o044;
    };
    const file = path.join(tmp, "c.txt");
    await writeFileAtomic(file, "1", { mode });
    await fs.chmod(file, 0o700);
    await writeFileAtomic(file, "2", { mode });
    expect(seen).toEqual([undefined, 0o700]);
    expect((await fs.stat(file)).mode & 0o777).toBe(0o744);
  });

  it("writes bytes unchanged", async () => {
    const file = path.join(tmp, "b.bin");
    await writeFileAtomic(file, Uint8Array.from([0, 255, 10, 13]));
    expect([...(await fs.readFile(file))]).toEqual([0, 255, 10, 13]);
  });

  it("has the complete, fsynced content on disk before the rename makes it visible", async () => {
    const file = path.join(tmp, "a.json");
    await fs.writeFile(file, "old");
    const events: string[] = [];
    const proto = await fileHandlePrototype();
    const sync = proto.sync;
    vi.spyOn(proto, "sync").mockImplementation(async function (this: unknown) {
      events.push("sync");
      return sync.call(this);
    });
    const rename = fs.rename;
    vi.spyOn(fs, "rename").mockImplementation(async (from, to) => {
      events.push(`rename with ${await fs.readFile(from, "utf8")}; target still ${await fs.readFile(to, "utf8")}`);
      return rename(from, to);
    });
    await writeFileAtomic(file, "new");
    expect(events).toEqual(["sync", "rename with new; target still old", "sync"]);
  });

  it("leaves the old file and no temp file when the rename fails", async () => {
    const file = path.join(tmp, "a.json");
    await fs.writeFile(file, "old");
    vi.spyOn(fs, "rename").mockRejectedValueOnce(Object.assign(new Error("EIO: simulated crash"), { code: "EIO" }));
    await expect(writeFileAtomic(file, "new")).rejects.toThrow("simulated crash");
    expect(await fs.readFile(file, "utf8")).toBe("old");
    expect(await fs.readdir(tmp)).toEqual(["a.json"]);
  });

  it("leaves the old file and no temp file when the data cannot be synced", async () => {
    const file = path.join(tmp, "a.json");
    await fs.writeFile(file, "old");
    const proto = await fileHandlePrototype();
    vi.spyOn(proto, "sync").mockRejectedValueOnce(Object.assign(new Error("ENOSPC: disk full"), { code: "ENOSPC" }));
    await expect(writeFileAtomic(file, "new")).rejects.toThrow("disk full");
    expect(await fs.readFile(file, "utf8")).toBe("old");
    expect(await fs.readdir(tmp)).toEqual(["a.json"]);
  });

  it("replaces a symlink at the target instead of writing through it", async () => {
    const outside = path.join(tmp, "victim.txt");
    await fs.writeFile(outside, "original");
    const link = path.join(tmp, "link.txt");
    await fs.symlink(outside, link);
    await writeFileAtomic(link, "new");
    expect(await fs.readFile(outside, "utf8")).toBe("original");
    expect((await fs.lstat(link)).isFile()).toBe(true);
    expect(await fs.readFile(link, "utf8")).toBe("new");
  });

  it("fails without creating anything when the directory does not exist", async () => {
    await expect(writeFileAtomic(path.join(tmp, "missing", "a.json"), "x")).rejects.toMatchObject({ code: "ENOENT" });
    expect(await fs.readdir(tmp)).toEqual([]);
  });
});

describe("fsyncDirectory", () => {
  it("syncs a directory and ignores one that cannot be opened", async () => {
    await expect(fsyncDirectory(tmp)).resolves.toBeUndefined();
    await expect(fsyncDirectory(path.join(tmp, "missing"))).resolves.toBeUndefined();
  });
});
