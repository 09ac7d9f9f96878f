import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { discoverSkills } from "./discover.js";
import {
  makeTempDir,
  recordingLogger,
  skillMarkdown,
  writeRealisticTree,
  writeSkill,
} from "../../test/support/catalog/fixtures.js";

let tmp: string;
beforeEach(async () => {
  tmp = await makeTempDir();
});
afterEach(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

describe("discoverSkills", () => {
  it("returns nothing when neither category exists", async () => {
    expect(await discoverSkills({ root: tmp })).toEqual({ skills: [], diagnostics: [] });
  });

  it("loads a realistic tree sorted by name", async () => {
    await writeRealisticTree(tmp);
    const { skills } = await discoverSkills({ root: tmp });
    expect(skills.map((s) => `${s.category}:${s.name}`)).toEqual([
      "public:data-analysis",
      "custom:deep-research",
      "custom:my-notes",
      "public:pdf",
      "public:skill-reviewer",
      "public:team-helper",
      "public:vercel-deploy",
    ]);
  });

  it("keeps the directory as relativePath when it differs from the name", async () => {
    await writeRealisticTree(tmp);
    const vercel = (await discoverSkills({ root: tmp })).skills.find((s) => s.name === "vercel-deploy");
    expect(vercel?.relativePath).toBe("vercel-deploy-claimable");
    expect(vercel?.metadata).toEqual({ author: "vercel", version: "1.0.0" });
  });

  it("gives namespaced skills their nested relativePath", async () => {
    await writeRealisticTree(tmp);
    const helper = (await discoverSkills({ root: tmp })).skills.find((s) => s.name === "team-helper");
    expect(helper?.relativePath).toBe("team/helper");
  });

  it("never registers eval fixtures below a package", async () => {
    await writeRealisticTree(tmp);
    const names = (await discoverSkills({ root: tmp })).skills.map((s) => s.name);
    expect(names).not.toContain("bad-skill");
    expect(names).not.toContain("good-skill");
    expect(names).not.toContain("old-skill");
    expect(names).not.toContain("half-installed");
  });

  it("drops a skill with malformed YAML and reports it without stopping the others", async () => {
    await writeRealisticTree(tmp);
    const logger = recordingLogger();
    const { skills, diagnostics } = await discoverSkills({ root: tmp, logger });
    expect(skills.some((s) => s.name === "broken-yaml")).toBe(false);
    const broken = diagnostics.find((d) => d.file === "public/broken-yaml/SKILL.md");
    expect(broken).toMatchObject({ code: "yaml-invalid", severity: "error" });
    expect(broken?.message).toMatch(/^Invalid YAML in frontmatter/);
    expect(broken?.message).not.toContain(tmp);
    expect(logger.calls.some((c) => c.level === "warn" && c.msg.startsWith("Skipping skill"))).toBe(true);
  });

  it("lets a custom skill shadow a public one and notes it", async () => {
    await writeRealisticTree(tmp);
    const { skills, diagnostics } = await discoverSkills({ root: tmp });
    const research = skills.find((s) => s.name === "deep-research");
    expect(research).toMatchObject({ category: "custom", description: "My own research workflow." });
    expect(diagnostics).toContainEqual(
      expect.objectContaining({
        file: "public/deep-research/SKILL.md",
        code: "skill-shadowed",
        severity: "info",
        name: "deep-research",
      }),
    );
  });

  it("keeps the last package in walk order for a duplicate name within a category and warns", async () => {
    await writeSkill(tmp, "public/a-first", skillMarkdown("same", "first"));
    await writeSkill(tmp, "public/b-second", skillMarkdown("same", "second"));
    const { skills, diagnostics } = await discoverSkills({ root: tmp });
    expect(skills).toHaveLength(1);
    expect(skills[0]?.description).toBe("second");
    expect(diagnostics).toEqual([
      expect.objectContaining({
        file: "public/a-first/SKILL.md",
        code: "skill-duplicate",
        severity: "warning",
        name: "same",
      }),
    ]);
  });

  it("reports each dropped reason with its code", async () => {
    await writeSkill(tmp, "custom/no-front", "# just markdown\n");
    await writeSkill(tmp, "custom/no-desc", "---\nname: no-desc\n---\n");
    await writeSkill(tmp, "custom/ok", skillMarkdown("ok", "fine"));
    const { skills, diagnostics } = await discoverSkills({ root: tmp });
    expect(skills.map((s) => s.name)).toEqual(["ok"]);
    expect(diagnostics.map((d) => [d.file, d.code])).toEqual([
      ["custom/no-desc/SKILL.md", "description-missing"],
      ["custom/no-front/SKILL.md", "frontmatter-missing"],
    ]);
  });

  it("reports a dangling SKILL.md symlink as missing", async () => {
    await fs.mkdir(path.join(tmp, "public", "ghost"), { recursive: true });
    await fs.symlink(path.join(tmp, "nowhere.md"), path.join(tmp, "public", "ghost", "SKILL.md"));
    const { diagnostics } = await discoverSkills({ root: tmp });
    expect(diagnostics).toEqual([
      expect.objectContaining({ file: "public/ghost/SKILL.md", code: "file-missing", message: "SKILL.md not found" }),
    ]);
  });

  it("loads many skills with bounded concurrency", async () => {
    await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        writeSkill(tmp, `public/s-${String(i).padStart(3, "0")}`, skillMarkdown(`s-${i}`, `skill ${i}`)),
      ),
    );
    const { skills, diagnostics } = await discoverSkills({ root: tmp, concurrency: 4 });
    expect(skills).toHaveLength(300);
    expect(diagnostics).toEqual([]);
  });

  it("rejects when a category root exists but cannot be listed", async () => {
    await writeRealisticTree(tmp);
    const realReaddir = fs.readdir.bind(fs);
    const spy = vi.spyOn(fs, "readdir").mockImplementation((async (dir: string, opts: unknown) => {
      if (dir === path.join(tmp, "custom")) throw Object.assign(new Error("EIO: i/o error"), { code: "EIO" });
      return realReaddir(dir, opts as never);
    }) as typeof fs.readdir);
    try {
      await expect(discoverSkills({ root: tmp })).rejects.toThrow("EIO");
    } finally {
      spy.mockRestore();
    }
  });

  it("survives a symlink loop inside a category", async () => {
    await writeSkill(tmp, "public/ns/pkg", skillMarkdown("pkg", "d"));
    await fs.symlink(path.join(tmp, "public"), path.join(tmp, "public", "ns", "loop"));
    const { skills } = await discoverSkills({ root: tmp });
    expect(skills.map((s) => s.name)).toEqual(["pkg"]);
  });
});
