/** Per-response and per-run caps on `task` calls of the lead. */
export {
  applySubagentLimit,
  countPriorTaskCalls,
  DEFAULT_MAX_TASK_CALLS_PER_RESPONSE,
  DEFAULT_MAX_TASK_CALLS_PER_RUN,
  resolveSubagentLimits,
  SUBAGENT_LIMIT_REACHED_TEXT,
  type SubagentLimitOutcome,
  type SubagentLimits,
} from "./limit-filter.js";
export { createSubagentLimitMiddleware, type SubagentLimitMiddlewareOptions } from "./limit-middleware.js";
