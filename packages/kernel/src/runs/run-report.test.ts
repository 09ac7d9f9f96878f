import { describe, expect, it } from "vitest";
import { RUN_REPORT_KEY, reportRunError, reportRunStop, runReportOf, type RunReport } from "./run-report.js";

describe("run report", () => {
  it("writes the first stop reason and error into the run's report", () => {
    const report: RunReport = {};
    const config = { configurable: { [RUN_REPORT_KEY]: report } };
    expect(runReportOf(config)).toBe(report);
    expect(reportRunStop(config, "loop_capped")).toBe(true);
    reportRunStop(config, "token_capped");
    expect(reportRunError(config, "no final answer")).toBe(true);
    reportRunError(config, "later");
    expect(report).toEqual({ stopReason: "loop_capped", error: "no final answer" });
  });

  it("does nothing without a report (a graph run outside the runtime)", () => {
    expect(runReportOf({ configurable: {} })).toBeUndefined();
    expect(reportRunStop(undefined, "loop_capped")).toBe(false);
    expect(reportRunError({ configurable: { [RUN_REPORT_KEY]: "not an object" } }, "x")).toBe(false);
  });
});
