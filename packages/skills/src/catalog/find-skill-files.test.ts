import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { findSkillFiles } from "./find-skill-files.js";
import { makeTempDir, skillMarkdown, writeSkill } from "../../test/support/catalog/fixtures.js";

let tmp: string;
beforeEach(async () => {
  tmp = await makeTempDir();
});
afterEach(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

const rel = (files: readonly string[]) => files.map((f) => path.relative(tmp, f).split(path.sep).join("/"));

describe("findSkillFiles", () => {
  it("returns nothing for a missing root", async () => {
    expect(await findSkillFiles(path.join(tmp, "nope"))).toEqual({ files: [], issues: [] });
  });

  it("lists packages in sorted walk order", async () => {
    for (const n of ["zeta", "alpha", "mid/inner", "beta"])
      await writeSkill(tmp, n, skillMarkdown(n.replace("/", "-"), "d"));
    expect(rel((await findSkillFiles(tmp)).files)).toEqual([
      "alpha/SKILL.md",
      "beta/SKILL.md",
      "mid/inner/SKILL.md",
      "zeta/SKILL.md",
    ]);
  });

  it("stops at a package boundary so nested SKILL.md files never register", async () => {
    await writeSkill(tmp, "skill-reviewer", skillMarkdown("skill-reviewer", "d"));
    await writeSkill(tmp, "skill-reviewer/evals/fixtures/bad", skillMarkdown("bad", "d"));
    expect(rel((await findSkillFiles(tmp)).files)).toEqual(["skill-reviewer/SKILL.md"]);
  });

  it("recurses into namespace folders without a SKILL.md", async () => {
    await writeSkill(tmp, "team/helper", skillMarkdown("helper", "d"));
    await writeSkill(tmp, "team/deep/er", skillMarkdown("er", "d"));
    expect(rel((await findSkillFiles(tmp)).files)).toEqual(["team/deep/er/SKILL.md", "team/helper/SKILL.md"]);
  });

  it("skips dot-directories", async () => {
    await writeSkill(tmp, ".history/x", skillMarkdown("x", "d"));
    await writeSkill(tmp, ".git/y", skillMarkdown("y", "d"));
    await writeSkill(tmp, ".installing-123", skillMarkdown("z", "d"));
    await writeSkill(tmp, "ok", skillMarkdown("ok", "d"));
    expect(rel((await findSkillFiles(tmp)).files)).toEqual(["ok/SKILL.md"]);
  });

  it("treats the root itself as a package when it holds SKILL.md", async () => {
    await writeSkill(tmp, "", skillMarkdown("root", "d"));
    await writeSkill(tmp, "child", skillMarkdown("child", "d"));
    expect(rel((await findSkillFiles(tmp)).files)).toEqual(["SKILL.md"]);
  });

  it("follows symlinked directories", async () => {
    const outside = await makeTempDir();
    try {
      await writeSkill(outside, "linked", skillMarkdown("linked", "d"));
      await fs.mkdir(path.join(tmp, "ns"));
      await fs.symlink(path.join(outside, "linked"), path.join(tmp, "ns", "linked"));
      expect(rel((await findSkillFiles(tmp)).files)).toEqual(["ns/linked/SKILL.md"]);
    } finally {
      await fs.rm(outside, { recursive: true, force: true });
    }
  });

  it("terminates on a symlink loop without duplicating packages", async () => {
    await writeSkill(tmp, "a/b/skill", skillMarkdown("skill", "d"));
    await fs.symlink(path.join(tmp, "a"), path.join(tmp, "a", "b", "back-to-a"));
    await fs.symlink(tmp, path.join(tmp, "a", "root-loop"));
    const { files } = await findSkillFiles(tmp);
    expect(rel(files)).toEqual(["a/b/skill/SKILL.md"]);
  });

  it("yields a package reached through two links only once", async () => {
    await writeSkill(tmp, "real/pkg", skillMarkdown("pkg", "d"));
    await fs.symlink(path.join(tmp, "real"), path.join(tmp, "alias"));
    expect(rel((await findSkillFiles(tmp)).files)).toEqual(["alias/pkg/SKILL.md"]);
  });

  it("ignores dangling directory symlinks", async () => {
    await fs.symlink(path.join(tmp, "missing"), path.join(tmp, "dangling"));
    await writeSkill(tmp, "ok", skillMarkdown("ok", "d"));
    expect(rel((await findSkillFiles(tmp)).files)).toEqual(["ok/SKILL.md"]);
  });

  it("treats a dangling SKILL.md symlink as a package boundary", async () => {
    await fs.mkdir(path.join(tmp, "pkg", "nested"), { recursive: true });
    await fs.symlink(path.join(tmp, "gone.md"), path.join(tmp, "pkg", "SKILL.md"));
    await writeSkill(tmp, "pkg/nested", skillMarkdown("nested", "d"));
    expect(rel((await findSkillFiles(tmp)).files)).toEqual(["pkg/SKILL.md"]);
  });

  it("reports an unreadable directory and keeps walking", async () => {
    await writeSkill(tmp, "ok", skillMarkdown("ok", "d"));
    await writeSkill(tmp, "locked/inner", skillMarkdown("inner", "d"));
    const realReaddir = fs.readdir.bind(fs);
    // chmod 000 does not stop root, so fail the listing the way EACCES would.
    const spy = vi.spyOn(fs, "readdir").mockImplementation((async (dir: string, opts: unknown) => {
      if (path.basename(dir) === "locked")
        throw Object.assign(new Error("EACCES: permission denied"), { code: "EACCES" });
      return realReaddir(dir, opts as never);
    }) as typeof fs.readdir);
    try {
      const walk = await findSkillFiles(tmp);
      expect(rel(walk.files)).toEqual(["ok/SKILL.md"]);
      expect(walk.issues).toEqual([
        { dir: "locked", code: "directory-unreadable", message: "Directory cannot be read (EACCES)" },
      ]);
    } finally {
      spy.mockRestore();
    }
  });
});
