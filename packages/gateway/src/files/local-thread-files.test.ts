import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GatewayError } from "../errors.js";
import { LocalThreadFiles } from "./local-thread-files.js";
import { parseUserDataPath } from "./virtual-path.js";

const scope = { userId: "default", threadId: "t1" };

async function codeOf(p: Promise<unknown>): Promise<string | undefined> {
  try {
    const v = await p;
    await (v as { close?: () => Promise<void> } | undefined)?.close?.();
  } catch (err) {
    return GatewayError.isInstance(err) ? err.code : `other: ${String(err)}`;
  }
  return undefined;
}

async function* failing(after: string): AsyncGenerator<Buffer> {
  if (after !== "") yield Buffer.from(after);
  throw new Error("client went away");
}

describe("LocalThreadFiles", () => {
  let root: string;
  let files: LocalThreadFiles;
  let userData: string;

  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), "thread-files-"));
    files = new LocalThreadFiles({ root });
    userData = files.userDataDir(scope);
    for (const area of ["workspace", "uploads", "outputs"]) await mkdir(path.join(userData, area), { recursive: true });
  });

  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("uses the sandbox provider's layout", () => {
    expect(userData).toBe(path.join(root, "users", "default", "threads", "t1", "user-data"));
  });

  it("refuses ids that are not folder-safe", () => {
    expect(() => files.userDataDir({ userId: "..", threadId: "t1" })).toThrow(GatewayError);
    expect(() => files.userDataDir({ userId: "u", threadId: "a/b" })).toThrow(GatewayError);
  });

  describe("open", () => {
    it("streams a regular file with its size and name", async () => {
      await writeFile(path.join(userData, "outputs", "report.md"), "# Report\n");
      const opened = await files.open(scope, parseUserDataPath("/mnt/user-data/outputs/report.md"));
      expect(opened.size).toBe(9);
      expect(opened.name).toBe("report.md");
      expect(await text(opened.read())).toBe("# Report\n");
    });

    it("reads a byte range, and closes a file that is never read", async () => {
      await writeFile(path.join(userData, "outputs", "digits.txt"), "0123456789");
      const opened = await files.open(scope, parseUserDataPath("/mnt/user-data/outputs/digits.txt"));
      expect(await text(opened.read({ start: 2, end: 5 }))).toBe("2345");
      expect(() => opened.read()).toThrow(/already read/);
      await opened.close();
      const unread = await files.open(scope, parseUserDataPath("/mnt/user-data/outputs/digits.txt"));
      await unread.close();
      await unread.close();
      expect(() => unread.read()).toThrow(/already read or closed/);
    });

    it("answers FILE_NOT_FOUND for a missing file and an unknown folder", async () => {
      expect(await codeOf(files.open(scope, parseUserDataPath("/mnt/user-data/outputs/none.md")))).toBe(
        "FILE_NOT_FOUND",
      );
      expect(await codeOf(files.open(scope, parseUserDataPath("/mnt/user-data/secrets/x")))).toBe("FILE_NOT_FOUND");
      expect(
        await codeOf(
          files.open({ userId: "default", threadId: "other" }, parseUserDataPath("/mnt/user-data/outputs/x")),
        ),
      ).toBe("FILE_NOT_FOUND");
    });

    it("answers NOT_A_FILE for folders", async () => {
      expect(await codeOf(files.open(scope, parseUserDataPath("/mnt/user-data")))).toBe("NOT_A_FILE");
      expect(await codeOf(files.open(scope, parseUserDataPath("/mnt/user-data/outputs")))).toBe("NOT_A_FILE");
    });

    it("refuses a symlink to a file outside the thread", async () => {
      const secret = path.join(root, "secret.txt");
      await writeFile(secret, "top secret");
      await symlink(secret, path.join(userData, "outputs", "leak.txt"));
      expect(await codeOf(files.open(scope, parseUserDataPath("/mnt/user-data/outputs/leak.txt")))).toBe(
        "PATH_TRAVERSAL",
      );
    });

    it("refuses a symlinked folder leading outside the thread", async () => {
      await mkdir(path.join(root, "elsewhere"));
      await writeFile(path.join(root, "elsewhere", "x.txt"), "x");
      await symlink(path.join(root, "elsewhere"), path.join(userData, "outputs", "dir"));
      expect(await codeOf(files.open(scope, parseUserDataPath("/mnt/user-data/outputs/dir/x.txt")))).toBe(
        "PATH_TRAVERSAL",
      );
    });

    it("refuses a symlink into another thread of the same user", async () => {
      const other = files.userDataDir({ userId: "default", threadId: "t2" });
      await mkdir(path.join(other, "outputs"), { recursive: true });
      await writeFile(path.join(other, "outputs", "x.txt"), "x");
      await symlink(path.join(other, "outputs", "x.txt"), path.join(userData, "outputs", "x.txt"));
      expect(await codeOf(files.open(scope, parseUserDataPath("/mnt/user-data/outputs/x.txt")))).toBe("PATH_TRAVERSAL");
    });

    it("follows a symlink that stays inside the thread", async () => {
      await writeFile(path.join(userData, "uploads", "data.csv"), "a,b\n");
      await symlink("../uploads/data.csv", path.join(userData, "outputs", "data.csv"));
      const opened = await files.open(scope, parseUserDataPath("/mnt/user-data/outputs/data.csv"));
      expect(await text(opened.read())).toBe("a,b\n");
    });

    it("treats a symlink loop as traversal", async () => {
      await symlink("b", path.join(userData, "outputs", "a"));
      await symlink("a", path.join(userData, "outputs", "b"));
      expect(await codeOf(files.open(scope, parseUserDataPath("/mnt/user-data/outputs/a")))).toBe("PATH_TRAVERSAL");
    });

    it("does not hang on a FIFO and refuses it as not a file", async () => {
      execFileSync("mkfifo", [path.join(userData, "outputs", "pipe")]);
      expect(await codeOf(files.open(scope, parseUserDataPath("/mnt/user-data/outputs/pipe")))).toBe("NOT_A_FILE");
    });
  });

  describe("list", () => {
    it("lists regular files sorted, skipping hidden files and symlinks", async () => {
      await writeFile(path.join(userData, "uploads", "b.txt"), "bb");
      await writeFile(path.join(userData, "uploads", "a.txt"), "a");
      await writeFile(path.join(userData, "uploads", ".upload-123.part"), "partial");
      await symlink("/etc/passwd", path.join(userData, "uploads", "passwd"));
      const list = await files.list(scope, "uploads");
      expect(list.map((f) => [f.filename, f.size, f.path])).toEqual([
        ["a.txt", 1, "/mnt/user-data/uploads/a.txt"],
        ["b.txt", 2, "/mnt/user-data/uploads/b.txt"],
      ]);
      expect(list[0]?.modified).toBeGreaterThan(1_600_000_000);
    });

    it("descends into folders only when recursive", async () => {
      await mkdir(path.join(userData, "outputs", "charts"));
      await writeFile(path.join(userData, "outputs", "charts", "q1.png"), "png");
      await writeFile(path.join(userData, "outputs", "report.md"), "r");
      expect((await files.list(scope, "outputs")).map((f) => f.filename)).toEqual(["report.md"]);
      expect((await files.list(scope, "outputs", { recursive: true })).map((f) => f.path)).toEqual([
        "/mnt/user-data/outputs/charts/q1.png",
        "/mnt/user-data/outputs/report.md",
      ]);
    });

    it("returns [] for a thread without folders", async () => {
      expect(await files.list({ userId: "default", threadId: "never" }, "outputs")).toEqual([]);
    });

    it("stops at maxListEntries", async () => {
      const capped = new LocalThreadFiles({ root, maxListEntries: 2 });
      for (const n of ["a", "b", "c"]) await writeFile(path.join(userData, "uploads", n), n);
      expect((await capped.list(scope, "uploads")).map((f) => f.filename)).toEqual(["a", "b"]);
    });

    it("refuses an uploads folder that is a symlink out of the thread", async () => {
      await rm(path.join(userData, "uploads"), { recursive: true });
      await mkdir(path.join(root, "outside"));
      await symlink(path.join(root, "outside"), path.join(userData, "uploads"));
      expect(await codeOf(files.list(scope, "uploads"))).toBe("PATH_TRAVERSAL");
      expect(await codeOf(files.beginUpload(scope))).toBe("PATH_TRAVERSAL");
    });
  });

  describe("uploads", () => {
    it("makes files visible only on commit", async () => {
      const batch = await files.beginUpload({ userId: "default", threadId: "fresh" });
      expect(await batch.add("a.txt", Readable.from([Buffer.from("hello")]))).toBe(5);
      const dir = path.join(files.userDataDir({ userId: "default", threadId: "fresh" }), "uploads");
      expect(await readdir(dir)).toEqual([expect.stringMatching(/^\.upload-.*\.part$/)]);
      const stored = await batch.commit();
      expect(stored.map((f) => [f.filename, f.size, f.path])).toEqual([["a.txt", 5, "/mnt/user-data/uploads/a.txt"]]);
      expect(await readdir(dir)).toEqual(["a.txt"]);
    });

    it("leaves nothing behind when a stream fails midway", async () => {
      const batch = await files.beginUpload(scope);
      await batch.add("ok.txt", Readable.from([Buffer.from("fine")]));
      await expect(batch.add("broken.txt", failing("half"))).rejects.toThrow("client went away");
      await batch.abort();
      expect(await readdir(path.join(userData, "uploads"))).toEqual([]);
    });

    // A stream failing before its first byte makes the pipeline reject while the temp file's
    // open is still pending; abort() must still find (and remove) the file that open creates.
    it("leaves nothing behind when a stream fails before its first byte", async () => {
      for (let i = 0; i < 20; i++) {
        const batch = await files.beginUpload(scope);
        await expect(batch.add(`early-${i}.txt`, failing(""))).rejects.toThrow("client went away");
        await batch.abort();
        expect(await readdir(path.join(userData, "uploads"))).toEqual([]);
      }
    });

    it("replaces a file of the same name from an earlier upload", async () => {
      await writeFile(path.join(userData, "uploads", "a.txt"), "old");
      const batch = await files.beginUpload(scope);
      await batch.add("a.txt", Readable.from([Buffer.from("new")]));
      expect((await batch.commit()).map((f) => f.filename)).toEqual(["a.txt"]);
      expect(await readFile(path.join(userData, "uploads", "a.txt"), "utf8")).toBe("new");
      expect(await readdir(path.join(userData, "uploads"))).toEqual(["a.txt"]);
    });

    it("refuses a name added twice to one batch instead of dropping a file", async () => {
      const batch = await files.beginUpload(scope);
      await batch.add("a.txt", Readable.from([Buffer.from("first")]));
      await expect(batch.add("a.txt", Readable.from([Buffer.from("second")]))).rejects.toThrow(/already holds "a.txt"/);
      expect((await batch.commit()).map((f) => [f.filename, f.size])).toEqual([["a.txt", 5]]);
    });

    it("refuses to replace a folder and renames nothing", async () => {
      await mkdir(path.join(userData, "uploads", "dir"));
      const batch = await files.beginUpload(scope);
      await batch.add("a.txt", Readable.from([Buffer.from("a")]));
      await batch.add("dir", Readable.from([Buffer.from("d")]));
      expect(await codeOf(batch.commit())).toBe("BAD_REQUEST");
      expect(await readdir(path.join(userData, "uploads"))).toEqual(["dir"]);
    });
  });

  describe("deleteUpload", () => {
    it("deletes a file", async () => {
      await writeFile(path.join(userData, "uploads", "a.txt"), "a");
      await files.deleteUpload(scope, "a.txt");
      expect(existsSync(path.join(userData, "uploads", "a.txt"))).toBe(false);
    });

    it("removes a symlink, never its target", async () => {
      const target = path.join(root, "keep.txt");
      await writeFile(target, "keep");
      await symlink(target, path.join(userData, "uploads", "link.txt"));
      await files.deleteUpload(scope, "link.txt");
      expect(await readFile(target, "utf8")).toBe("keep");
    });

    it("answers FILE_NOT_FOUND and NOT_A_FILE", async () => {
      await mkdir(path.join(userData, "uploads", "sub"));
      expect(await codeOf(files.deleteUpload(scope, "none.txt"))).toBe("FILE_NOT_FOUND");
      expect(await codeOf(files.deleteUpload(scope, "sub"))).toBe("NOT_A_FILE");
    });
  });
});
