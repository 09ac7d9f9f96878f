/**
 * How a middleware tells the run it ended early (DeerFlow's run `stop_reason`,
 * which its guard middlewares write into the runtime context): one call,
 * {@link stampStopReason}, from any hook that has the run's `runtime` (or
 * config). The value reaches the run record the runtime stores
 * (`RunRecord.stopReason`) and the LangGraph SDK reads (`run.stop_reason`)
 * through the run report `@deerflow/runtime` puts in `configurable`; outside
 * that runtime the stamp is only logged.
 */
import { reportRunError, reportRunStop, type RunReportCarrier } from "@deerflow/kernel";
import type { Logger } from "../logger.js";

/** DeerFlow's stop reasons (any other string is allowed for custom guards). */
export type StopReason =
  | "loop_capped"
  | "token_capped"
  | "safety_capped"
  | "subagent_limit_capped"
  | "model_length_capped"
  | (string & {});

/**
 * Stamps the run's stop reason (the first stamp of a run wins).
 *
 * @param runtime - the hook's `runtime` (or the run's config)
 * @param reason - e.g. `loop_capped`
 * @param logger - receives one info line
 */
export function stampStopReason(runtime: RunReportCarrier | undefined, reason: StopReason, logger?: Logger): void {
  const recorded = reportRunStop(runtime, reason);
  logger?.info({ stopReason: reason, recorded }, "run stop reason stamped");
}

/**
 * Ends the run as an error once its graph finishes (its messages are kept):
 * DeerFlow's terminal-response fallback.
 *
 * @param runtime - the hook's `runtime` (or the run's config)
 * @param message - the run's error text
 * @param logger - receives one warning
 */
export function failRun(runtime: RunReportCarrier | undefined, message: string, logger?: Logger): void {
  const recorded = reportRunError(runtime, message);
  logger?.warn({ recorded }, message);
}
