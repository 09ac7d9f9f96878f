import { spawnSync } from "node:child_process";
import { cp, mkdtemp, mkdir, readFile, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";

const pkgDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const skillsRoot = path.resolve(pkgDir, "../../skills");
const requireHere = createRequire(import.meta.url);
const tsxLoader = requireHere.resolve("tsx");

const ENV_VAR = "DEER_FLOW_EXTENSIONS_CONFIG_PATH";

interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** The environment of the test process without the extensions config variable, plus `extra`. */
function envWith(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  if (!(ENV_VAR in extra)) delete env[ENV_VAR];
  return env;
}

/** Runs the real entry point (src/cli/main.ts through tsx) as a separate process. */
function cli(...args: string[]): CliRun {
  return cliIn({ cwd: pkgDir }, ...args);
}

/** {@link cli} in another working folder and environment. */
function cliIn(options: { cwd: string; env?: Record<string, string> }, ...args: string[]): CliRun {
  const r = spawnSync(process.execPath, ["--import", tsxLoader, path.join(pkgDir, "src/cli/main.ts"), ...args], {
    encoding: "utf8",
    cwd: options.cwd,
    env: envWith(options.env),
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

  it("prints the version of package.json with --version", async () => {
    const pkg = JSON.parse(await readFile(path.join(pkgDir, "package.json"), "utf8")) as { version: string };
    const r = cli("--version");
    expect(r).toEqual({ status: 0, stdout: `${pkg.version}\n`, stderr: "" });
  });
});

/**
 * Each test lays out `<dir>/work` (the working folder) and `<dir>/project/skills`
 * (the skills root) with skills alpha..echo, and extensions configs that each
 * disable a different skill, so the listing shows which file was read.
 */
describe("deerflow-skills extensions config lookup (process)", () => {
  const SKILLS = ["alpha", "bravo", "charlie", "delta", "echo"];
  let dir: string;
  let work: string;
  let project: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "skills-cli-ext-"));
    work = path.join(dir, "work");
    project = path.join(dir, "project");
    await mkdir(work);
    for (const name of SKILLS) {
      await mkdir(path.join(project, "skills", "public", name), { recursive: true });
      await writeFile(
        path.join(project, "skills", "public", name, "SKILL.md"),
        `---\nname: ${name}\ndescription: The ${name} skill.\n---\n# ${name}\n`,
      );
    }
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** Writes an extensions config at `rel` (under the temp dir) that disables `skill`. */
  async function disabling(rel: string, skill: string): Promise<string> {
    const file = path.join(dir, rel);
    await writeFile(file, JSON.stringify({ mcpServers: {}, skills: { [skill]: { enabled: false } } }));
    return file;
  }

  /** `list --json` from the working folder with a relative --root; the disabled names and the stderr lines. */
  function list(
    options: { env?: Record<string, string> } = {},
    ...args: string[]
  ): { status: number | null; disabled: string[]; stderr: string; config: unknown } {
    const r = cliIn({ cwd: work, ...options }, "list", "--json", "--root", "../project/skills", ...args);
    if (r.status !== 0) return { status: r.status, disabled: [], stderr: r.stderr, config: undefined };
    const out = JSON.parse(r.stdout) as { skills: { name: string; enabled: boolean }[]; extensionsConfig: unknown };
    expect(out.skills.map((s) => s.name)).toEqual(SKILLS);
    return {
      status: r.status,
      disabled: out.skills.filter((s) => !s.enabled).map((s) => s.name),
      stderr: r.stderr,
      config: out.extensionsConfig,
    };
  }

  async function everyCandidate(): Promise<Record<string, string>> {
    return {
      flag: await disabling("flag.json", "alpha"),
      env: await disabling("env.json", "bravo"),
      cwd: await disabling("work/extensions_config.json", "charlie"),
      parent: await disabling("project/extensions_config.json", "delta"),
      legacy: await disabling("work/mcp_config.json", "echo"),
    };
  }

  it("1. --extensions-config wins over the variable and both folders", async () => {
    const f = await everyCandidate();
    const r = list({ env: { [ENV_VAR]: f["env"]! } }, "--extensions-config", "../flag.json");
    expect(r.disabled).toEqual(["alpha"]);
    expect(r.stderr).toBe(`extensions config: read from ${f["flag"]} (from --extensions-config)\n`);
    expect(r.config).toEqual({ path: f["flag"], source: "explicit" });
  });

  it("2. DEER_FLOW_EXTENSIONS_CONFIG_PATH wins over both folders", async () => {
    const f = await everyCandidate();
    const r = list({ env: { [ENV_VAR]: f["env"]! } });
    expect(r.disabled).toEqual(["bravo"]);
    expect(r.stderr).toBe(`extensions config: read from ${f["env"]} (from DEER_FLOW_EXTENSIONS_CONFIG_PATH)\n`);
    expect(r.config).toEqual({ path: f["env"], source: "environment" });
  });

  it("3. ./extensions_config.json is read without any flag (the bug: it was ignored)", async () => {
    const f = await everyCandidate();
    const r = list();
    expect(r.disabled).toEqual(["charlie"]);
    expect(r.stderr).toBe(`extensions config: read from ${f["cwd"]} (found in the current folder)\n`);
  });

  it("4. then extensions_config.json next to the skills root, before any mcp_config.json", async () => {
    const parent = await disabling("project/extensions_config.json", "delta");
    await disabling("work/mcp_config.json", "echo");
    const r = list();
    expect(r.disabled).toEqual(["delta"]);
    expect(r.stderr).toBe(`extensions config: read from ${parent} (found next to the skills root)\n`);
    expect(r.config).toEqual({ path: parent, source: "search" });
  });

  it("5. then DeerFlow's legacy mcp_config.json, in the current folder first", async () => {
    const legacy = await disabling("work/mcp_config.json", "echo");
    await disabling("project/mcp_config.json", "delta");
    const r = list();
    expect(r.disabled).toEqual(["echo"]);
    expect(r.stderr).toBe(`extensions config: read from ${legacy} (found in the current folder)\n`);
  });

  it("6. with no file anywhere every skill is enabled and stderr says where it looked", () => {
    const r = list();
    expect(r.disabled).toEqual([]);
    expect(r.stderr).toBe(
      `extensions config: none found (looked for extensions_config.json, then mcp_config.json in ${work} and ${project}); every skill is enabled\n`,
    );
    expect(r.config).toEqual({ path: null, source: "none" });
  });

  it("fails naming the path when --extensions-config names a missing file, even with candidates present", async () => {
    await everyCandidate();
    const missing = path.join(dir, "missing.json");
    const r = cliIn({ cwd: work }, "list", "--root", "../project/skills", "--extensions-config", missing);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      `error: CONFIG_NOT_FOUND: Extensions config file specified by \`--extensions-config\` not found at ${missing}\n`,
    );
  });

  it("fails naming the path when DEER_FLOW_EXTENSIONS_CONFIG_PATH names a missing file", async () => {
    await everyCandidate();
    const missing = path.join(dir, "gone", "extensions_config.json");
    const r = cliIn({ cwd: work, env: { [ENV_VAR]: missing } }, "prompt", "--root", "../project/skills");
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      `error: CONFIG_NOT_FOUND: Extensions config file specified by environment variable \`DEER_FLOW_EXTENSIONS_CONFIG_PATH\` not found at ${missing}\n`,
    );
  });

  it("shows a disabled skill as disabled in the table and in the prompt, naming the file read", async () => {
    const file = await disabling("work/extensions_config.json", "charlie");
    const table = cliIn({ cwd: work }, "list", "--root", "../project/skills");
    expect(table.status).toBe(0);
    expect(table.stdout).toMatch(/^charlie\s+public\s+no\s+The charlie skill\.$/m);
    expect(table.stdout).toMatch(/^alpha\s+public\s+yes\s+/m);
    expect(table.stdout).toContain("5 skill(s), 4 enabled\n");
    expect(table.stderr).toBe(`extensions config: read from ${file} (found in the current folder)\n`);

    const prompt = cliIn({ cwd: work }, "prompt", "--mode", "full", "--root", "../project/skills");
    expect(prompt.status).toBe(0);
    const disabledBlock = /<disabled_skills>[\s\S]*<\/disabled_skills>/.exec(prompt.stdout)?.[0] ?? "";
    expect(disabledBlock).toContain("- charlie (public)");
    expect(prompt.stdout.replace(disabledBlock, "")).not.toContain("charlie");
    expect(prompt.stdout).toContain("<name>alpha</name>");
    expect(prompt.stderr.split("\n")[0]).toBe(`extensions config: read from ${file} (found in the current folder)`);
    expect(prompt.stderr).toMatch(/mode: full, about \d+ tokens\n$/);
  });
});

describe("deerflow-skills --version when built and installed (process)", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "skills-cli-installed-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("reads the installed package.json at run time, through the bin link", async () => {
    // An npm-like install: the package's files under node_modules/@deerflow/skills,
    // its dependencies beside it, and the bin linked from node_modules/.bin.
    const modules = path.join(dir, "node_modules");
    const installed = path.join(modules, "@deerflow", "skills");
    const pkg = JSON.parse(await readFile(path.join(pkgDir, "package.json"), "utf8")) as Record<string, unknown> & {
      dependencies: Record<string, string>;
      peerDependencies: Record<string, string>;
    };
    const tsupPkg = requireHere.resolve("tsup/package.json");
    const tsupBin = path.join(
      path.dirname(tsupPkg),
      (JSON.parse(await readFile(tsupPkg, "utf8")) as { bin: { tsup: string } }).bin.tsup,
    );
    // The package's own tsup config, written to the install folder (type declarations are not needed to run).
    const build = spawnSync(process.execPath, [tsupBin, "--out-dir", path.join(installed, "dist"), "--no-dts"], {
      cwd: pkgDir,
      encoding: "utf8",
    });
    expect(build.status, build.stderr).toBe(0);
    // A version that exists nowhere else proves the file is read when the command runs, not baked in at build time.
    await writeFile(path.join(installed, "package.json"), JSON.stringify({ ...pkg, version: "9.8.7-installed" }));
    await cp(path.join(pkgDir, "README.md"), path.join(installed, "README.md"));
    for (const dep of [...Object.keys(pkg.dependencies), ...Object.keys(pkg.peerDependencies)]) {
      await mkdir(path.dirname(path.join(modules, dep)), { recursive: true });
      await symlink(await realpath(path.join(pkgDir, "node_modules", dep)), path.join(modules, dep));
    }
    await mkdir(path.join(modules, ".bin"));
    const bin = (pkg["bin"] as Record<string, string>)["deerflow-skills"]!;
    await symlink(path.join("..", "@deerflow", "skills", bin), path.join(modules, ".bin", "deerflow-skills"));

    const r = spawnSync(process.execPath, [path.join(modules, ".bin", "deerflow-skills"), "--version"], {
      cwd: dir,
      encoding: "utf8",
      env: envWith(),
    });
    expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({
      status: 0,
      stdout: "9.8.7-installed\n",
      stderr: "",
    });
  });
});
