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
 *
 * The report also sums the tokens the run's model calls used
 * ({@link reportRunTokens}), which the runtime records in the run's metadata.
 */

/** The `configurable` key of a run's {@link RunReport} (`__` keeps it out of checkpoint metadata). */
export const RUN_REPORT_KEY = "__deerflow_run_report";

/** What the graph reports about its run (written by middlewares, read by the runtime after the run). */
export interface RunReport {
  /** Why the run stopped early (the first one reported wins), e.g. `loop_capped`. */
  stopReason?: string;
  /** Set when the run must end as an error although the graph finished. */
  error?: string;
  /** The tokens of the run's model calls so far (summed by {@link reportRunTokens}). */
  tokenUsage?: RunTokenUsage;
}

/** Token counts (the wire names of LangChain's `usage_metadata`). */
export interface TokenCounts {
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly total_tokens: number;
}

/** Token counts and the model calls they come from. */
export interface CountedTokens extends TokenCounts {
  readonly llm_call_count: number;
}

/** A run's token usage: its total, and per model when calls named theirs. */
export interface RunTokenUsage extends CountedTokens {
  /** Per model name (the calls that named no model are only in the total). */
  readonly by_model: Readonly<Record<string, CountedTokens>>;
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

const add = (a: CountedTokens | undefined, b: TokenCounts): CountedTokens => ({
  input_tokens: (a?.input_tokens ?? 0) + b.input_tokens,
  output_tokens: (a?.output_tokens ?? 0) + b.output_tokens,
  total_tokens: (a?.total_tokens ?? 0) + b.total_tokens,
  llm_call_count: (a?.llm_call_count ?? 0) + 1,
});

/**
 * Adds one model call's tokens to the run's usage.
 *
 * @param config - the run's config, or a middleware's `runtime`
 * @param call - the call's counts
 * @param model - the model's name, when known (counted per model too)
 * @returns whether a report received it
 */
export function reportRunTokens(config: RunReportCarrier | undefined, call: TokenCounts, model?: string): boolean {
  const report = runReportOf(config);
  if (report === undefined) return false;
  const previous = report.tokenUsage;
  const byModel = previous?.by_model ?? {};
  report.tokenUsage = {
    ...add(previous, call),
    by_model: model === undefined ? byModel : { ...byModel, [model]: add(byModel[model], call) },
  };
  return true;
}
