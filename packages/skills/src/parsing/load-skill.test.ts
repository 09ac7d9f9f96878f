import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Logger } from "../logger.js";
import { loadSkillFile } from "./load-skill.js";

interface Logged {
  level: string;
  obj: Record<string, unknown>;
  msg: string;
}
function recordingLogger(): Logger & { entries: Logged[] } {
  const entries: Logged[] = [];
  const at = (level: string) => (obj: Record<string, unknown>, msg: string) => void entries.push({ level, obj, msg });
  return { entries, debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

describe("loadSkillFile", () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), "skills-load-"));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  async function write(rel: string, content: string): Promise<string> {
    const file = path.join(root, "public", rel, "SKILL.md");
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content);
    return file;
  }

  it("builds a Skill with paths relative to the category root", async () => {
    const file = await write(
      "team/helper",
      "---\nname: helper\ndescription: '  Helps.  '\nlicense: MIT\nversion: 2\nauthor: Ann\nmetadata:\n  k: v\n---\nbody",
    );
    const r = await loadSkillFile(file, { category: "public", categoryRoot: path.join(root, "public") });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.skill).toMatchObject({
      name: "helper",
      description: "Helps.",
      license: "MIT",
      version: "2",
      author: "Ann",
      metadata: { k: "v" },
      relativePath: "team/helper",
      category: "public",
      enabled: true,
      skillDir: path.dirname(file),
      skillFile: file,
    });
  });

  it("loads with warnings for style problems the strict validator rejects", async () => {
    const logger = recordingLogger();
    const file = await write("vercel-deploy-claimable", "---\nname: vercel-deploy\ndescription: d\nunknown: 1\n---\n");
    const r = await loadSkillFile(file, { category: "public", categoryRoot: path.join(root, "public"), logger });
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.warnings.map((w) => w.code)).toEqual(["unknown-key", "name-directory-mismatch"]);
    expect(logger.entries.filter((e) => e.level === "warn")).toHaveLength(2);
  });

  it.each([
    ["no frontmatter", "# just markdown", "frontmatter-missing"],
    ["empty description", "---\nname: a\ndescription: ''\n---\n", "description-empty"],
    ["bad allowed-tools", "---\nname: a\ndescription: d\nallowed-tools: {x: 1}\n---\n", "allowed-tools-invalid"],
    ["non-mapping", "---\n[1, 2]\n---\n", "frontmatter-not-mapping"],
  ])("drops a skill with %s and logs why", async (_label, content, code) => {
    const logger = recordingLogger();
    const file = await write("a", content);
    const r = await loadSkillFile(file, { category: "custom", categoryRoot: path.join(root, "public"), logger });
    expect(r).toMatchObject({ ok: false, file, reason: { code } });
    expect(logger.entries).toContainEqual(
      expect.objectContaining({ level: "warn", obj: expect.objectContaining({ file, code }) }),
    );
  });

  it("logs the file line and a quoting hint for an unquoted colon", async () => {
    const logger = recordingLogger();
    const file = await write("a", "---\nname: a\ndescription: Use it: always\n---\n");
    const r = await loadSkillFile(file, { category: "public", categoryRoot: path.join(root, "public"), logger });
    expect(r.ok).toBe(false);
    expect(logger.entries[0]?.obj).toMatchObject({
      line: 3,
      hint: 'values containing ":" must be quoted, e.g. description: "Use it: always"',
    });
  });

  it("never throws for a missing file", async () => {
    const r = await loadSkillFile(path.join(root, "nope", "SKILL.md"), { category: "public", categoryRoot: root });
    expect(r).toMatchObject({ ok: false, reason: { code: "file-missing" } });
  });
});
