/**
 * Subagent limit — DeerFlow's `SubagentLimitMiddleware` (chain row 27, when
 * subagents are on) with the run's own cap: at most `max_concurrent_subagents`
 * `task` calls per response (the run's value, else the agent's; 1–4, default
 * 3) and `maxTotal` per run (1–50, default 6). The limit itself is
 * `applySubagentLimit` of `@deerflow/subagents`; this only reads the cap from
 * the run, since the agent is compiled once.
 *
 * Config keys: `maxConcurrent`, `maxTotal` (the server's `subagents.max_concurrent`,
 * `subagents.max_total_per_run`); per run: `max_concurrent_subagents`.
 */
import {
  applySubagentLimit,
  countPriorTaskCalls,
  resolveSubagentLimits,
  type SubagentLimits,
} from "@deerflow/subagents";
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import { createMiddleware, type AgentMiddleware } from "langchain";
import { silentLogger, type Logger } from "../logger.js";
import { readRunOptions } from "../run/run-options.js";

/** Options of {@link createRunSubagentLimitMiddleware}. */
export interface RunSubagentLimitOptions extends SubagentLimits {
  readonly logger?: Logger;
}

/**
 * Creates the limit middleware. The limit is applied to the model's answer in
 * the after-work of a `wrapModelCall` (no graph node of its own per model call),
 * so the middlewares inside it in a chain (loop detection, the finish-reason
 * guards, clarification) have had their say first, as with an `afterModel` hook.
 *
 * @param options - default caps and logger
 * @returns a `wrapModelCall` middleware
 */
export function createRunSubagentLimitMiddleware(options: RunSubagentLimitOptions = {}): AgentMiddleware {
  const logger = options.logger ?? silentLogger;
  return createMiddleware({
    name: "SubagentLimitMiddleware",
    wrapModelCall: async (request, handler) => {
      const response = await handler(request);
      if (!AIMessage.isInstance(response) || (response.tool_calls?.length ?? 0) === 0) return response;
      const run = readRunOptions(request.runtime);
      const maxConcurrent = run.maxConcurrentSubagents ?? options.maxConcurrent;
      const limits = resolveSubagentLimits({
        ...(maxConcurrent === undefined ? {} : { maxConcurrent }),
        ...(options.maxTotal === undefined ? {} : { maxTotal: options.maxTotal }),
      });
      const messages: BaseMessage[] = [...request.state.messages, response];
      const prior = countPriorTaskCalls(messages, response);
      const outcome = applySubagentLimit(response, prior, limits);
      if (outcome.message === undefined) return response;
      logger.warn(
        { dropped: outcome.dropped, prior, exhausted: outcome.exhausted, ...limits },
        "subagent task calls dropped by limit",
      );
      return outcome.message;
    },
  });
}
