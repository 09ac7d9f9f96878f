import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { MAX_READ_BYTES } from "../limits.js";
import { createFixture, expectCode, type Fixture } from "../../test/support/local/thread-fixture.js";

const WS = "/mnt/user-data/workspace";
let fx: Fixture;

beforeEach(async () => {
  fx = await createFixture();
});

afterEach(async () => {
  vi.restoreAllMocks();
  await fs.rm(fx.tmp, { recursive: true, force: true });
});

describe("LocalSandbox.readFile", () => {
  it("returns the whole file verbatim, line endings included", async () => {
    await fs.writeFile(path.join(fx.workspace, "a.txt"), "one\r\ntwo\n\nthree");
    expect(await fx.sandbox.readFile(`${WS}/a.txt`)).toBe("one\r\ntwo\n\nthree");
  });

  it("returns a 1-based inclusive range joined with \\n, without a trailing newline", async () => {
    await fs.writeFile(path.join(fx.workspace, "a.txt"), "l1\nl2\r\nl3\nl4\n");
    expect(await fx.sandbox.readFile(`${WS}/a.txt`, { startLine: 2, endLine: 3 })).toBe("l2\nl3");
    expect(await fx.sandbox.readFile(`${WS}/a.txt`, { startLine: 3 })).toBe("l3\nl4");
    expect(await fx.sandbox.readFile(`${WS}/a.txt`, { endLine: 1 })).toBe("l1");
    expect(await fx.sandbox.readFile(`${WS}/a.txt`, { startLine: 9 })).toBe("");
  });

  it.each([{ startLine: 0 }, { endLine: 0 }, { startLine: -2 }, { startLine: 1.5 }, { startLine: 3, endLine: 2 }])(
    "rejects the range %o with INVALID_ARGUMENT",
    async (range) => {
      await fs.writeFile(path.join(fx.workspace, "a.txt"), "x\n");
      await expectCode(fx.sandbox.readFile(`${WS}/a.txt`, range), "INVALID_ARGUMENT");
    },
  );

  it("reports a missing file as NOT_FOUND with the virtual path", async () => {
    const err = await expectCode(fx.sandbox.readFile(`${WS}/nope.txt`), "NOT_FOUND");
    expect(err.message).toBe(`File not found: ${WS}/nope.txt`);
  });

  it("reports a directory as IS_A_DIRECTORY", async () => {
    await fs.mkdir(path.join(fx.workspace, "d"));
    await expectCode(fx.sandbox.readFile(`${WS}/d`), "IS_A_DIRECTORY");
    await expectCode(fx.sandbox.readFile(WS), "IS_A_DIRECTORY");
  });

  it("refuses a binary file with a clear INVALID_ARGUMENT", async () => {
    await fs.writeFile(path.join(fx.workspace, "img.png"), Buffer.from([0x89, 0x50, 0x00, 0x47]));
    const err = await expectCode(fx.sandbox.readFile(`${WS}/img.png`), "INVALID_ARGUMENT");
    expect(err.message).toContain(`cannot read '${WS}/img.png' as text`);
    expect(err.message).toContain("binary file");
  });

  it("refuses a FIFO instead of blocking on it, and grep skips it", async () => {
    execFileSync("mkfifo", [path.join(fx.workspace, "pipe")]);
    const err = await expectCode(fx.sandbox.readFile(`${WS}/pipe`), "INVALID_ARGUMENT");
    expect(err.message).toBe(`Not a regular file: ${WS}/pipe`);
    await expectCode(fx.sandbox.readBytes(`${WS}/pipe`), "INVALID_ARGUMENT");
    expect(await fx.sandbox.grep(WS, "x")).toEqual({ matches: [], truncated: false });
    expect(await fx.sandbox.listDir(WS)).toEqual([`${WS}/pipe`]);
  });

  it("reads lines 3-5 of a 50 MB file in bounded memory", async () => {
    const file = path.join(fx.workspace, "big.txt");
    const handle = await fs.open(file, "w");
    const block = Buffer.from(`${"0123456789".repeat(9)}\n`.repeat(11_000)); // ~1 MB of 91-byte lines
    await handle.write("first\nsecond\nthird\nfourth\nfifth\n");
    for (let i = 0; i < 50; i++) await handle.write(block);
    await handle.write("next to last\nlast");
    await handle.close();
    expect((await fs.stat(file)).size).toBeGreaterThan(50_000_000);

    const before = process.memoryUsage().rss;
    expect(await fx.sandbox.readFile(`${WS}/big.txt`, { startLine: 3, endLine: 5 })).toBe("third\nfourth\nfifth");
    const totalLines = 5 + 50 * 11_000 + 2;
    expect(await fx.sandbox.readFile(`${WS}/big.txt`, { startLine: totalLines - 1 })).toBe("next to last\nlast");
    const growth = process.memoryUsage().rss - before;
    expect(growth).toBeLessThan(25 * 1024 * 1024);
  }, 60_000);
});

describe("LocalSandbox.readBytes", () => {
  it("returns the exact bytes", async () => {
    const data = Buffer.from([0, 1, 2, 255, 10, 13]);
    await fs.writeFile(path.join(fx.workspace, "b.bin"), data);
    const back = await fx.sandbox.readBytes(`${WS}/b.bin`);
    expect(back).toBeInstanceOf(Uint8Array);
    expect(Array.from(back)).toEqual(Array.from(data));
    expect(back.buffer.byteLength).toBeLessThanOrEqual(data.length + 1);
  });

  it("refuses files over 100 MiB with DeerFlow's message", async () => {
    const file = path.join(fx.workspace, "huge.bin");
    await fs.writeFile(file, "");
    await fs.truncate(file, MAX_READ_BYTES + 1);
    const err = await expectCode(fx.sandbox.readBytes(`${WS}/huge.bin`), "TOO_LARGE");
    expect(err.message).toBe("File exceeds maximum download size of 104857600 bytes");
  });

  it("reports directories and missing files", async () => {
    await expectCode(fx.sandbox.readBytes(WS), "IS_A_DIRECTORY");
    await expectCode(fx.sandbox.readBytes(`${WS}/missing.bin`), "NOT_FOUND");
  });
});

describe("LocalSandbox.writeFile", () => {
  it("creates parent directories", async () => {
    await fx.sandbox.writeFile(`${WS}/a/b/c.txt`, "deep");
    expect(await fs.readFile(path.join(fx.workspace, "a", "b", "c.txt"), "utf8")).toBe("deep");
  });

  it("replaces content and leaves no temp file behind", async () => {
    await fx.sandbox.writeFile(`${WS}/f.txt`, "a long first version");
    await fx.sandbox.writeFile(`${WS}/f.txt`, "short");
    expect(await fs.readFile(path.join(fx.workspace, "f.txt"), "utf8")).toBe("short");
    expect(await fs.readdir(fx.workspace)).toEqual(["f.txt"]);
  });

  it("keeps the mode of the file it replaces", async () => {
    const file = path.join(fx.workspace, "run.sh");
    await fs.writeFile(file, "#!/bin/sh\n");
    await fs.chmod(file, 0o750);
    await fx.sandbox.writeFile(`${WS}/run.sh`, "#!/bin/sh\necho hi\n");
    expect((await fs.stat(file)).mode & 0o777).toBe(0o750);
  });

  it("keeps the old content when the rename fails", async () => {
    await fs.writeFile(path.join(fx.workspace, "f.txt"), "old");
    vi.spyOn(fs, "rename").mockRejectedValueOnce(Object.assign(new Error("EIO: simulated"), { code: "EIO" }));
    await expectCode(fx.sandbox.writeFile(`${WS}/f.txt`, "new"), "UNAVAILABLE");
    expect(await fs.readFile(path.join(fx.workspace, "f.txt"), "utf8")).toBe("old");
    expect(await fs.readdir(fx.workspace)).toEqual(["f.txt"]);
  });

  it("appends, creating the file when missing", async () => {
    await fx.sandbox.writeFile(`${WS}/log/l.txt`, "one\n", { append: true });
    await fx.sandbox.writeFile(`${WS}/log/l.txt`, "two\n", { append: true });
    expect(await fs.readFile(path.join(fx.workspace, "log", "l.txt"), "utf8")).toBe("one\ntwo\n");
  });

  it("leaves one whole version after concurrent writers", async () => {
    const versions = Array.from({ length: 15 }, (_, i) => String(i).repeat(50_000 + i));
    await Promise.all(versions.map((v) => fx.sandbox.writeFile(`${WS}/same.txt`, v)));
    expect(versions).toContain(await fs.readFile(path.join(fx.workspace, "same.txt"), "utf8"));
  });

  it("refuses to replace a directory or write below a file", async () => {
    await fs.mkdir(path.join(fx.workspace, "d"));
    await fs.writeFile(path.join(fx.workspace, "f.txt"), "keep");
    await expectCode(fx.sandbox.writeFile(`${WS}/d`, "x"), "IS_A_DIRECTORY");
    await expectCode(fx.sandbox.writeFile(WS, "x"), "IS_A_DIRECTORY");
    await expectCode(fx.sandbox.writeFile(`${WS}/f.txt/child`, "x"), "NOT_A_DIRECTORY");
    expect(await fs.readFile(path.join(fx.workspace, "f.txt"), "utf8")).toBe("keep");
  });

  it("refuses the write when a parent directory is swapped for an escaping symlink while being created", async () => {
    const planted = path.join(fx.workspace, "newdir");
    vi.spyOn(fs, "mkdir").mockImplementationOnce(async () => {
      await fs.symlink(fx.outside, planted);
      return undefined;
    });
    await expectCode(fx.sandbox.writeFile(`${WS}/newdir/file.txt`, "x"), "PATH_ESCAPE");
    await expectCode(fx.sandbox.writeFile(`${WS}/newdir/file.txt`, "x", { append: true }), "PATH_ESCAPE");
    expect(await fs.readdir(fx.outside)).toEqual(["secret.txt"]);
  });

  it("writes bytes atomically too", async () => {
    await fx.sandbox.writeBytes(`${WS}/out/b.bin`, new Uint8Array([0, 255, 1]));
    expect(Array.from(await fs.readFile(path.join(fx.workspace, "out", "b.bin")))).toEqual([0, 255, 1]);
  });

  it("writes to uploads and outputs", async () => {
    await fx.sandbox.writeFile("/mnt/user-data/uploads/u.txt", "u");
    await fx.sandbox.writeFile("/mnt/user-data/outputs/o.txt", "o");
    expect(await fs.readFile(path.join(fx.uploads, "u.txt"), "utf8")).toBe("u");
    expect(await fs.readFile(path.join(fx.outputs, "o.txt"), "utf8")).toBe("o");
  });
});
