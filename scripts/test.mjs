#!/usr/bin/env node
// The repository's one test command (README quick start, .ci/run): installs the
// toolchain if missing, builds, runs the repository checks (format, lint, import
// cycles, knip; scripts/lib/static-checks.mjs), typechecks (README examples
// included) and runs every package's tests, then prints "N passed, N failed,
// N skipped", where each failed check counts as one failure.
import { rmSync } from "node:fs";
import path from "node:path";
import { ensureDependencies, repoRoot, run } from "./lib/toolchain.mjs";
import { REPORT_FILES, summarize, testedPackages } from "./lib/summarize.mjs";
import { runStaticChecks, withFailedChecks } from "./lib/static-checks.mjs";

ensureDependencies();
// Stale reports from an earlier run must not be counted; turbo restores the
// reports of cached tasks itself.
for (const pkg of testedPackages(repoRoot)) {
  for (const file of REPORT_FILES) rmSync(path.join(pkg.dir, file), { force: true });
}

// One package at a time: the sandbox suites measure timeouts and process
// limits of real processes and must not compete with another suite for CPU.
const turbo = (...tasks) =>
  run("pnpm", [
    "exec",
    "turbo",
    "run",
    ...tasks,
    "--continue",
    "--concurrency=1",
    "--output-logs=new-only",
    ...process.argv.slice(2),
  ]);
// The checks run after the build: the type-aware lint reads the other workspace
// packages' types from their dist/.
const buildCode = turbo("build");
const failedChecks = runStaticChecks((script) => run("pnpm", ["run", "--silent", script]));
const code = turbo("typecheck", "test") || buildCode;
const t = withFailedChecks(summarize(repoRoot), failedChecks);
for (const f of t.failures)
  process.stdout.write(`failed: ${f.package} ${f.test}${f.message ? ` (${f.message})` : ""}\n`);
if (t.missing.length) process.stdout.write(`no test report from: ${t.missing.join(", ")}\n`);
for (const u of t.unhandled) {
  const first = u.errors[0];
  process.stdout.write(
    `${u.count} unhandled error(s) in ${u.name}, counted as failures${first ? ` (first: ${first.name}: ${first.message.split("\n")[0]})` : ""}\n`,
  );
}
for (const c of failedChecks) process.stdout.write(`failed check: ${c.name}, counted as a failure: ${c.fix}\n`);
process.stdout.write(`${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped\n`);
process.exit(code !== 0 || t.failed > 0 ? 1 : 0);
