import {
  chmod,
  lstat,
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  realpath,
  rm,
  stat,
  symlink,
  writeFile,
} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sandboxReadableMode } from "../internal/sandbox-permissions.js";
import { WRITE_ESCAPE_MESSAGE, writeTextAtomic } from "./write-skill-file.js";
import { rejectionOf } from "../../test/support/custom/fixtures.js";

let base: string;
let skill: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), "write-skill-file-")));
  skill = path.join(base, "my-skill");
  await mkdir(skill);
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("writeTextAtomic", () => {
  it("writes the text, creating missing parents, and leaves no temp file", async () => {
    const target = path.join(skill, "references", "deep", "a.md");
    await writeTextAtomic(skill, target, "héllo\n");
    expect(await readFile(target, "utf8")).toBe("héllo\n");
    expect(await readdir(path.dirname(target))).toEqual(["a.md"]);
  });

  it("replaces an existing file and keeps its owner exec bit", async () => {
    const target = path.join(skill, "run.sh");
    await writeFile(target, "old");
    await chmod(target, 0o777);
    await writeTextAtomic(skill, target, "new");
    expect(await readFile(target, "utf8")).toBe("new");
    expect((await stat(target)).mode & 0o777).toBe(0o755);
  });

  it("makes a new file 0644 and its directories sandbox-readable", async () => {
    await chmod(skill, 0o700);
    const target = path.join(skill, "scripts", "x.py");
    await writeTextAtomic(skill, target, "print(1)");
    expect((await stat(target)).mode & 0o777).toBe(0o644);
    expect((await stat(skill)).mode & 0o777).toBe(0o755);
    expect((await stat(path.join(skill, "scripts"))).mode & 0o777).toBe(0o755);
  });

  it("refuses a target outside the root", async () => {
    const err = await rejectionOf(writeTextAtomic(skill, path.join(base, "escape.txt"), "x"));
    expect(err.code).toBe("INVALID_PATH");
    expect(err.message).toBe(WRITE_ESCAPE_MESSAGE);
  });

  it("never writes through a symlinked file that points outside the root", async () => {
    const outside = path.join(base, "victim.txt");
    await writeFile(outside, "original");
    await symlink(outside, path.join(skill, "link.txt"));
    const err = await rejectionOf(writeTextAtomic(skill, path.join(skill, "link.txt"), "pwned"));
    expect(err.code).toBe("INVALID_PATH");
    expect(await readFile(outside, "utf8")).toBe("original");
  });

  it("never writes below a symlinked directory that points outside the root", async () => {
    const outside = path.join(base, "outside");
    await mkdir(outside);
    await symlink(outside, path.join(skill, "dir"));
    await rejectionOf(writeTextAtomic(skill, path.join(skill, "dir", "new.txt"), "x"));
    expect(await readdir(outside)).toEqual([]);
  });

  it("writes through a symlink to a file inside the root to that file", async () => {
    await writeFile(path.join(skill, "real.md"), "old");
    await symlink("real.md", path.join(skill, "alias.md"));
    await writeTextAtomic(skill, path.join(skill, "alias.md"), "new");
    expect(await readFile(path.join(skill, "real.md"), "utf8")).toBe("new");
    expect((await lstat(path.join(skill, "alias.md"))).isSymbolicLink()).toBe(true);
  });

  it("writes bytes unchanged", async () => {
    const bytes = Uint8Array.from([0, 255, 10, 13]);
    await writeTextAtomic(skill, path.join(skill, "assets", "b.bin"), bytes);
    expect([...(await readFile(path.join(skill, "assets", "b.bin")))]).toEqual([0, 255, 10, 13]);
  });
});

describe("sandboxReadableMode", () => {
  it("drops group/other write and adds read (and search for directories)", () => {
    expect(sandboxReadableMode(0o600, false)).toBe(0o644);
    expect(sandboxReadableMode(0o777, false)).toBe(0o755);
    expect(sandboxReadableMode(0o700, true)).toBe(0o755);
    expect(sandboxReadableMode(0o100666, false)).toBe(0o644);
  });
});
