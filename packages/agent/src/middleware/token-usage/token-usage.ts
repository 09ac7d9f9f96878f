/**
 * Token usage — DeerFlow's `TokenUsageMiddleware` (chain row 20,
 * `token_usage.enabled`, default true): after every model call, the call's
 * `usage_metadata` is added to two state channels: `token_usage` (the
 * thread's total over all its runs, kept with the thread's checkpoints) and
 * `run_token_usage` (the current run's, started again when another run
 * calls the model), and to the run's report (`reportRunTokens` of the
 * kernel), which `@deerflow/runtime` records on the run (`metadata.token_usage`,
 * per model too). Each model call's own counts stay on its AI message
 * (`usage_metadata`), as LangChain puts them.
 *
 * Where its hook lives: in the model node, as the after-work of a
 * `wrapModelCall` returning a `Command` with the counts of that one call —
 * not an `afterModel` hook, which is a graph node (and a superstep) every
 * model call passes through. The channels add up what they are sent (their
 * reducers sum, each call once by its `last_call_id`, and `run_token_usage`
 * starts again when the run changes), so the hook never reads the state: a
 * middleware with a state schema of its own has it parsed by langchain on
 * every wrapped model call. The run is told
 * apart by its `configurable.run_id` (set by the server's runtime) or,
 * without one, by the latest message the user wrote, recorded as
 * `run_token_usage.run_id`. Put it outside the middlewares that retry or
 * replace the model's answer (the LLM error handling), so it counts each
 * model node's final answer once, as an `afterModel` hook would.
 *
 * Config keys: `token_usage.enabled` (default true): without it the
 * middleware is left out of the chain.
 *
 * Differs from DeerFlow: subagent usage is not merged into the dispatching
 * AI message (our subagents report their own usage in their result).
 */
import { randomUUID } from "node:crypto";
import { AIMessage } from "@langchain/core/messages";
import { Command, ReducedValue, StateSchema } from "@langchain/langgraph";
import { reportRunTokens } from "@deerflow/kernel";
import { createMiddleware, type AgentMiddleware } from "langchain";
import { z } from "zod/v4";
import { addTokens, runKeyOf, usageOf, type TokenCounts } from "../../internal/token-usage.js";
import type { RunConfigLike } from "../../run/run-options.js";

/** Token counts with the number of model calls they come from. */
export interface TokenUsage extends TokenCounts {
  /** Model calls counted. */
  readonly llm_call_count: number;
  /** In the state channels: the last model call counted (each call is counted once). */
  readonly last_call_id?: string | undefined;
}

/** A run's token usage, with the run it counts. */
export interface RunTokenUsage extends TokenUsage {
  readonly run_id: string;
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
const runUsageSchema = usageSchema.extend({ run_id: z.string() });

/**
 * A write of one model call's counts: `last_call_id` names the call, so the
 * reducers add it once (see {@link TokenUsageState}).
 */
const usageInput = usageSchema.extend({ last_call_id: z.string().optional() });
const runUsageInput = runUsageSchema.extend({ last_call_id: z.string().optional() });
type UsageWrite = z.infer<typeof usageInput>;
type RunUsageWrite = z.infer<typeof runUsageInput>;

/**
 * The state channels of the token-usage middleware: the thread's total and the
 * run's (with the run it counts), each with the id of the last model call it
 * counts (`last_call_id`). The middleware writes one call's counts with a
 * fresh id, which the reducers add (`run_token_usage` starts again at another
 * `run_id`); a write with the id already counted changes nothing (langchain's
 * `invoke` / `stream` feed the thread's current values back in as input, and
 * adding them would double them); a write without an id sets the value (a
 * client's `updateState`). One write per channel and call, so the model
 * node's `updates` event stays one object. The first write to an empty
 * channel is stored as written, which is a valid total.
 * The middleware declares the channels itself; an agent that declares them in
 * its own state schema (as the lead agent does) creates it with `declareState: false`.
 */
export const TokenUsageState = new StateSchema({
  token_usage: new ReducedValue(usageInput.optional(), {
    inputSchema: usageInput.optional(),
    reducer: (current: UsageWrite | undefined, write: UsageWrite | undefined): UsageWrite | undefined => {
      if (write === undefined || (write.last_call_id !== undefined && write.last_call_id === current?.last_call_id))
        return current;
      if (write.last_call_id === undefined) return write;
      return { ...addTokenUsage(current, write), last_call_id: write.last_call_id };
    },
  }),
  run_token_usage: new ReducedValue(runUsageInput.optional(), {
    inputSchema: runUsageInput.optional(),
    reducer: (current: RunUsageWrite | undefined, write: RunUsageWrite | undefined): RunUsageWrite | undefined => {
      if (write === undefined || (write.last_call_id !== undefined && write.last_call_id === current?.last_call_id))
        return current;
      if (write.last_call_id === undefined || current?.run_id !== write.run_id) return write;
      return { ...addTokenUsage(current, write), run_id: write.run_id, last_call_id: write.last_call_id };
    },
  }),
});

/** Options of {@link createTokenUsageMiddleware}. */
export interface TokenUsageMiddlewareOptions {
  /**
   * Carry {@link TokenUsageState} as the middleware's state schema. Default true;
   * false when the agent's state schema declares the channels (then langchain does
   * not parse them on every model call).
   */
  readonly declareState?: boolean;
  /** The model a call's usage is counted under in the run report (e.g. the run's configured model name). */
  readonly modelName?: (runtime: RunConfigLike, response: AIMessage) => string | undefined;
}

/**
 * Creates the token-usage middleware.
 *
 * @param options - whether it declares its channels, how a call's model is named
 * @returns a `wrapModelCall` middleware recording each model call's usage in the thread's and the run's totals
 */
export function createTokenUsageMiddleware(options: TokenUsageMiddlewareOptions = {}): AgentMiddleware {
  const modelName = options.modelName ?? ((_runtime, response) => modelNameOf(response));
  return createMiddleware({
    name: "TokenUsageMiddleware",
    ...(options.declareState === false ? {} : { stateSchema: TokenUsageState }),
    wrapModelCall: async (request, handler) => {
      const response = await handler(request);
      const usage = AIMessage.isInstance(response) ? usageOf(response) : undefined;
      if (usage === undefined) return response;
      const runtime = request.runtime as RunConfigLike;
      reportRunTokens(runtime, usage, modelName(runtime, response));
      const call: TokenUsage = { ...usage, llm_call_count: 1 };
      const last_call_id = randomUUID();
      const run_id = runKeyOf(request.state.messages, runtime);
      return new Command({
        update: { token_usage: { ...call, last_call_id }, run_token_usage: { ...call, run_id, last_call_id } },
      });
    },
  });
}

/** The provider's model name on a response (OpenAI's `model_name`, Anthropic's `model`), if any. */
function modelNameOf(response: AIMessage): string | undefined {
  const meta = response.response_metadata as Record<string, unknown> | undefined;
  const name = meta?.["model_name"] ?? meta?.["model"];
  return typeof name === "string" && name !== "" ? name : undefined;
}
