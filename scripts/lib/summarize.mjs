// Sums vitest JSON reports into the one plain line CI reads:
// "N passed, N failed, N skipped".
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** Workspace packages that declare a `test` script. */
export function testedPackages(repoRoot) {
  const out = [];
  for (const group of ["packages", "apps", "tools"]) {
    const dir = path.join(repoRoot, group);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir).sort()) {
      const manifest = path.join(dir, name, "package.json");
      if (!existsSync(manifest)) continue;
      const pkg = JSON.parse(readFileSync(manifest, "utf8"));
      if (pkg.scripts?.test) out.push({ name: pkg.name, dir: path.join(dir, name) });
    }
  }
  return out;
}

/** The report files a package's test run leaves behind (removed before a run, restored by turbo's cache). */
export const REPORT_FILES = ["test-results.json", "test-unhandled.json"];

/**
 * Reads each package's test-results.json and test-unhandled.json. A package
 * whose reports are missing counts as one failure: its test run crashed before
 * reporting. Each unhandled error or rejection counts as one failure, and the
 * package is named in `unhandled`, so the summary line and the exit code agree.
 */
export function summarize(repoRoot) {
  const totals = { passed: 0, failed: 0, skipped: 0, missing: [], unhandled: [], failures: [] };
  for (const pkg of testedPackages(repoRoot)) {
    const [resultsFile, unhandledFile] = REPORT_FILES.map((name) => path.join(pkg.dir, name));
    if (!existsSync(resultsFile) || !existsSync(unhandledFile)) {
      totals.failed += 1;
      totals.missing.push(pkg.name);
      continue;
    }
    const r = JSON.parse(readFileSync(resultsFile, "utf8"));
    totals.passed += r.numPassedTests ?? 0;
    const failedTests = r.numFailedTests ?? 0;
    // A file that fails to load has no failed *tests*, only a failed suite.
    totals.failed += failedTests > 0 ? failedTests : (r.numFailedTestSuites ?? 0);
    totals.skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
    totals.failures.push(...failuresOf(pkg.name, pkg.dir, r));
    const u = JSON.parse(readFileSync(unhandledFile, "utf8"));
    if (u.count > 0) {
      totals.failed += u.count;
      totals.unhandled.push({ name: pkg.name, count: u.count, errors: u.errors ?? [] });
    }
  }
  return totals;
}

/**
 * The failed tests (and files that failed to load) of one package's vitest JSON
 * report, each with the first line of its first failure message, so that the
 * last lines of a CI log say what failed even when the log is cut.
 */
export function failuresOf(packageName, packageDir, report) {
  const out = [];
  for (const file of report.testResults ?? []) {
    const where = path.relative(packageDir, file.name ?? "");
    const failed = (file.assertionResults ?? []).filter((a) => a.status === "failed");
    for (const a of failed)
      out.push({
        package: packageName,
        test: `${where} > ${a.fullName ?? a.title}`,
        message: firstLine(a.failureMessages?.[0]),
      });
    if (failed.length === 0 && file.status === "failed")
      out.push({ package: packageName, test: where, message: firstLine(file.message) });
  }
  return out;
}

function firstLine(text) {
  return (
    String(text ?? "")
      .split("\n")
      .find((line) => line.trim() !== "")
      ?.trim()
      .slice(0, 300) ?? ""
  );
}
