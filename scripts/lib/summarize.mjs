// Sums vitest JSON reports into the one plain line CI reads:
// "N passed, N failed, N skipped".
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** Workspace packages that declare a `test` script. */
export function testedPackages(repoRoot) {
  const out = [];
  for (const group of ["packages", "apps"]) {
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

/**
 * Reads each package's test-results.json. A package whose report is missing
 * counts as one failure: it means its test run crashed before reporting.
 */
export function summarize(repoRoot) {
  const totals = { passed: 0, failed: 0, skipped: 0, missing: [] };
  for (const pkg of testedPackages(repoRoot)) {
    const file = path.join(pkg.dir, "test-results.json");
    if (!existsSync(file)) {
      totals.failed += 1;
      totals.missing.push(pkg.name);
      continue;
    }
    const r = JSON.parse(readFileSync(file, "utf8"));
    totals.passed += r.numPassedTests ?? 0;
    const failedTests = r.numFailedTests ?? 0;
    // A file that fails to load has no failed *tests*, only a failed suite.
    totals.failed += failedTests > 0 ? failedTests : (r.numFailedTestSuites ?? 0);
    totals.skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  }
  return totals;
}
