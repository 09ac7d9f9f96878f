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
 * reducers sum, and `run_token_usage` starts again when the run changes), so
 * the hook never reads the state: a middleware with a state schema of its
 * own has it parsed by langchain on every wrapped model call. The run is told
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

/** One model call's counts, written to the channels to be added (what the middleware sends). */
const INCREMENT = "increment";
const usageInput = usageSchema.extend({ [INCREMENT]: z.literal(true).optional() });
const runUsageInput = runUsageSchema.extend({ [INCREMENT]: z.literal(true).optional() });

/** The counts of a write, without its marker. */
function countsOf<T extends TokenUsage>(write: T & { readonly [INCREMENT]?: true | undefined }): T {
  const { [INCREMENT]: _increment, ...counts } = write;
  return counts as unknown as T;
}

type UsageWrite = z.infer<typeof usageInput> | undefined;
type RunUsageWrite = z.infer<typeof runUsageInput> | undefined;

const ZERO_USAGE: TokenUsage = Object.freeze({ input_tokens: 0, output_tokens: 0, total_tokens: 0, llm_call_count: 0 });
const isZero = (u: TokenUsage): boolean =>
  u.input_tokens === 0 && u.output_tokens === 0 && u.total_tokens === 0 && u.llm_call_count === 0;

/**
 * The state channels of the token-usage middleware: the thread's total and the
 * run's (with the run it counts). Writes are of three kinds:
 *
 * - one call's counts marked `increment: true`: added (`run_token_usage`
 *   starts again at another `run_id`);
 * - zero counts: no change (they only start an empty channel, see below);
 * - any other value: set (a client's `updateState`, or langchain's `invoke` /
 *   `stream`, which feed the thread's current values back in as input: setting
 *   a value to itself changes nothing, where adding it would double it).
 *
 * The middleware writes zero counts and then the marked increment: LangGraph
 * stores the first write to an empty channel as is, without the reducer, so
 * the zeros take that place and the increment is always added (its marker
 * never reaches the state).
 * The middleware declares the channels itself; an agent that declares them in
 * its own state schema (as the lead agent does) creates it with `declareState: false`.
 */
export const TokenUsageState = new StateSchema({
  token_usage: new ReducedValue(usageSchema.optional(), {
    inputSchema: usageInput.optional(),
    reducer: (current: TokenUsage | undefined, write: UsageWrite): TokenUsage | undefined => {
      if (write === undefined) return current;
      const counts = countsOf(write);
      if (write[INCREMENT] === true) return addTokenUsage(current, counts);
      return isZero(counts) && current !== undefined ? current : counts;
    },
  }),
  run_token_usage: new ReducedValue(runUsageSchema.optional(), {
    inputSchema: runUsageInput.optional(),
    reducer: (current: RunTokenUsage | undefined, write: RunUsageWrite): RunTokenUsage | undefined => {
      if (write === undefined) return current;
      const counts = countsOf(write);
      if (write[INCREMENT] !== true) return isZero(counts) && current !== undefined ? current : counts;
      const sameRun = current?.run_id === counts.run_id;
      return { ...addTokenUsage(sameRun ? current : undefined, counts), run_id: counts.run_id };
    },
  }),
});

/** The channel writes of one call's usage: zeros (an empty channel's start), then the increment. */
function usageWrites(call: TokenUsage, runId: string): [string, unknown][] {
  const increment = { ...call, [INCREMENT]: true } as const;
  return [
    ["token_usage", ZERO_USAGE],
    ["token_usage", increment],
    ["run_token_usage", { ...ZERO_USAGE, run_id: runId }],
    ["run_token_usage", { ...increment, run_id: runId }],
  ];
}

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
      return new Command({ update: usageWrites(call, runKeyOf(request.state.messages, runtime)) });
    },
  });
}

/** The provider's model name on a response (OpenAI's `model_name`, Anthropic's `model`), if any. */
function modelNameOf(response: AIMessage): string | undefined {
  const meta = response.response_metadata as Record<string, unknown> | undefined;
  const name = meta?.["model_name"] ?? meta?.["model"];
  return typeof name === "string" && name !== "" ? name : undefined;
}
