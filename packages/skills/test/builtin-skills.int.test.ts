import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { SkillCatalog } from "../src/catalog/catalog.js";
import { findSkillFiles } from "../src/catalog/find-skill-files.js";
import { validateSkillDirectory } from "../src/parsing/validate.js";
import { StaticSkillScanner } from "../src/scanning/static/scanner.js";
import { readFile, stat } from "node:fs/promises";

const publicRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../skills/public");

async function builtinDirs(): Promise<string[]> {
  const walk = await findSkillFiles(publicRoot);
  return walk.files.map((f) => path.dirname(f));
}

describe("built-in skills", () => {
  it("ships at least four skills", async () => {
    expect((await builtinDirs()).length).toBeGreaterThanOrEqual(4);
  });

  it("are each strictly valid", async () => {
    for (const dir of await builtinDirs()) {
      const r = await validateSkillDirectory(dir);
      expect({ dir: path.basename(dir), errors: r.errors }).toEqual({ dir: path.basename(dir), errors: [] });
    }
  });

  it("scan with zero findings", async () => {
    const scanner = new StaticSkillScanner();
    for (const dir of await builtinDirs()) {
      const report = await scanner.scanDirectory(dir);
      expect({ dir: path.basename(dir), findings: report.findings }).toEqual({ dir: path.basename(dir), findings: [] });
    }
  });

  it("each point at a references/ file that exists", async () => {
    for (const dir of await builtinDirs()) {
      const text = await readFile(path.join(dir, "SKILL.md"), "utf8");
      const refs = [...text.matchAll(/\/mnt\/skills\/public\/([a-z0-9-]+)\/(references\/[\w./-]+\.md)/g)];
      const own = refs.filter((m) => m[1] === path.basename(dir));
      expect(own.length, `${path.basename(dir)} names a references/ file`).toBeGreaterThan(0);
      for (const m of own) expect((await stat(path.join(dir, m[2]!))).isFile()).toBe(true);
    }
  });

  it("load into the catalog without diagnostics", async () => {
    const catalog = new SkillCatalog({ root: path.dirname(publicRoot) });
    const skills = await catalog.list();
    expect(skills.map((s) => s.category)).toEqual(skills.map(() => "public"));
    expect(skills.length).toBe((await builtinDirs()).length);
    expect((await catalog.diagnostics()).filter((d) => d.severity !== "info")).toEqual([]);
  });
});
