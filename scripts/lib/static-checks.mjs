// The repository-wide checks `npm test` runs before the package tests. Each is
// a root script; a failed one is named with how to fix it and counts as one
// failure in the closing "N passed, N failed, N skipped" line.

/** The checks, in the order they run: what is checked, the root script, how to fix a failure. */
export const STATIC_CHECKS = [
  {
    name: "format",
    script: "format:check",
    fix: "run `npm run format` (oxfmt writes the files) and commit the result",
  },
  {
    name: "lint",
    script: "lint",
    fix: "fix what `npm run lint` lists (oxlint); an override needs its reason (CONTRIBUTING.md, Lint and format)",
  },
  {
    name: "import cycles",
    script: "lint:cycles",
    fix: "break the cycle `npm run lint:cycles` names, e.g. move what both modules need into a third one",
  },
  {
    name: "knip",
    script: "knip",
    fix: "remove what `npm run knip` lists as unused, or declare a real entry or user in knip.json with a comment",
  },
];

/**
 * Runs every check (a failure does not stop the others) and says how to fix
 * each one that failed.
 *
 * @param runScript - Runs a root script and returns its exit code.
 * @param write - Where the progress and fix lines go.
 * @returns The checks that failed.
 */
export function runStaticChecks(runScript, write = (text) => process.stdout.write(text)) {
  const failed = [];
  for (const check of STATIC_CHECKS) {
    write(`[check] ${check.name} (npm run ${check.script})\n`);
    const code = runScript(check.script);
    if (code === 0) continue;
    failed.push(check);
    write(`[check] ${check.name} FAILED (exit ${code}): ${check.fix}\n`);
  }
  return failed;
}

/**
 * The totals of `summarize()` with the failed checks added: each counts as one
 * failure, so the closing line and the exit code (non-zero when anything
 * failed) agree.
 *
 * @param totals - What `summarize()` returned.
 * @param failedChecks - What `runStaticChecks()` returned.
 * @returns The totals with `failed` raised and the checks' names in `failedChecks`.
 */
export function withFailedChecks(totals, failedChecks) {
  return { ...totals, failed: totals.failed + failedChecks.length, failedChecks: failedChecks.map((c) => c.name) };
}
