/**
 * Token usage — DeerFlow's `TokenUsageMiddleware` (chain row 20,
 * `token_usage.enabled`, default true): after every model call, the call's
 * `usage_metadata` is added to two state channels: `token_usage` (the
 * thread's total over all its runs, kept with the thread's checkpoints) and
 * `run_token_usage` (the current run's, started again when another run
 * calls the model). Each model call's own counts stay on its AI message
 * (`usage_metadata`), as LangChain puts them.
 *
 * One `afterModel` hook and nothing else: every `before*` / `after*` hook is a
 * graph node each model call passes through. So the run is told apart by its
 * `configurable.run_id` (set by the server's runtime) or, without one, by the
 * latest message the user wrote, recorded as `run_token_usage.run_id`.
 *
 * Config keys: `token_usage.enabled` (default true): without it the
 * middleware is left out of the chain.
 *
 * Differs from DeerFlow: subagent usage is not merged into the dispatching
 * AI message (our subagents report their own usage in their result).
 */
import type { BaseMessage } from "@langchain/core/messages";
import { createMiddleware, type AgentMiddleware } from "langchain";
import { z } from "zod/v4";
import { addTokens, runKeyOf, usageOf, type TokenCounts } from "../../internal/token-usage.js";
import type { RunConfigLike } from "../../run/run-options.js";

/** Token counts with the number of model calls they come from. */
export interface TokenUsage extends TokenCounts {
  /** Model calls counted. */
  readonly llm_call_count: number;
}

/**
 * Adds usages.
 *
 * @param a - usage so far
 * @param b - usage to add
 * @returns the sum
 */
export function addTokenUsage(a: TokenUsage | undefined, b: TokenUsage | undefined): TokenUsage {
  return { ...addTokens(a, b), llm_call_count: (a?.llm_call_count ?? 0) + (b?.llm_call_count ?? 0) };
}

const usageSchema = z.object({
  input_tokens: z.number(),
  output_tokens: z.number(),
  total_tokens: z.number(),
  llm_call_count: z.number(),
});

/** The state channels of the token-usage middleware: the thread's total and the run's (with the run it counts). */
export const TokenUsageState = z.object({
  token_usage: usageSchema.optional(),
  run_token_usage: usageSchema.extend({ run_id: z.string() }).optional(),
});

/**
 * Creates the token-usage middleware.
 *
 * @returns a middleware recording each model call's usage in the thread's and the run's totals
 */
export function createTokenUsageMiddleware(): AgentMiddleware {
  return createMiddleware({
    name: "TokenUsageMiddleware",
    stateSchema: TokenUsageState,
    afterModel: (state, runtime) => {
      const messages = state.messages as BaseMessage[];
      const usage = usageOf(messages.at(-1));
      if (usage === undefined) return undefined;
      const call: TokenUsage = { ...usage, llm_call_count: 1 };
      const run_id = runKeyOf(messages, runtime as RunConfigLike);
      const sameRun = state.run_token_usage?.run_id === run_id;
      return {
        token_usage: addTokenUsage(state.token_usage, call),
        run_token_usage: { ...addTokenUsage(sameRun ? state.run_token_usage : undefined, call), run_id },
      };
    },
  });
}
