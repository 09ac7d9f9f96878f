/**
 * Every published package as a third party gets it: packed with pnpm (the
 * prepack guard runs), checked with publint and are-the-types-wrong, then
 * installed alone, by its README's install line, into a fresh npm project and
 * a fresh strict pnpm project, where the README's first example is compiled
 * and run, and every subpath is imported from ESM and required from CommonJS.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { declaredTargets } from "../../../scripts/check-package-build.mjs";
import { readmeExamples } from "../../../scripts/lib/readme-examples.mjs";
import { repoRoot } from "../../../scripts/lib/toolchain.mjs";
import { compileProject } from "../src/compile.js";
import { ConsumerProject, type PackageManager } from "../src/consumer-project.js";
import { CONSUMER_FILES, writeConsumerSources, type ProbeReport } from "../src/consumer-sources.js";
import { runExample, serveExample } from "../src/example-run.js";
import { readmeInstallLine } from "../src/install-line.js";
import { packPackage, type Tarball } from "../src/pack.js";
import { codeSubpaths, optionalPeers, publishedPackages, type PublishedPackage } from "../src/published-packages.js";
import { brokenOnRegistry } from "../src/readme-links.js";
import { describeResult, runCommand } from "../src/run-command.js";

/** How each package's README example is judged, and what a consumer adds afterwards. */
interface ConsumerPlan {
  /** Text the first example prints when it works. */
  readonly prints?: string;
  /** The first example is a server (started with PORT=0): GET /health must answer 200. */
  readonly serves?: true;
  /**
   * Optional peers installed once the example ran, after which their subpaths
   * must load too. better-sqlite3 is never installed: without a reachable
   * prebuilt binary it compiles for over a minute, so
   * `@deerflow/runtime/sqlite` is expected to stop at it.
   */
  readonly optionalPeers?: readonly string[];
  /**
   * A test file run with `node --test`: the conformance kits take their test
   * functions (here `nodeTestRunner(nodeTest)`), so a consumer needs no vitest.
   */
  readonly kitTest?: string;
}

const bwrapExpected = process.env["CI"] === "true" || existsSync("/usr/bin/bwrap") || existsSync("/bin/bwrap");

const PLANS: Readonly<Record<string, ConsumerPlan>> = {
  "@deerflow/agent": { prints: "Hello from the careful model." },
  "@deerflow/gateway": { serves: true },
  "@deerflow/memory": {
    prints: "Prefers metric units",
    // The whole backend kit against the store backend on InMemoryStore, under node:test.
    kitTest: [
      'import * as nodeTest from "node:test";',
      'import { InMemoryStore } from "@langchain/langgraph";',
      'import { StoreMemoryBackend } from "@deerflow/memory";',
      'import { memoryBackendConformance, nodeTestRunner } from "@deerflow/memory/testing";',
      'memoryBackendConformance({ name: "StoreMemoryBackend", makeBackend: async () => ({ backend: new StoreMemoryBackend({ store: new InMemoryStore() }) }), ...nodeTestRunner(nodeTest) });',
      "",
    ].join("\n"),
  },
  "@deerflow/runtime": {
    prints: "success",
    optionalPeers: ["ioredis", "pg"],
    // The whole run-store kit against the in-memory store, under node:test.
    kitTest: [
      'import * as nodeTest from "node:test";',
      'import { MemoryRunStore } from "@deerflow/runtime";',
      'import { nodeTestRunner, runStoreConformance } from "@deerflow/runtime/testing";',
      'runStoreConformance({ name: "MemoryRunStore", makeStore: async () => ({ store: new MemoryRunStore() }), ...nodeTestRunner(nodeTest) });',
      "",
    ].join("\n"),
  },
  "@deerflow/sandbox": {
    // Without bubblewrap the example still runs; the bash tool answers DeerFlow's refusal.
    prints: bwrapExpected ? "hello from the sandbox" : "Host bash execution is disabled",
    // The kit loads outside any test framework (running it needs a sandbox provider).
    kitTest: [
      'import * as nodeTest from "node:test";',
      'import { assertExpect, sandboxConformance } from "@deerflow/sandbox/testing";',
      'nodeTest.it("loads the kit", () => assertExpect(typeof sandboxConformance).toBe("function"));',
      "",
    ].join("\n"),
  },
  "@deerflow/skills": {
    prints: "I will follow the deep-research skill.",
    // The static scanner through the skill-scanner kit, under node:test.
    kitTest: [
      'import * as nodeTest from "node:test";',
      'import { StaticSkillScanner } from "@deerflow/skills";',
      'import { nodeTestRunner, skillScannerConformance } from "@deerflow/skills/testing";',
      'skillScannerConformance({ name: "StaticSkillScanner", makeScanner: () => new StaticSkillScanner(), ...nodeTestRunner(nodeTest) });',
      "",
    ].join("\n"),
  },
  "@deerflow/subagents": { prints: "task_completed" },
  "@deerflow/tools": {
    prints: "Refusing to fetch 169.254.169.254: it is a metadata address",
    // The plugin-tool kit against the built-in web_fetch (a refused URL needs no network), under node:test.
    kitTest: [
      'import * as nodeTest from "node:test";',
      'import { createWebFetchTool } from "@deerflow/tools";',
      'import { nodeTestRunner, pluginToolConformance } from "@deerflow/tools/testing";',
      "const runner = nodeTestRunner(nodeTest);",
      'pluginToolConformance({ name: "web_fetch", makeTool: () => createWebFetchTool({ provider: "fetch" }), validInput: { url: "http://169.254.169.254/" }, checkResult: (t) => runner.expect(t).toMatch(/^Error: Refusing to fetch/), ...runner });',
      "",
    ].join("\n"),
  },
};

const MANAGERS: readonly PackageManager[] = ["npm", "pnpm"];
const packages = publishedPackages();
const work = mkdtempSync(path.join(os.tmpdir(), "deerflow-pack-check-"));
const tarballs = new Map<string, Tarball>();

beforeAll(async () => {
  for (const pkg of packages) tarballs.set(pkg.name, await packPackage(pkg, path.join(work, "tarballs")));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

function tarballOf(pkg: PublishedPackage): Tarball {
  const tarball = tarballs.get(pkg.name);
  if (tarball === undefined) throw new Error(`${pkg.name} was not packed`);
  return tarball;
}

const bin = (name: string): string => path.join(repoRoot, "node_modules", ".bin", name);

describe("the published packages", () => {
  it("are the workspace libraries, each with a consumer plan", () => {
    expect(packages.map((p) => p.name)).toEqual(Object.keys(PLANS).sort());
  });

  it("share one version, and their workspace ranges are replaced by ranges their siblings satisfy", () => {
    const versions = new Set(packages.map((p) => tarballOf(p).manifest.version));
    expect([...versions]).toHaveLength(1);
    for (const pkg of packages) {
      for (const [dep, range] of Object.entries(tarballOf(pkg).manifest.dependencies ?? {})) {
        expect(range, `${pkg.name} → ${dep}`).not.toMatch(/^workspace:/);
        const sibling = packages.find((p) => p.name === dep);
        if (sibling)
          expect([`^${sibling.manifest.version}`, sibling.manifest.version], `${pkg.name} → ${dep}`).toContain(range);
      }
    }
  });

  // A package's consumer must provide the peers of the workspace packages it
  // depends on; declaring them makes npm install them and lets pnpm resolve
  // them once, at the package the consumer installs.
  it("declare, as their own peers, the required peers of the workspace packages they depend on", () => {
    for (const pkg of packages) {
      const { manifest } = tarballOf(pkg);
      for (const dep of Object.keys(manifest.dependencies ?? {})) {
        const sibling = packages.find((p) => p.name === dep);
        if (sibling === undefined) continue;
        const required = Object.keys(sibling.manifest.peerDependencies ?? {}).filter(
          (peer) => !optionalPeers(sibling.manifest).includes(peer),
        );
        for (const peer of required) {
          expect(manifest.peerDependencies?.[peer], `${pkg.name} → ${dep} needs ${peer}`).toBe(
            sibling.manifest.peerDependencies?.[peer],
          );
        }
      }
    }
  });

  it("all name the same repository, with their own folder, homepage and issue tracker", () => {
    const urls = new Set(packages.map((p) => tarballOf(p).manifest.repository?.url));
    expect([...urls]).toHaveLength(1);
    const url = [...urls][0] ?? "";
    expect(url).toMatch(/^git\+https:\/\/github\.com\/[\w.-]+\/[\w.-]+\.git$/);
    const web = url.replace(/^git\+/, "").replace(/\.git$/, "");
    for (const pkg of packages) {
      const { manifest } = tarballOf(pkg);
      const directory = path.relative(repoRoot, pkg.dir);
      expect(manifest.repository, pkg.name).toEqual({ type: "git", url, directory });
      expect(manifest.homepage, pkg.name).toBe(`${web}/tree/main/${directory}#readme`);
      expect(manifest.bugs, pkg.name).toEqual({ url: `${web}/issues` });
    }
  });
});

describe.each(packages)("$name tarball", (pkg) => {
  it("ships its MIT LICENSE, README and every file its manifest names", () => {
    const { files, manifest, contentDir } = tarballOf(pkg);
    expect(manifest.license).toBe("MIT");
    expect(manifest.files).toContain("LICENSE");
    expect(readFileSync(path.join(contentDir, "LICENSE"), "utf8")).toMatch(/^MIT License\n/);
    expect(files).toEqual(
      expect.arrayContaining(["LICENSE", "README.md", "package.json", ...declaredTargets(manifest)]),
    );
  });

  it("is packed only through the prepack build guard", () => {
    expect(pkg.manifest["scripts"]).toMatchObject({ prepack: "node ../../scripts/check-package-build.mjs" });
  });

  it("has a README whose links work on the registry page", () => {
    expect(brokenOnRegistry(readFileSync(path.join(tarballOf(pkg).contentDir, "README.md"), "utf8"))).toEqual([]);
  });

  it("passes publint --strict", async () => {
    const r = await runCommand(bin("publint"), ["run", tarballOf(pkg).file, "--strict"], { cwd: work });
    expect(r.code, describeResult("publint", r)).toBe(0);
  });

  // attw cannot model Node's require(esm) yet (arethetypeswrong issue #252): a
  // require that resolves to ESM is reported as "dynamic import only", the one
  // rule ignored. Every other problem, in CommonJS and ESM resolution alike, fails.
  it("passes are-the-types-wrong for node16 CommonJS and ESM resolution and bundlers", async () => {
    const args = [
      tarballOf(pkg).file,
      "--profile",
      "node16",
      "--ignore-rules",
      "cjs-resolves-to-esm",
      "--no-definitely-typed",
      "--no-color",
    ];
    const r = await runCommand(bin("attw"), args, { cwd: work });
    expect(r.code, describeResult("attw", r)).toBe(0);
  });
});

/**
 * Checks a probe report: the main entry loads; every other subpath loads or
 * stops only at a missing optional peer that the project has not installed.
 */
function expectLoads(
  pkg: PublishedPackage,
  report: ProbeReport,
  installedPeers: readonly string[],
  label: string,
): void {
  const notInstalled = optionalPeers(pkg.manifest).filter((peer) => !installedPeers.includes(peer));
  expect(Object.keys(report).sort(), label).toEqual(codeSubpaths(pkg.manifest).sort());
  for (const [subpath, outcome] of Object.entries(report)) {
    const where = `${label} ${subpath}: ${JSON.stringify(outcome)}`;
    if ("exports" in outcome) expect(outcome.exports.length, where).toBeGreaterThan(0);
    else if ("missing" in outcome && subpath !== ".")
      expect(notInstalled, where).toContain(outcome.missing.replace(/^((?:@[^/]+\/)?[^/]+).*$/, "$1"));
    else expect.fail(where);
  }
}

async function probe(dir: string, file: string): Promise<ProbeReport> {
  const r = await runCommand(process.execPath, [file], { cwd: dir, timeoutMs: 60_000 });
  expect(r.code, describeResult(file, r)).toBe(0);
  return JSON.parse(r.stdout) as ProbeReport;
}

/**
 * A report with each missing peer reduced to "a missing optional peer": when a
 * subpath needs several peers that are all absent, ESM's loader (which links
 * the module graph concurrently) and require(esm) (which walks it in order)
 * may stop at different ones; {@link expectLoads} checks each is a declared,
 * not-installed optional peer.
 */
function outcomesOf(report: ProbeReport): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(report).map(([subpath, o]) => [subpath, "missing" in o ? "a missing optional peer" : o]),
  );
}

/** Runs both probes; CommonJS must get exactly what ESM gets. */
async function probeBoth(
  pkg: PublishedPackage,
  dir: string,
  installedPeers: readonly string[],
  label: string,
): Promise<void> {
  const esm = await probe(dir, CONSUMER_FILES.probeEsm);
  const cjs = await probe(dir, CONSUMER_FILES.probeCjs);
  expectLoads(pkg, esm, installedPeers, `${label} import`);
  expectLoads(pkg, cjs, installedPeers, `${label} require`);
  expect(outcomesOf(cjs), `${label}: require() gets what import gets`).toEqual(outcomesOf(esm));
}

describe.each(packages)("$name installed from its tarball", (pkg) => {
  it.concurrent.each(MANAGERS)(
    "%s: the README's install line suffices for its first example (compiled and run) and for importing and requiring every subpath",
    async (manager) => {
      const tarball = tarballOf(pkg);
      const plan = PLANS[pkg.name] ?? {};
      const line = readmeInstallLine(readFileSync(path.join(tarball.contentDir, "README.md"), "utf8"));
      expect(line, "the install line installs the package itself").toContain(pkg.name);
      const project = ConsumerProject.create({
        dir: path.join(work, `${pkg.name.replace(/\W+/g, "-")}-${manager}`),
        manager,
        tarballs: new Map([...tarballs].map(([name, t]) => [name, t.file])),
        direct: line,
      });
      // @types/node is the consumer's own choice, not the package's: every Node project has it.
      await project.install([...line, "@types/node@^20.19.0"]);

      const example = readmeExamples(tarball.contentDir)[0];
      expect(example, "the README has a TypeScript example").toBeDefined();
      writeConsumerSources(project.dir, pkg.name, codeSubpaths(tarball.manifest), example ?? "");
      const compiled = await compileProject(project.dir);
      expect(compiled.stdout + compiled.stderr, "tsc output").toBe("");
      expect(compiled.code).toBe(0);

      if (plan.serves) {
        const health = await serveExample(project.dir, "/health");
        expect(health.status, health.body).toBe(200);
      } else {
        const ran = await runExample(project.dir);
        expect(ran.code, describeResult("the example", ran)).toBe(0);
        expect(ran.stdout, describeResult("the example", ran)).toContain(plan.prints);
      }

      await probeBoth(pkg, project.dir, [], `${manager}, install line only`);
      const peers = plan.optionalPeers ?? [];
      if (peers.length > 0) {
        await project.install(peers);
        await probeBoth(pkg, project.dir, peers, `${manager}, with ${peers.join(", ")}`);
      }
      if (plan.kitTest !== undefined) {
        writeFileSync(path.join(project.dir, CONSUMER_FILES.kitTest), plan.kitTest);
        const kit = await runCommand(process.execPath, ["--test", "--test-reporter=tap", CONSUMER_FILES.kitTest], {
          cwd: project.dir,
        });
        expect(kit.code, describeResult("node --test", kit)).toBe(0);
        expect(kit.stdout, describeResult("node --test", kit)).toMatch(/^# pass [1-9]\d*$/m);
        expect(kit.stdout, describeResult("node --test", kit)).toMatch(/^# fail 0$/m);
      }
    },
  );
});
