/**
 * Token counts of model calls, read from the `usage_metadata` LangChain puts
 * on AI messages (OpenAI's `usage`, Anthropic's `usage`...). Shared by the
 * token-usage and token-budget middlewares so both count the same way.
 */
import type { TokenCounts } from "@deerflow/kernel";
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import { readRunOptions, type RunConfigLike } from "../run/run-options.js";
import { lastGenuineUserIndex } from "./genuine-user-message.js";

/** Token counts (wire names, as DeerFlow's run record and `usage_metadata`): the kernel's, which the run report sums. */
export type { TokenCounts };

/** No tokens. */
export const ZERO_TOKENS: TokenCounts = Object.freeze({ input_tokens: 0, output_tokens: 0, total_tokens: 0 });

const count = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) && v > 0 ? Math.trunc(v) : 0);

/**
 * The usage of one model call.
 *
 * @param message - a message (only AI messages carry usage)
 * @returns its counts, or `undefined` when it reports none
 */
export function usageOf(message: BaseMessage | undefined): TokenCounts | undefined {
  if (message === undefined || !AIMessage.isInstance(message) || message.usage_metadata === undefined) return undefined;
  const { input_tokens, output_tokens, total_tokens } = message.usage_metadata;
  const input = count(input_tokens);
  const output = count(output_tokens);
  return { input_tokens: input, output_tokens: output, total_tokens: Math.max(count(total_tokens), input + output) };
}

/**
 * Adds counts.
 *
 * @param a - counts so far (absent = zero)
 * @param b - counts to add (absent = zero)
 * @returns the sum
 */
export function addTokens(a: TokenCounts | undefined, b: TokenCounts | undefined): TokenCounts {
  return {
    input_tokens: (a?.input_tokens ?? 0) + (b?.input_tokens ?? 0),
    output_tokens: (a?.output_tokens ?? 0) + (b?.output_tokens ?? 0),
    total_tokens: (a?.total_tokens ?? 0) + (b?.total_tokens ?? 0),
  };
}

/**
 * The run a model call belongs to, for per-run counts kept in state without a
 * `beforeAgent` hook (each hook is a graph node every call passes through).
 *
 * @param messages - the conversation
 * @param runtime - the hook's runtime (or the run's config)
 * @returns `configurable.run_id`, else the id of the latest message the user wrote
 */
export function runKeyOf(messages: readonly BaseMessage[], runtime: RunConfigLike): string {
  return readRunOptions(runtime).runId ?? `message:${messages[lastGenuineUserIndex(messages)]?.id ?? ""}`;
}
