import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resolveSupportPath, SUPPORT_PATH_MESSAGES } from "./support-path.js";
import { rejectionOf } from "../../test/support/custom/fixtures.js";

let base: string;
let skill: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), "support-path-")));
  skill = path.join(base, "custom", "my-skill");
  await mkdir(path.join(skill, "references"), { recursive: true });
  await writeFile(path.join(skill, "SKILL.md"), "x");
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

async function expectInvalid(rel: unknown, message: string): Promise<void> {
  const err = await rejectionOf(resolveSupportPath(skill, rel));
  expect(err.code).toBe("INVALID_PATH");
  expect(err.message).toBe(message);
}

describe("resolveSupportPath", () => {
  it("resolves a file under a support folder, even when the folder does not exist yet", async () => {
    const ok = await resolveSupportPath(skill, "scripts/tool/run.py");
    expect(ok).toEqual({
      relativePath: "scripts/tool/run.py",
      supportDirectory: "scripts",
      absolutePath: path.join(skill, "scripts", "tool", "run.py"),
    });
  });

  it.each([
    ["", SUPPORT_PATH_MESSAGES.filename],
    ["scripts/", SUPPORT_PATH_MESSAGES.filename],
    ["references/sub/", SUPPORT_PATH_MESSAGES.filename],
    ["/etc/passwd", SUPPORT_PATH_MESSAGES.relative],
    ["../x", SUPPORT_PATH_MESSAGES.traversal],
    ["references/../../x", SUPPORT_PATH_MESSAGES.traversal],
    ["references//x", SUPPORT_PATH_MESSAGES.traversal],
    ["references/./x", SUPPORT_PATH_MESSAGES.traversal],
    ["SKILL.md", SUPPORT_PATH_MESSAGES.directory],
    ["docs/readme.md", SUPPORT_PATH_MESSAGES.directory],
    ["Scripts/run.sh", SUPPORT_PATH_MESSAGES.directory],
  ])("rejects %j with DeerFlow's message", async (rel, message) => {
    await expectInvalid(rel, message);
  });

  it("uses the exact DeerFlow wording for the folder list", () => {
    expect(SUPPORT_PATH_MESSAGES.directory).toBe(
      "Supporting files must live under one of: assets, references, scripts, templates.",
    );
  });

  it("rejects a bare support folder name", async () => {
    await expectInvalid("scripts", "Supporting file path must name a file inside 'scripts/'.");
  });

  it("rejects non-string input", async () => {
    await expectInvalid(undefined, SUPPORT_PATH_MESSAGES.filename);
  });

  it("rejects a symlink inside references/ that points outside the skill", async () => {
    const outside = path.join(base, "outside");
    await mkdir(outside);
    await symlink(outside, path.join(skill, "references", "out"));
    await expectInvalid("references/out/secret.txt", SUPPORT_PATH_MESSAGES.escape);
  });

  it("rejects a dangling symlink whose target lies outside the skill", async () => {
    await symlink(path.join(base, "nowhere", "file.txt"), path.join(skill, "references", "dangling.txt"));
    await expectInvalid("references/dangling.txt", SUPPORT_PATH_MESSAGES.escape);
  });

  it("rejects a symlink into another support folder", async () => {
    await mkdir(path.join(skill, "scripts"));
    await symlink(path.join(skill, "scripts"), path.join(skill, "references", "to-scripts"));
    await expectInvalid("references/to-scripts/run.sh", SUPPORT_PATH_MESSAGES.escape);
  });

  it("rejects a support folder that is itself a symlink to elsewhere", async () => {
    const outside = path.join(base, "elsewhere");
    await mkdir(outside);
    await symlink(outside, path.join(skill, "templates"));
    await expectInvalid("templates/t.md", SUPPORT_PATH_MESSAGES.escape);
  });

  it("follows a symlink that stays inside the same support folder", async () => {
    await writeFile(path.join(skill, "references", "real.md"), "r");
    await symlink("real.md", path.join(skill, "references", "alias.md"));
    const ok = await resolveSupportPath(skill, "references/alias.md");
    expect(ok.absolutePath).toBe(path.join(skill, "references", "real.md"));
    expect(ok.relativePath).toBe("references/alias.md");
  });

  it("reports a symlink loop as an invalid path", async () => {
    await symlink("b", path.join(skill, "references", "a"));
    await symlink("a", path.join(skill, "references", "b"));
    expect((await rejectionOf(resolveSupportPath(skill, "references/a"))).code).toBe("INVALID_PATH");
  });
});
