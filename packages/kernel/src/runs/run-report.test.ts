import { describe, expect, it } from "vitest";
import {
  RUN_REPORT_KEY,
  reportRunError,
  reportRunStop,
  reportRunTokens,
  runReportOf,
  type RunReport,
} from "./run-report.js";

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

  it("sums the run's tokens, in total and per named model", () => {
    const report: RunReport = {};
    const config = { configurable: { [RUN_REPORT_KEY]: report } };
    expect(reportRunTokens(config, { input_tokens: 10, output_tokens: 5, total_tokens: 15 }, "fast")).toBe(true);
    reportRunTokens(config, { input_tokens: 3, output_tokens: 1, total_tokens: 4 }, "fast");
    reportRunTokens(config, { input_tokens: 7, output_tokens: 2, total_tokens: 9 }, "big");
    reportRunTokens(config, { input_tokens: 1, output_tokens: 1, total_tokens: 2 });
    expect(report.tokenUsage).toEqual({
      input_tokens: 21,
      output_tokens: 9,
      total_tokens: 30,
      llm_call_count: 4,
      by_model: {
        fast: { input_tokens: 13, output_tokens: 6, total_tokens: 19, llm_call_count: 2 },
        big: { input_tokens: 7, output_tokens: 2, total_tokens: 9, llm_call_count: 1 },
      },
    });
    expect(reportRunTokens({ configurable: {} }, { input_tokens: 1, output_tokens: 1, total_tokens: 2 })).toBe(false);
  });

  it("does nothing without a report (a graph run outside the runtime)", () => {
    expect(runReportOf({ configurable: {} })).toBeUndefined();
    expect(reportRunStop(undefined, "loop_capped")).toBe(false);
    expect(reportRunError({ configurable: { [RUN_REPORT_KEY]: "not an object" } }, "x")).toBe(false);
  });
});
