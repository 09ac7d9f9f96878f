/**
 * `createAgent` middleware enforcing the subagent limits after every model
 * call of the lead (DeerFlow's `SubagentLimitMiddleware`): the caps hold in
 * code, not only in the prompt.
 */
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import { createMiddleware } from "langchain";
import { silentLogger, type Logger } from "../logger.js";
import { applySubagentLimit, countPriorTaskCalls, resolveSubagentLimits, type SubagentLimits } from "./limit-filter.js";

/** Options of {@link createSubagentLimitMiddleware}. */
export interface SubagentLimitMiddlewareOptions extends SubagentLimits {
  /** Name of the delegation tool; `task` by default. */
  readonly toolName?: string;
  readonly logger?: Logger;
}

/**
 * Creates the limit middleware for a lead agent. The response's id is kept,
 * so the rewritten message replaces the original in `messages`.
 *
 * @param options - caps (clamped: per response [1, 4] default 3, per run [1, 50] default 6), tool name, logger
 * @returns an `afterModel` middleware for `createAgent({ middleware: [...] })`
 * @example
 * ```ts
 * const lead = createAgent({ model, tools: [taskTool], middleware: [createSubagentLimitMiddleware({ maxConcurrent: 2 })] });
 * ```
 */
export function createSubagentLimitMiddleware(options: SubagentLimitMiddlewareOptions = {}) {
  const limits = resolveSubagentLimits(options);
  const toolName = options.toolName ?? "task";
  const logger = options.logger ?? silentLogger;
  return createMiddleware({
    name: "SubagentLimitMiddleware",
    afterModel: (state) => {
      const messages = state.messages as BaseMessage[];
      const last = messages.at(-1);
      if (last === undefined || !AIMessage.isInstance(last)) return undefined;
      const prior = countPriorTaskCalls(messages, last, toolName);
      const outcome = applySubagentLimit(last, prior, limits, toolName);
      if (outcome.message === undefined) return undefined;
      logger.warn(
        { dropped: outcome.dropped, prior, exhausted: outcome.exhausted, ...limits },
        "subagent task calls dropped by limit",
      );
      return { messages: [outcome.message] };
    },
  });
}
