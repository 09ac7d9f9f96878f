/**
 * How a graph tells the runtime executing it how a run ended, beyond "the
 * graph returned": the run's `stop_reason` (DeerFlow's `loop_capped`,
 * `token_capped`, `model_length_capped`, `safety_capped`…) and, for a run
 * that should end as an error although its graph finished (DeerFlow's
 * terminal-response fallback), the error text.
 *
 * The runtime puts one {@link RunReport} per run in the run's
 * `config.configurable[RUN_REPORT_KEY]`; middlewares write into it through
 * {@link reportRunStop} / {@link reportRunError}, and the runtime reads it once
 * the graph is done and records it on the run (`stopReason`, status `error`).
 * A graph run outside that runtime has no report, and the calls do nothing.
 * DeerFlow writes the same values into the run's runtime context.
 */

/** The `configurable` key of a run's {@link RunReport} (`__` keeps it out of checkpoint metadata). */
export const RUN_REPORT_KEY = "__deerflow_run_report";

/** What the graph reports about its run (written by middlewares, read by the runtime after the run). */
export interface RunReport {
  /** Why the run stopped early (the first one reported wins), e.g. `loop_capped`. */
  stopReason?: string;
  /** Set when the run must end as an error although the graph finished. */
  error?: string;
}

/** Anything carrying a run's config: a `RunnableConfig` or a middleware's `runtime`. */
export interface RunReportCarrier {
  readonly configurable?: Readonly<Record<string, unknown>> | undefined;
}

/**
 * The run's report, when the runtime executing the graph gave it one.
 *
 * @param config - the run's config, or a middleware's `runtime`
 * @returns the report, or `undefined` outside a reporting runtime
 */
export function runReportOf(config: RunReportCarrier | undefined): RunReport | undefined {
  const report = config?.configurable?.[RUN_REPORT_KEY];
  return typeof report === "object" && report !== null ? (report as RunReport) : undefined;
}

/**
 * Stamps the run's stop reason (the first one stamped is kept: the earliest guard explains the stop).
 *
 * @param config - the run's config, or a middleware's `runtime`
 * @param reason - e.g. `loop_capped`
 * @returns whether a report received it
 */
export function reportRunStop(config: RunReportCarrier | undefined, reason: string): boolean {
  const report = runReportOf(config);
  if (report === undefined) return false;
  report.stopReason ??= reason;
  return true;
}

/**
 * Marks the run as failed with `message` although its graph finished (its state is kept).
 *
 * @param config - the run's config, or a middleware's `runtime`
 * @param message - the run's error text
 * @returns whether a report received it
 */
export function reportRunError(config: RunReportCarrier | undefined, message: string): boolean {
  const report = runReportOf(config);
  if (report === undefined) return false;
  report.error ??= message;
  return true;
}
