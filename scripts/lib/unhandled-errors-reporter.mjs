// A vitest reporter that records the run's unhandled errors and rejections in
// test-unhandled.json next to test-results.json. Vitest fails such a run (its
// exit code is 1) but its JSON report counts only tests and suites, so without
// this file the summary line could say "0 failed" for a failed run.
import { writeFileSync } from "node:fs";
import path from "node:path";

/** Name of the file written in the package folder (the test command's cwd). */
export const UNHANDLED_REPORT = "test-unhandled.json";

export default class UnhandledErrorsReporter {
  onTestRunEnd(_testModules, unhandledErrors) {
    const errors = (unhandledErrors ?? []).map((e) => ({
      name: String(e?.name ?? "Error"),
      message: String(e?.message ?? e).slice(0, 500),
    }));
    writeFileSync(
      path.resolve(process.cwd(), UNHANDLED_REPORT),
      `${JSON.stringify({ count: errors.length, errors }, null, 2)}\n`,
    );
  }
}
