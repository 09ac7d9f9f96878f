import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readFile, readdir, rm, symlink, utimes, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import unzipper from "unzipper";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { installSkillArchive } from "./install.js";
import { packSkillDirectory } from "./pack.js";
import { skillMd } from "../../test/support/install/zip-fixtures.js";

let dir: string;
let src: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "pack-"));
  src = path.join(dir, "work", "folder-name");
  await mkdir(path.join(src, "scripts"), { recursive: true });
  await mkdir(path.join(src, "references"));
  await mkdir(path.join(src, "assets", "empty"), { recursive: true });
  await mkdir(path.join(src, ".git", "objects"), { recursive: true });
  await writeFile(path.join(src, "SKILL.md"), skillMd("packed-skill"));
  await writeFile(path.join(src, "scripts", "run.sh"), "#!/bin/sh\necho packed\n");
  await chmod(path.join(src, "scripts", "run.sh"), 0o755);
  await writeFile(path.join(src, "references", "b.md"), "# B\n");
  await writeFile(path.join(src, "references", "a.md"), "# A\n");
  await writeFile(path.join(src, ".gitignore"), "node_modules\n");
  await writeFile(path.join(src, ".git", "config"), "[core]\n");
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function listing(file: string): Promise<string[]> {
  return (await unzipper.Open.file(file)).files.map((f) => f.path);
}

describe("packSkillDirectory", () => {
  it("writes <name>.skill next to the folder with one sorted top-level folder and no dot folders", async () => {
    const result = await packSkillDirectory(src);
    expect(result.name).toBe("packed-skill");
    expect(result.file).toBe(path.join(dir, "work", "packed-skill.skill"));
    expect(await listing(result.file)).toEqual([
      "packed-skill/.gitignore",
      "packed-skill/SKILL.md",
      "packed-skill/assets/empty/",
      "packed-skill/references/a.md",
      "packed-skill/references/b.md",
      "packed-skill/scripts/run.sh",
    ]);
    expect(await readdir(path.join(dir, "work"))).toEqual(["folder-name", "packed-skill.skill"]);
  });

  it("produces identical bytes for the same folder, whatever the file times", async () => {
    const a = await packSkillDirectory(src, path.join(dir, "a.skill"));
    await utimes(path.join(src, "SKILL.md"), new Date(2001, 1, 1), new Date(2001, 1, 1));
    await utimes(path.join(src, "references", "a.md"), new Date(), new Date());
    const b = await packSkillDirectory(src, path.join(dir, "b.skill"));
    expect((await readFile(a.file)).equals(await readFile(b.file))).toBe(true);
  });

  it("round-trips through installSkillArchive", async () => {
    const { file } = await packSkillDirectory(src, path.join(dir, "out.skill"));
    const customRoot = path.join(dir, "custom");
    const result = await installSkillArchive(file, { customRoot });
    expect(result.name).toBe("packed-skill");
    expect(await readFile(path.join(result.skillDir, "scripts", "run.sh"), "utf8")).toBe("#!/bin/sh\necho packed\n");
    expect((await readdir(result.skillDir)).sort()).toEqual([
      ".gitignore",
      "SKILL.md",
      "assets",
      "references",
      "scripts",
    ]);
  });

  it("stores a symlink inside the folder as the file it points to", async () => {
    await symlink("a.md", path.join(src, "references", "alias.md"));
    const { file } = await packSkillDirectory(src, path.join(dir, "out.skill"));
    const entry = (await unzipper.Open.file(file)).files.find((f) => f.path === "packed-skill/references/alias.md");
    expect((await entry?.buffer())?.toString()).toBe("# A\n");
  });

  it("refuses a symlink that leaves the folder and writes nothing", async () => {
    await writeFile(path.join(dir, "secret.txt"), "secret");
    await symlink(path.join(dir, "secret.txt"), path.join(src, "references", "leak.md"));
    await expect(packSkillDirectory(src, path.join(dir, "out.skill"))).rejects.toMatchObject({
      code: "INVALID_PATH",
      message: "Skill contains a symlink that points outside the skill directory: 'references/leak.md'",
    });
    expect(existsSync(path.join(dir, "out.skill"))).toBe(false);
  });

  it("refuses an invalid skill", async () => {
    await writeFile(path.join(src, "SKILL.md"), "no frontmatter");
    await expect(packSkillDirectory(src)).rejects.toMatchObject({
      code: "SKILL_INVALID",
      message: "Invalid skill: No YAML frontmatter found",
    });
  });

  it("replaces an existing archive atomically and leaves no temp file", async () => {
    const out = path.join(dir, "out.skill");
    await writeFile(out, "old");
    await packSkillDirectory(src, out);
    expect((await readFile(out)).subarray(0, 2).toString()).toBe("PK");
    expect(await readdir(dir)).toEqual(["out.skill", "work"]);
  });
});
