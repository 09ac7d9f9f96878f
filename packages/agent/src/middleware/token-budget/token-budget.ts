/**
 * Token budget — DeerFlow's `TokenBudgetMiddleware` (chain row 29, §3.4,
 * `token_budget.enabled`, default false): the tokens of a run's model calls
 * (their `usage_metadata`) are counted against `max_tokens` (total) and,
 * when set, `max_input_tokens` / `max_output_tokens`.
 * - At `warn_threshold` of a budget, a warning is added once per run before
 *   the next model call (a hidden human message, so the model reads it and
 *   the console does not show it as the user's).
 * - At `hard_stop_threshold`, the response's tool calls are removed (raw
 *   provider tool calls included), DeerFlow's `[TOKEN BUDGET EXCEEDED]` note
 *   is appended, and the run's `stop_reason` becomes `token_capped` (through
 *   `stampStopReason`, which the runtime records on the run).
 *
 * Config keys (`token_budget:`): `enabled` (false), `max_tokens` (200000,
 * ≥ 1000), `max_input_tokens` / `max_output_tokens` (null = no such budget),
 * `warn_threshold` (0.8), `hard_stop_threshold` (1.0).
 */
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { createMiddleware, type AgentMiddleware } from "langchain";
import { z } from "zod/v4";
import { AgentError } from "../../errors.js";
import { stampStopReason } from "../../internal/run-stop.js";
import { addTokens, runKeyOf, usageOf, ZERO_TOKENS, type TokenCounts } from "../../internal/token-usage.js";
import { silentLogger, type Logger } from "../../logger.js";
import type { RunConfigLike } from "../../run/run-options.js";
import { appendText, lastAiMessage, rewriteAiMessage } from "../../messages.js";
import { tokenBudgetExceededText, tokenBudgetWarningText, type TokenBudgetReason } from "./texts.js";

/** The run's stop reason after a hard stop. */
export const TOKEN_CAPPED = "token_capped";

/** Options of {@link createTokenBudgetMiddleware} (the `token_budget:` keys in camelCase). */
export interface TokenBudgetOptions {
  /** `max_tokens`: budget of input + output tokens per run (≥ 1000). Default 200000. */
  readonly maxTokens?: number;
  /** `max_input_tokens`: budget of input tokens per run (≥ 1), or none. Default none. */
  readonly maxInputTokens?: number | null;
  /** `max_output_tokens`: budget of output tokens per run (≥ 1), or none. Default none. */
  readonly maxOutputTokens?: number | null;
  /** `warn_threshold`: share of a budget that warns (0 < x ≤ 1). Default 0.8. */
  readonly warnThreshold?: number;
  /** `hard_stop_threshold`: share of a budget that stops (≥ `warn_threshold`). Default 1.0. */
  readonly hardStopThreshold?: number;
  readonly logger?: Logger;
}

const runBudgetSchema = z.object({
  input_tokens: z.number(),
  output_tokens: z.number(),
  total_tokens: z.number(),
  warned: z.boolean(),
  capped: z.boolean(),
  run_id: z.string(),
});
type RunBudget = z.infer<typeof runBudgetSchema>;

/** The state channel: the run's counts and whether it was warned / stopped (`token_budget_run`, started again for each run). */
export const TokenBudgetState = z.object({ token_budget_run: runBudgetSchema.optional() });

type Budget = { readonly reason: TokenBudgetReason; readonly limit: number; readonly used: (c: TokenCounts) => number };

function checkedOptions(options: TokenBudgetOptions): { budgets: Budget[]; warn: number; hard: number } {
  const fail = (key: string, rule: string, value: unknown): never => {
    throw new AgentError("CONFIG_INVALID", `token_budget.${key} must be ${rule}, got ${String(value)}`);
  };
  const maxTokens = options.maxTokens ?? 200_000;
  if (!Number.isInteger(maxTokens) || maxTokens < 1000) fail("max_tokens", "an integer ≥ 1000", maxTokens);
  const warn = options.warnThreshold ?? 0.8;
  if (!(warn > 0 && warn <= 1)) fail("warn_threshold", "a number in (0, 1]", warn);
  const hard = options.hardStopThreshold ?? 1;
  if (!(Number.isFinite(hard) && hard >= warn)) fail("hard_stop_threshold", "a number ≥ warn_threshold", hard);
  const budgets: Budget[] = [{ reason: "total", limit: maxTokens, used: (c) => c.total_tokens }];
  for (const [key, reason, value] of [
    ["max_input_tokens", "input", options.maxInputTokens],
    ["max_output_tokens", "output", options.maxOutputTokens],
  ] as const) {
    if (value === undefined || value === null) continue;
    if (!Number.isInteger(value) || value < 1) fail(key, "a positive integer or null", value);
    budgets.push({ reason, limit: value, used: (c) => (reason === "input" ? c.input_tokens : c.output_tokens) });
  }
  return { budgets, warn, hard };
}

/** The budget used the most (as a share), with its use. */
function mostUsed(budgets: readonly Budget[], counts: TokenCounts): { budget: Budget; used: number; share: number } {
  return budgets
    .map((budget) => ({ budget, used: budget.used(counts), share: budget.used(counts) / budget.limit }))
    .reduce((a, b) => (b.share > a.share ? b : a));
}

/** The state's counts when they are this run's, else a fresh start (no `beforeAgent` node needed). */
function thisRun(stored: RunBudget | undefined, messages: readonly BaseMessage[], runtime: RunConfigLike): RunBudget {
  const run_id = runKeyOf(messages, runtime);
  return stored?.run_id === run_id ? stored : { ...ZERO_TOKENS, warned: false, capped: false, run_id };
}

/**
 * Creates the token-budget middleware.
 *
 * @param options - the `token_budget:` settings
 * @returns a middleware counting the run's tokens, warning once and stopping at the limit
 * @throws AgentError `CONFIG_INVALID` naming the key when a setting is out of range
 */
export function createTokenBudgetMiddleware(options: TokenBudgetOptions = {}): AgentMiddleware {
  const { budgets, warn, hard } = checkedOptions(options);
  const logger = options.logger ?? silentLogger;
  return createMiddleware({
    name: "TokenBudgetMiddleware",
    stateSchema: TokenBudgetState,
    beforeModel: (state, runtime) => {
      const run = thisRun(state.token_budget_run, state.messages as BaseMessage[], runtime as RunConfigLike);
      if (run.warned) return undefined;
      const top = mostUsed(budgets, run);
      if (top.share < warn) return undefined;
      const warning = new HumanMessage({
        content: tokenBudgetWarningText(top.used, top.budget.limit, top.budget.reason),
        additional_kwargs: { hide_from_ui: true },
      });
      return { messages: [warning], token_budget_run: { ...run, warned: true } };
    },
    afterModel: (state, runtime) => {
      const messages = state.messages as BaseMessage[];
      const usage = usageOf(messages.at(-1));
      if (usage === undefined) return undefined;
      const previous = thisRun(state.token_budget_run, messages, runtime as RunConfigLike);
      const counts = addTokens(previous, usage);
      const run: RunBudget = { ...counts, warned: previous.warned, capped: previous.capped, run_id: previous.run_id };
      const top = mostUsed(budgets, counts);
      const last = lastAiMessage(messages);
      if (top.share < hard || last === undefined || (last.tool_calls?.length ?? 0) === 0 || run.capped)
        return { token_budget_run: run };
      logger.warn(
        { reason: top.budget.reason, used: top.used, budget: top.budget.limit },
        "token budget exceeded; ending the run",
      );
      stampStopReason(runtime, TOKEN_CAPPED, logger);
      const note = tokenBudgetExceededText(top.used, top.budget.limit, top.budget.reason);
      return {
        messages: [
          rewriteAiMessage(last, { content: appendText(last.content, note), toolCalls: [], finishReason: "stop" }),
        ],
        token_budget_run: { ...run, capped: true },
      };
    },
  });
}
