import { execFileSync } from "node:child_process";
import { chmod, mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { commitStagedSkill } from "./commit.js";
import { sandboxReadableMode } from "../internal/sandbox-permissions.js";

let dir: string;
let src: string;
let customRoot: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "commit-"));
  src = path.join(dir, "src");
  customRoot = path.join(dir, "custom");
  await mkdir(path.join(src, ".hidden"), { recursive: true });
  await writeFile(path.join(src, "SKILL.md"), "skill");
  await writeFile(path.join(src, ".hidden", "x"), "hidden");
  await writeFile(path.join(src, "tool.sh"), "#!/bin/sh\n");
  await chmod(path.join(src, "tool.sh"), 0o777);
  await chmod(path.join(src, "SKILL.md"), 0o600);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("commitStagedSkill", () => {
  it("copies the tree into <root>/<name>, hidden files included, and removes the staging folder", async () => {
    const target = await commitStagedSkill(src, { customRoot, name: "my-skill" });
    expect(target).toBe(path.join(customRoot, "my-skill"));
    expect(await readdir(customRoot)).toEqual(["my-skill"]);
    expect(await readFile(path.join(target, ".hidden", "x"), "utf8")).toBe("hidden");
    expect((await readdir(src)).sort()).toEqual([".hidden", "SKILL.md", "tool.sh"]);
  });

  it("makes the tree sandbox-readable and keeps execute bits", async () => {
    const target = await commitStagedSkill(src, { customRoot, name: "my-skill" });
    expect((await stat(target)).mode & 0o777).toBe(0o755);
    expect((await stat(path.join(target, "SKILL.md"))).mode & 0o777).toBe(0o644);
    expect((await stat(path.join(target, "tool.sh"))).mode & 0o777).toBe(0o755);
  });

  it("refuses an existing target without touching it", async () => {
    await mkdir(path.join(customRoot, "my-skill"), { recursive: true });
    await writeFile(path.join(customRoot, "my-skill", "keep"), "theirs");
    await expect(commitStagedSkill(src, { customRoot, name: "my-skill" })).rejects.toMatchObject({
      code: "SKILL_ALREADY_EXISTS",
    });
    expect(await readdir(path.join(customRoot, "my-skill"))).toEqual(["keep"]);
    expect(await readdir(customRoot)).toEqual(["my-skill"]);
  });

  it("removes the staging folder when copying fails", async () => {
    execFileSync("mkfifo", [path.join(src, "pipe")]);
    await expect(commitStagedSkill(src, { customRoot, name: "my-skill" })).rejects.toMatchObject({
      code: "INVALID_PATH",
    });
    expect(await readdir(customRoot)).toEqual([]);
  });

  it("refuses a name that fails the storage check", async () => {
    await expect(commitStagedSkill(src, { customRoot, name: "../../escaped" })).rejects.toMatchObject({
      code: "INVALID_NAME",
    });
  });
});

describe("sandboxReadableMode for files", () => {
  it.each([
    [0o777, 0o755],
    [0o600, 0o644],
    [0o700, 0o744],
    [0o666, 0o644],
  ])("maps %o to %o", (from, to) => {
    expect(sandboxReadableMode(from, false)).toBe(to);
  });
});

describe("sandboxReadableMode for directories", () => {
  it.each([
    [0o777, 0o755],
    [0o700, 0o755],
    [0o40770, 0o755],
  ])("maps %o to %o", (from, to) => {
    expect(sandboxReadableMode(from, true)).toBe(to);
  });
});
