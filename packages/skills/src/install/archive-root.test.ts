import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SkillsError } from "../errors.js";
import { detectArchiveRoot } from "./archive-root.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "archive-root-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("detectArchiveRoot", () => {
  it("returns the single top-level folder, ignoring __MACOSX and dot entries", async () => {
    await mkdir(path.join(dir, "my-skill"));
    await mkdir(path.join(dir, "__MACOSX", "my-skill"), { recursive: true });
    await writeFile(path.join(dir, ".DS_Store"), "x");
    await mkdir(path.join(dir, ".git"));
    expect(await detectArchiveRoot(dir)).toBe(path.join(dir, "my-skill"));
  });

  it("treats a flat archive as rooted at the extraction directory", async () => {
    await writeFile(path.join(dir, "SKILL.md"), "x");
    await mkdir(path.join(dir, "scripts"));
    expect(await detectArchiveRoot(dir)).toBe(dir);
  });

  it("treats a single top-level file as a flat archive", async () => {
    await writeFile(path.join(dir, "SKILL.md"), "x");
    expect(await detectArchiveRoot(dir)).toBe(dir);
  });

  it("treats two top-level folders as a flat archive", async () => {
    await mkdir(path.join(dir, "a"));
    await mkdir(path.join(dir, "b"));
    expect(await detectArchiveRoot(dir)).toBe(dir);
  });

  it("rejects an archive holding only ignored entries", async () => {
    await mkdir(path.join(dir, "__MACOSX"));
    await writeFile(path.join(dir, ".DS_Store"), "x");
    const err: unknown = await detectArchiveRoot(dir).catch((e: unknown) => e);
    expect(SkillsError.isInstance(err) && err.code).toBe("ARCHIVE_INVALID");
    expect((err as Error).message).toBe("Skill archive is empty");
  });
});
