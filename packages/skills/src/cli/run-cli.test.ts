import { mkdtemp, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CliIo } from "./io.js";
import { runCli } from "./run-cli.js";

function capture(): CliIo & { out: () => string; err: () => string } {
  let out = "";
  let err = "";
  return { stdout: (t) => void (out += t), stderr: (t) => void (err += t), out: () => out, err: () => err };
}

describe("runCli", () => {
  let base: string;
  let root: string;
  // The root sits in its own temp folder: the folder holding the root is searched for extensions_config.json.
  beforeEach(async () => {
    base = await mkdtemp(path.join(os.tmpdir(), "skills-cli-"));
    root = path.join(base, "skills");
    await mkdir(root);
  });
  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });

  async function skill(rel: string, frontmatter: string, body = "# Use\n"): Promise<string> {
    const dir = path.join(root, rel);
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, "SKILL.md"), `---\n${frontmatter}\n---\n${body}`);
    return dir;
  }

  it("prints usage and exits 2 without a command", async () => {
    const io = capture();
    expect(await runCli([], io)).toBe(2);
    expect(io.err()).toContain("Usage: deerflow-skills");
  });

  it("rejects an unknown command and unknown options with exit 2", async () => {
    expect(await runCli(["frobnicate"], capture())).toBe(2);
    expect(await runCli(["list", "--bogus"], capture())).toBe(2);
  });

  it("prints the version of its package.json with --version", async () => {
    const pkg = JSON.parse(await readFile(new URL("../../package.json", import.meta.url), "utf8")) as {
      version: string;
    };
    const io = capture();
    expect(await runCli(["--version"], io)).toBe(0);
    expect(io.out()).toBe(`${pkg.version}\n`);
    expect(io.err()).toBe("");
  });

  it("rejects an empty --extensions-config with exit 2", async () => {
    const io = capture();
    expect(await runCli(["list", "--root", root, "--extensions-config", ""], io)).toBe(2);
    expect(io.err()).toMatch(/^--extensions-config needs a file path\n/);
  });

  describe("validate", () => {
    it("exits 0 for valid skills", async () => {
      const dir = await skill("public/good", "name: good\ndescription: Good skill.");
      const io = capture();
      expect(await runCli(["validate", dir], io)).toBe(0);
      expect(io.out()).toContain("1 of 1 skill(s) valid");
    });

    it("prints one line per problem and exits 1", async () => {
      const dir = await skill("public/bad", "name: Bad_Name\ndescription: has <b>\nextra: 1");
      const io = capture();
      expect(await runCli(["validate", dir], io)).toBe(1);
      const lines = io.out().trim().split("\n");
      expect(lines.slice(0, -1)).toEqual([
        expect.stringMatching(/bad: unknown-key: Unexpected key\(s\) in SKILL.md frontmatter: extra$/),
        expect.stringMatching(/bad: name-format: Name 'Bad_Name' should be hyphen-case/),
        expect.stringMatching(/bad: name-directory-mismatch: /),
        expect.stringMatching(/bad: description-angle-brackets: /),
      ]);
      expect(lines.at(-1)).toBe("0 of 1 skill(s) valid");
    });

    it("validates every skill under --root with --all", async () => {
      await skill("public/one", "name: one\ndescription: One.");
      await skill("custom/two", "name: two\ndescription: ''");
      const io = capture();
      expect(await runCli(["validate", "--all", "--root", root], io)).toBe(1);
      expect(io.out()).toMatch(/two: description-empty: Description cannot be empty/);
      expect(io.out()).toContain("1 of 2 skill(s) valid");
    });

    it("reports CRITICAL scan findings with --scan", async () => {
      const dir = await skill(
        "public/keys",
        "name: keys\ndescription: Keys.",
        "-----BEGIN RSA PRIVATE KEY-----\nabc\n",
      );
      const io = capture();
      expect(await runCli(["validate", "--scan", dir], io)).toBe(1);
      expect(io.out()).toMatch(/keys: secret-private-key: /);
    });
  });

  describe("list", () => {
    it("lists skills with category and enabled state", async () => {
      await skill("public/alpha", "name: alpha\ndescription: Alpha skill.");
      await skill("custom/beta", "name: beta\ndescription: Beta skill.");
      await writeFile(path.join(root, "ext.json"), JSON.stringify({ skills: { beta: { enabled: false } } }));
      const io = capture();
      expect(await runCli(["list", "--root", root, "--extensions-config", path.join(root, "ext.json")], io)).toBe(0);
      expect(io.out()).toMatch(/alpha\s+public\s+yes\s+Alpha skill\./);
      expect(io.out()).toMatch(/beta\s+custom\s+no\s+Beta skill\./);
      expect(io.out()).toContain("2 skill(s), 1 enabled");
      expect(io.err()).toBe(`extensions config: read from ${path.join(root, "ext.json")} (from --extensions-config)\n`);
    });

    it("fails naming the path when --extensions-config names a missing file", async () => {
      await skill("public/alpha", "name: alpha\ndescription: Alpha skill.");
      await writeFile(path.join(base, "extensions_config.json"), "{}");
      const io = capture();
      expect(await runCli(["list", "--root", root, "--extensions-config", path.join(base, "nope.json")], io)).toBe(1);
      expect(io.err()).toBe(
        `error: CONFIG_NOT_FOUND: Extensions config file specified by \`--extensions-config\` not found at ${path.join(base, "nope.json")}\n`,
      );
      expect(io.out()).toBe("");
    });

    it("fails on a malformed extensions config instead of listing every skill as enabled", async () => {
      await skill("public/alpha", "name: alpha\ndescription: Alpha skill.");
      await writeFile(path.join(base, "extensions_config.json"), '{ "skills": { "alpha": { "enabled": false } ');
      const io = capture();
      expect(await runCli(["list", "--root", root], io)).toBe(1);
      expect(io.err()).toContain(
        `extensions config: read from ${path.join(base, "extensions_config.json")} (found next to the skills root)\n`,
      );
      expect(io.err()).toMatch(/error: CONFIG_INVALID: extensions_config\.json is not valid JSON: /);
      expect(io.out()).toBe("");
    });

    it("reports skipped skills on stderr", async () => {
      await skill("public/broken", "name: broken\ndescription: [unclosed");
      const io = capture();
      await runCli(["list", "--root", root], io);
      expect(io.err()).toMatch(/public\/broken\/SKILL.md: .*YAML/);
    });

    it("prints JSON with --json", async () => {
      await skill("public/alpha", "name: alpha\ndescription: Alpha.");
      const io = capture();
      await runCli(["list", "--json", "--root", root], io);
      const printed = JSON.parse(io.out()) as { skills: unknown[]; extensionsConfig: unknown };
      expect(printed.skills).toEqual([
        {
          name: "alpha",
          category: "public",
          enabled: true,
          description: "Alpha.",
          location: "/mnt/skills/public/alpha/SKILL.md",
        },
      ]);
      expect(printed.extensionsConfig).toEqual({ path: null, source: "none" });
      expect(io.err()).toMatch(
        /^extensions config: none found \(looked for extensions_config\.json, then mcp_config\.json in .+\); every skill is enabled\n$/,
      );
    });
  });

  it("prints the prompt section", async () => {
    await skill("public/alpha", "name: alpha\ndescription: Alpha & omega.");
    const io = capture();
    expect(await runCli(["prompt", "--root", root, "--mode", "full"], io)).toBe(0);
    expect(io.out()).toContain("<skill_system>");
    expect(io.out()).toContain("<name>alpha</name>");
    expect(io.out()).toContain("Alpha &amp; omega.");
    expect(io.err()).toMatch(/mode: full, about \d+ tokens/);
    expect(await runCli(["prompt", "--mode", "weird"], capture())).toBe(2);
  });

  it("packs and installs a skill, refusing a second install", async () => {
    const dir = await skill("src/packable", "name: packable\ndescription: Packs.");
    const out = path.join(root, "packable.skill");
    const io = capture();
    expect(await runCli(["pack", dir, "-o", out], io)).toBe(0);
    expect(io.out()).toContain("Packed 'packable' (1 file(s))");
    expect(await runCli(["install", out, "--root", root], io)).toBe(0);
    expect(io.out()).toContain("Skill 'packable' installed successfully");
    expect(await readdir(path.join(root, "custom", "packable"))).toEqual(["SKILL.md"]);
    const again = capture();
    expect(await runCli(["install", out, "--root", root], again)).toBe(1);
    expect(again.err()).toBe("error: SKILL_ALREADY_EXISTS: Skill 'packable' already exists\n");
  });
});
