/**
 * Token usage — DeerFlow's `TokenUsageMiddleware` (chain row 20,
 * `token_usage.enabled`, default true): after every model call, the call's
 * `usage_metadata` is added to two state channels: `token_usage` (the
 * thread's total over all its runs, kept with the thread's checkpoints) and
 * `run_token_usage` (the current run's, reset when a run starts). Each model
 * call's own counts stay on its AI message (`usage_metadata`), as LangChain
 * puts them.
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
import { addTokens, usageOf, ZERO_TOKENS, type TokenCounts } from "../../internal/token-usage.js";

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

/** The state channels of the token-usage middleware: the thread's total and the run's. */
export const TokenUsageState = z.object({ token_usage: usageSchema.optional(), run_token_usage: usageSchema.optional() });

/**
 * Creates the token-usage middleware.
 *
 * @returns a middleware recording each model call's usage in the thread's and the run's totals
 */
export function createTokenUsageMiddleware(): AgentMiddleware {
  return createMiddleware({
    name: "TokenUsageMiddleware",
    stateSchema: TokenUsageState,
    beforeAgent: () => ({ run_token_usage: { ...ZERO_TOKENS, llm_call_count: 0 } }),
    afterModel: (state) => {
      const usage = usageOf((state.messages as BaseMessage[]).at(-1));
      if (usage === undefined) return undefined;
      const call: TokenUsage = { ...usage, llm_call_count: 1 };
      return { token_usage: addTokenUsage(state.token_usage, call), run_token_usage: addTokenUsage(state.run_token_usage, call) };
    },
  });
}
