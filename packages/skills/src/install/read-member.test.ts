import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SkillsError } from "../errors.js";
import { readSkillArchiveMember } from "./read-member.js";
import {
  forgeDeclaredSizes,
  patchZipName,
  skillMd,
  writeZip,
  zeroStream,
} from "../../test/support/install/zip-fixtures.js";

let dir: string;
let n = 0;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "read-member-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function zip(entries: Parameters<typeof writeZip>[1]): Promise<string> {
  n += 1;
  const file = path.join(dir, `a${n}.skill`);
  await writeZip(file, entries);
  return file;
}

async function rejection(promise: Promise<unknown>): Promise<SkillsError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!SkillsError.isInstance(err)) throw new Error(`expected a SkillsError, got ${String(err)}`);
  return err;
}

describe("readSkillArchiveMember", () => {
  it("finds a member by exact name and under the archive's root folder", async () => {
    const file = await zip([
      { name: "demo/SKILL.md", data: skillMd("demo") },
      { name: "demo/scripts/run.py", data: "print(1)\n" },
      { name: "README.txt", data: "top" },
    ]);
    expect(await readSkillArchiveMember(file, "SKILL.md")).toEqual({
      name: "demo/SKILL.md",
      data: Buffer.from(skillMd("demo")),
    });
    expect((await readSkillArchiveMember(file, "scripts/run.py")).data.toString()).toBe("print(1)\n");
    expect((await readSkillArchiveMember(file, "demo/scripts/run.py")).name).toBe("demo/scripts/run.py");
    expect((await readSkillArchiveMember(file, "README.txt")).data.toString()).toBe("top");
  });

  it("answers FILE_NOT_FOUND for a missing member, a directory and a symlink", async () => {
    const file = await zip([
      { name: "demo/SKILL.md", data: skillMd("demo") },
      { name: "demo/assets/" },
      { name: "demo/link", data: "/etc/passwd", mode: 0o120777 },
    ]);
    for (const wanted of ["nope.md", "assets", "link"]) {
      const err = await rejection(readSkillArchiveMember(file, wanted));
      expect(err.code).toBe("FILE_NOT_FOUND");
      expect(err.message).toBe(`File '${wanted}' not found in skill archive`);
    }
  });

  it.each(["../SKILL.md", "/etc/passwd", "C:/x", "a:b", "", "./", "a/../../b"])(
    "refuses the requested path %j",
    async (wanted) => {
      const file = await zip([{ name: "SKILL.md", data: skillMd("demo") }]);
      const err = await rejection(readSkillArchiveMember(file, wanted));
      expect(err.code).toBe("INVALID_PATH");
    },
  );

  it.each([
    ["a traversal", "XX/evil.txt", "../evil.txt"],
    ["an absolute name", "Xetc/passwd", "/etc/passwd"],
    ["a drive letter", "XXevil.txt", "C:evil.txt"],
  ])("refuses an archive holding %s, even for a safe member", async (_label, placeholder, hostile) => {
    const file = await zip([
      { name: "SKILL.md", data: skillMd("demo") },
      { name: placeholder, data: "x" },
    ]);
    expect(await patchZipName(file, placeholder, hostile)).toBe(2);
    const err = await rejection(readSkillArchiveMember(file, "SKILL.md"));
    expect(err.code).toBe("ARCHIVE_UNSAFE");
    expect(err.message).toBe(`Archive contains unsafe member path: '${hostile}'`);
  });

  it("refuses a member whose declared size passes the cap before inflating it", async () => {
    const file = await zip([{ name: "big.txt", data: Buffer.alloc(2048, 0x61) }]);
    const err = await rejection(readSkillArchiveMember(file, "big.txt", { maxBytes: 1024 }));
    expect(err.code).toBe("ARCHIVE_TOO_LARGE");
    expect(err.message).toBe("Skill archive member is too large to preview");
    expect(err.details).toEqual({ member: "big.txt", limit: "member", maxBytes: 1024 });
  });

  it("stops inflating a bomb whose declared size is forged", async () => {
    const file = await zip([{ name: "bomb.txt", stream: () => zeroStream(64 * 1024 * 1024) }]);
    await forgeDeclaredSizes(file, () => 10);
    const err = await rejection(readSkillArchiveMember(file, "bomb.txt", { maxBytes: 1024 * 1024 }));
    expect(err.code).toBe("ARCHIVE_TOO_LARGE");
    expect(err.details?.["limit"]).toBe("member");
  });

  it("answers ARCHIVE_INVALID for a file that is not a zip", async () => {
    const file = path.join(dir, "not-a-zip.skill");
    await writeFile(file, "plain text, no zip here");
    expect((await rejection(readSkillArchiveMember(file, "SKILL.md"))).code).toBe("ARCHIVE_INVALID");
  });

  it("applies the entry cap", async () => {
    const file = await zip([1, 2, 3].map((i) => ({ name: `f${i}.txt`, data: "x" })));
    expect((await rejection(readSkillArchiveMember(file, "f1.txt", { maxEntries: 2 }))).code).toBe("ARCHIVE_TOO_LARGE");
  });
});
