import { spawnSync } from "node:child_process";
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const pkgDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const skillsRoot = path.resolve(pkgDir, "../../skills");
const tsxLoader = createRequire(import.meta.url).resolve("tsx");

/** Runs the real entry point (src/cli/main.ts through tsx) as a separate process. */
function cli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ["--import", tsxLoader, path.join(pkgDir, "src/cli/main.ts"), ...args], {
    encoding: "utf8",
    cwd: pkgDir,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("deerflow-skills (process)", () => {
  let tmp: string;
  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), "skills-cli-proc-"));
  });
  afterAll(async () => {
    await rm(tmp, { recursive: true, force: true });
  });

  it("validates and scans the built-in skills with exit 0", () => {
    const r = cli("validate", "--all", "--scan", "--root", skillsRoot);
    expect(r.stderr).toBe("");
    expect(r.stdout).toMatch(/^(\d+) of \1 skill\(s\) valid\n$/);
    expect(r.status).toBe(0);
  });

  it("lists the built-in skills", () => {
    const r = cli("list", "--json", "--root", skillsRoot);
    expect(r.status).toBe(0);
    const names = (JSON.parse(r.stdout) as { skills: { name: string }[] }).skills.map((s) => s.name);
    expect(names).toEqual([...names].sort());
    expect(names).toContain("skill-creator");
  });

  it("exits 1 with one line per problem for an invalid skill", async () => {
    const dir = path.join(tmp, "broken");
    await mkdir(dir);
    await writeFile(path.join(dir, "SKILL.md"), "---\nname: Broken\n---\n");
    const r = cli("validate", dir);
    expect(r.status).toBe(1);
    expect(r.stdout.split("\n").filter((l) => l.includes(": ")).length).toBe(3);
  });

  it("exits 2 on a usage error", () => {
    expect(cli("nope").status).toBe(2);
  });
});
