import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { realpathLoose } from "./real-path.js";

let tmp: string;

beforeEach(async () => {
  tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "sandbox-realpath-")));
});

afterEach(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

describe("realpathLoose", () => {
  it("returns the realpath of an existing path", async () => {
    await fs.mkdir(path.join(tmp, "a"));
    await fs.symlink("a", path.join(tmp, "b"));
    expect(await realpathLoose(path.join(tmp, "b"))).toBe(path.join(tmp, "a"));
  });

  it("appends missing components to the deepest existing ancestor", async () => {
    await fs.mkdir(path.join(tmp, "a"));
    await fs.symlink("a", path.join(tmp, "b"));
    expect(await realpathLoose(path.join(tmp, "b", "x", "y.txt"))).toBe(path.join(tmp, "a", "x", "y.txt"));
  });

  it("follows a dangling symlink to where a create would land", async () => {
    await fs.symlink("/nonexistent-dir/file", path.join(tmp, "dangling"));
    expect(await realpathLoose(path.join(tmp, "dangling"))).toBe("/nonexistent-dir/file");
  });

  it("follows chains of dangling relative symlinks", async () => {
    await fs.symlink("hop2", path.join(tmp, "hop1"));
    await fs.symlink("../elsewhere/final", path.join(tmp, "hop2"));
    expect(await realpathLoose(path.join(tmp, "hop1", "child"))).toBe(path.join(path.dirname(tmp), "elsewhere", "final", "child"));
  });

  it("fails with ELOOP on a cycle", async () => {
    await fs.symlink("b", path.join(tmp, "a"));
    await fs.symlink("a", path.join(tmp, "b"));
    await expect(realpathLoose(path.join(tmp, "a", "x"))).rejects.toMatchObject({ code: "ELOOP" });
  });

  it("stops at a regular file used as a directory", async () => {
    await fs.writeFile(path.join(tmp, "f"), "x");
    expect(await realpathLoose(path.join(tmp, "f", "child"))).toBe(path.join(tmp, "f", "child"));
  });
});
