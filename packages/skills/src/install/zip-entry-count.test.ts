import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openSkillArchive } from "./archive-reader.js";
import { readZipEntryCount } from "./zip-entry-count.js";
import { writeZip } from "../../test/support/install/zip-fixtures.js";

let dir: string;
let zip: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "zip-count-"));
  zip = path.join(dir, "a.skill");
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const EOCD = Buffer.from([0x50, 0x4b, 0x05, 0x06]);
const ZIP64_EOCD = Buffer.from([0x50, 0x4b, 0x06, 0x06]);

describe("readZipEntryCount", () => {
  it("reads the count of a classic archive", async () => {
    await writeZip(zip, [{ name: "a", data: "1" }, { name: "b/" }, { name: "b/c", data: "2" }]);
    expect(await readZipEntryCount(zip)).toBe(3);
  });

  it("follows the ZIP64 locator", async () => {
    await writeZip(
      zip,
      [
        { name: "a", data: "1" },
        { name: "b", data: "2" },
      ],
      { zip64: true },
    );
    expect(await readZipEntryCount(zip)).toBe(2);
  });

  it("reports a forged ZIP64 count of 2^40 without parsing the directory", async () => {
    await writeZip(zip, [{ name: "a", data: "1" }], { zip64: true });
    const buf = await readFile(zip);
    const at = buf.lastIndexOf(ZIP64_EOCD);
    buf.writeBigUInt64LE(2n ** 40n, at + 24);
    buf.writeBigUInt64LE(2n ** 40n, at + 32);
    await writeFile(zip, buf);
    expect(await readZipEntryCount(zip)).toBe(2 ** 40);
    await expect(openSkillArchive(zip)).rejects.toMatchObject({
      code: "ARCHIVE_TOO_LARGE",
      message: "Skill archive contains too many entries (1099511627776 > 4096).",
    });
  });

  it("uses a forged classic count before unzipper allocates records", async () => {
    await writeZip(zip, [{ name: "a", data: "1" }]);
    const buf = await readFile(zip);
    const at = buf.lastIndexOf(EOCD);
    buf.writeUInt16LE(60000, at + 8);
    buf.writeUInt16LE(60000, at + 10);
    await writeFile(zip, buf);
    await expect(openSkillArchive(zip)).rejects.toMatchObject({
      message: "Skill archive contains too many entries (60000 > 4096).",
    });
  });

  it("finds the end record behind an archive comment", async () => {
    await writeZip(zip, [{ name: "a", data: "1" }]);
    const buf = await readFile(zip);
    const at = buf.lastIndexOf(EOCD);
    const comment = Buffer.from("x".repeat(300));
    buf.writeUInt16LE(comment.length, at + 20);
    await writeFile(zip, Buffer.concat([buf, comment]));
    expect(await readZipEntryCount(zip)).toBe(1);
    const archive = await openSkillArchive(zip);
    archive.close();
    expect(archive.entries.map((e) => e.name)).toEqual(["a"]);
  });

  it.each([
    ["an empty file", Buffer.alloc(0)],
    ["text", Buffer.from("not a zip ".repeat(10))],
  ])("rejects %s", async (_label, content) => {
    await writeFile(zip, content);
    await expect(readZipEntryCount(zip)).rejects.toMatchObject({
      code: "ARCHIVE_INVALID",
      message: "File is not a valid ZIP archive",
    });
  });
});
