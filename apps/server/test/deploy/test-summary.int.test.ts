/**
 * The summary line of `npm test` (scripts/test.mjs): vitest's JSON report
 * counts only tests and suites, so an unhandled rejection in an otherwise
 * passing package must still be counted as a failure, with the package named.
 * A real vitest run of a throwaway package proves the reporter and the
 * summariser agree with vitest's own exit code.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
const REPORTER = path.join(ROOT, "scripts/lib/unhandled-errors-reporter.mjs");
const VITEST = path.join(path.dirname(createRequire(import.meta.url).resolve("vitest/package.json")), "vitest.mjs");
const { summarize } = (await import(path.join(ROOT, "scripts/lib/summarize.mjs"))) as {
  summarize(root: string): {
    passed: number;
    failed: number;
    skipped: number;
    missing: string[];
    unhandled: { name: string; count: number; errors: { message: string }[] }[];
    failures: { package: string; test: string; message: string }[];
  };
};

type Check = { name: string; script: string; fix: string };
const { STATIC_CHECKS, runStaticChecks, withFailedChecks } = (await import(
  path.join(ROOT, "scripts/lib/static-checks.mjs")
)) as {
  STATIC_CHECKS: Check[];
  runStaticChecks(runScript: (script: string) => number, write: (text: string) => void): Check[];
  withFailedChecks<T extends { failed: number }>(totals: T, failed: Check[]): T & { failedChecks: string[] };
};

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A repository with one package whose single test passes; `body` runs inside it. */
function repoWithPackage(name: string, body: string): { root: string; pkg: string } {
  const root = mkdtempSync(path.join(os.tmpdir(), "deerflow-summary-"));
  dirs.push(root);
  const pkg = path.join(root, "packages", "p");
  mkdirSync(pkg, { recursive: true });
  writeFileSync(
    path.join(pkg, "package.json"),
    JSON.stringify({ name, type: "module", scripts: { test: "vitest run" } }),
  );
  writeFileSync(
    path.join(pkg, "vitest.config.mjs"),
    "export default { test: { globals: true, include: ['*.test.mjs'] } };\n",
  );
  // The throwaway package's own test must pass on purpose: what is under test is the summariser's
  // count of this run (1 passed, plus any unhandled rejection `body` leaves), not this assertion.
  writeFileSync(path.join(pkg, "p.test.mjs"), `it("passes", async () => { ${body} expect(1).toBe(1); });\n`);
  return { root, pkg };
}

function runVitest(pkg: string): number {
  const args = [VITEST, "run", "--reporter=json", "--outputFile.json=test-results.json", `--reporter=${REPORTER}`];
  const r = spawnSync(process.execPath, args, { cwd: pkg, encoding: "utf8", env: { ...process.env, CI: "true" } });
  return r.status ?? 1;
}

describe("npm test's summary line", () => {
  it("counts an unhandled rejection as a failure and names the package", () => {
    const { root, pkg } = repoWithPackage(
      "@probe/leaky",
      `Promise.reject(new Error("left without a handler")); await new Promise((r) => setTimeout(r, 50));`,
    );
    const code = runVitest(pkg);
    expect(code).not.toBe(0);
    const t = summarize(root);
    expect(t.passed).toBe(1);
    expect(t.failed).toBe(1);
    expect(t.unhandled).toEqual([
      { name: "@probe/leaky", count: 1, errors: [expect.objectContaining({ message: "left without a handler" })] },
    ]);
  }, 60_000);

  it("says 0 failed for a clean run, and a missing report is a failure", () => {
    const { root, pkg } = repoWithPackage("@probe/clean", "");
    expect(runVitest(pkg)).toBe(0);
    expect(summarize(root)).toMatchObject({ passed: 1, failed: 0, unhandled: [], missing: [] });
    rmSync(path.join(pkg, "test-unhandled.json"));
    expect(summarize(root)).toMatchObject({ failed: 1, missing: ["@probe/clean"] });
  }, 60_000);

  it("names each failed test with the first line of its failure, for a CI log read from its end", () => {
    const { root, pkg } = repoWithPackage("@probe/red", "");
    writeFileSync(
      path.join(pkg, "q.test.mjs"),
      `describe("outer", () => { it("adds", () => { expect(1 + 1).toBe(3); }); });\n`,
    );
    expect(runVitest(pkg)).not.toBe(0);
    const t = summarize(root);
    expect(t).toMatchObject({ passed: 1, failed: 1 });
    expect(t.failures).toEqual([
      {
        package: "@probe/red",
        test: "q.test.mjs > outer adds",
        message: expect.stringMatching(/^AssertionError: expected 2 to be 3/),
      },
    ]);
  }, 60_000);
});

describe("npm test's repository checks", () => {
  it("runs every check, names a failed one with its fix, and counts it as one failure", () => {
    const { root, pkg } = repoWithPackage("@probe/checked", "");
    expect(runVitest(pkg)).toBe(0);
    const ran: string[] = [];
    const out: string[] = [];
    const failed = runStaticChecks(
      (script) => {
        ran.push(script);
        return script === "format:check" ? 1 : 0;
      },
      (text) => out.push(text),
    );
    expect(ran).toEqual(["format:check", "lint", "lint:cycles", "knip"]);
    expect(failed.map((c) => c.name)).toEqual(["format"]);
    expect(out.join("")).toContain("[check] format FAILED (exit 1): run `npm run format`");
    expect(withFailedChecks(summarize(root), failed)).toMatchObject({ passed: 1, failed: 1, failedChecks: ["format"] });
  }, 60_000);

  it("names a root script for every check", () => {
    const scripts = (
      JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }
    ).scripts;
    for (const check of STATIC_CHECKS) expect(scripts[check.script], check.name).toBeDefined();
  });
});
