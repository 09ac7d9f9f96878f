import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { installSkillFromDirectory } from "./install.js";
import { skillMd } from "../../test/support/install/zip-fixtures.js";

let dir: string;
let src: string;
let customRoot: string;
let tempDir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "install-dir-"));
  src = path.join(dir, "draft");
  customRoot = path.join(dir, "custom");
  tempDir = path.join(dir, "tmp");
  await mkdir(path.join(src, "references"), { recursive: true });
  await mkdir(path.join(src, ".git"));
  await writeFile(path.join(src, "SKILL.md"), skillMd("from-dir"));
  await writeFile(path.join(src, "references", "guide.md"), "# Guide\n");
  await writeFile(path.join(src, ".git", "HEAD"), "ref: refs/heads/main\n");
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("installSkillFromDirectory", () => {
  it("installs a copy under the frontmatter name and leaves the source untouched", async () => {
    const result = await installSkillFromDirectory(src, { customRoot, tempDir });
    expect(result.skillDir).toBe(path.join(customRoot, "from-dir"));
    expect(result.message).toBe("Skill 'from-dir' installed successfully");
    expect((await readdir(result.skillDir)).sort()).toEqual(["SKILL.md", "references"]);
    expect((await readdir(src)).sort()).toEqual([".git", "SKILL.md", "references"]);
    expect(await readFile(path.join(src, "references", "guide.md"), "utf8")).toBe("# Guide\n");
    expect(await readdir(tempDir)).toEqual([]);
  });

  it("copies a symlink inside the folder as a regular file", async () => {
    await symlink("guide.md", path.join(src, "references", "alias.md"));
    const result = await installSkillFromDirectory(src, { customRoot, tempDir });
    expect(await readFile(path.join(result.skillDir, "references", "alias.md"), "utf8")).toBe("# Guide\n");
  });

  it("refuses a symlink that leaves the folder and installs nothing", async () => {
    await writeFile(path.join(dir, "secret.txt"), "secret");
    await symlink(path.join(dir, "secret.txt"), path.join(src, "references", "leak.md"));
    await expect(installSkillFromDirectory(src, { customRoot, tempDir })).rejects.toMatchObject({
      code: "INVALID_PATH",
      message: "Skill contains a symlink that points outside the skill directory: 'references/leak.md'",
    });
    expect(existsSync(customRoot)).toBe(false);
  });

  it("refuses a FIFO instead of blocking on it", async () => {
    execFileSync("mkfifo", [path.join(src, "references", "pipe")]);
    await expect(installSkillFromDirectory(src, { customRoot, tempDir })).rejects.toMatchObject({
      code: "INVALID_PATH",
      message: "Skill contains a special file: 'references/pipe'",
    });
  });

  it("reports a missing folder and a file", async () => {
    await expect(installSkillFromDirectory(path.join(dir, "nope"), { customRoot })).rejects.toMatchObject({
      code: "FILE_NOT_FOUND",
      message: `Skill directory not found: ${path.join(dir, "nope")}`,
    });
    await expect(installSkillFromDirectory(path.join(src, "SKILL.md"), { customRoot })).rejects.toMatchObject({
      code: "INVALID_PATH",
      message: `Path is not a directory: ${path.join(src, "SKILL.md")}`,
    });
  });

  it("refuses a name that is taken", async () => {
    await installSkillFromDirectory(src, { customRoot, tempDir });
    await expect(installSkillFromDirectory(src, { customRoot, tempDir })).rejects.toMatchObject({
      code: "SKILL_ALREADY_EXISTS",
      message: "Skill 'from-dir' already exists",
    });
    expect((await readdir(customRoot)).sort()).toEqual(["from-dir"]);
  });
});
