import fs, { type FileHandle } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isBinaryFile, readLines, type ReadLinesOptions } from "./text-file.js";

let tmp: string;

beforeEach(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), "sandbox-text-"));
});

afterEach(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

async function lines(
  content: string | Buffer,
  options: ReadLinesOptions = {},
): Promise<Array<[number, string | undefined]>> {
  const file = path.join(tmp, "f.txt");
  await fs.writeFile(file, content);
  const handle = await fs.open(file, "r");
  try {
    const out: Array<[number, string | undefined]> = [];
    for await (const line of readLines(handle, options)) out.push([line.number, line.text]);
    return out;
  } finally {
    await handle.close();
  }
}

describe("readLines", () => {
  it("splits on \\n, keeps a final unterminated line and drops the empty tail", async () => {
    expect(await lines("a\nb")).toEqual([
      [1, "a"],
      [2, "b"],
    ]);
    expect(await lines("a\nb\n")).toEqual([
      [1, "a"],
      [2, "b"],
    ]);
    expect(await lines("a\n\n")).toEqual([
      [1, "a"],
      [2, ""],
    ]);
    expect(await lines("")).toEqual([]);
  });

  it("strips a trailing \\r", async () => {
    expect(await lines("a\r\nb\r\n")).toEqual([
      [1, "a"],
      [2, "b"],
    ]);
  });

  it("returns only the requested range", async () => {
    expect(await lines("1\n2\n3\n4\n5\n", { startLine: 2, endLine: 3 })).toEqual([
      [2, "2"],
      [3, "3"],
    ]);
    expect(await lines("1\n2\n3\n", { startLine: 3 })).toEqual([[3, "3"]]);
    expect(await lines("1\n2\n3\n", { endLine: 1 })).toEqual([[1, "1"]]);
    expect(await lines("1\n2\n", { startLine: 5 })).toEqual([]);
    expect(await lines("1\n2\n", { startLine: 2, endLine: 1 })).toEqual([]);
  });

  it("decodes multi-byte characters split across read chunks", async () => {
    const long = `${"x".repeat(64 * 1024 - 1)}é中😀`;
    const result = await lines(`${long}\nnext`);
    expect(result[0]?.[1]).toBe(long);
    expect(result[1]).toEqual([2, "next"]);
  });

  it("replaces invalid UTF-8 with U+FFFD", async () => {
    expect(await lines(Buffer.from([0x61, 0xff, 0x62]))).toEqual([[1, "a\uFFFDb"]]);
  });

  it("stops reading once the range is done", async () => {
    const file = path.join(tmp, "big.txt");
    await fs.writeFile(file, "line\n".repeat(1_000_000));
    const handle = await fs.open(file, "r");
    let reads = 0;
    const counting = {
      read: (...args: Parameters<FileHandle["read"]>) => (reads++, handle.read(...args)),
    } as unknown as FileHandle;
    try {
      const got: Array<string | undefined> = [];
      for await (const line of readLines(counting, { startLine: 3, endLine: 5 })) got.push(line.text);
      expect(got).toEqual(["line", "line", "line"]);
      expect(reads).toBe(1);
    } finally {
      await handle.close();
    }
  });

  it("reports overlong lines without their text", async () => {
    expect(await lines(`short\n${"y".repeat(100)}\nend`, { maxLineBytes: 10 })).toEqual([
      [1, "short"],
      [2, undefined],
      [3, "end"],
    ]);
    expect(await lines("z".repeat(100), { maxLineBytes: 10 })).toEqual([[1, undefined]]);
  });
});

describe("isBinaryFile", () => {
  async function probe(content: Buffer): Promise<boolean> {
    const file = path.join(tmp, "p.bin");
    await fs.writeFile(file, content);
    const handle = await fs.open(file, "r");
    try {
      return await isBinaryFile(handle);
    } finally {
      await handle.close();
    }
  }

  it("detects a NUL in the first 8 KiB", async () => {
    expect(await probe(Buffer.from("abc\0def"))).toBe(true);
    expect(await probe(Buffer.from("plain text\n"))).toBe(false);
    expect(await probe(Buffer.alloc(0))).toBe(false);
  });

  it("ignores a NUL after the first 8 KiB", async () => {
    expect(await probe(Buffer.concat([Buffer.alloc(8192, 0x61), Buffer.from([0])]))).toBe(false);
    expect(await probe(Buffer.concat([Buffer.alloc(8191, 0x61), Buffer.from([0])]))).toBe(true);
  });
});
