/**
 * Resolves the context sections of `config.yaml` (DeerFlow's keys, §3.1,
 * §3.4, chain rows 2 and 20): `summarization:`, `tool_output:`,
 * `token_usage:` and `token_budget:`, into the lead agent's middleware
 * options. The schema checks shapes and simple ranges; the rules that join
 * keys (a fraction is at most 1, `hard_stop_threshold` ≥ `warn_threshold`,
 * `model_name` is a configured model) are checked here, naming the key path.
 * A `null` key is unset in our config files, so `trim_tokens_to_summarize: 0`
 * stands for DeerFlow's `null` (no trimming).
 */
import type { ContextSize, LeadMiddlewareOptions } from "@deerflow/agent";
import type { ContextMiddlewareSettings } from "./types.js";

type Doc = Record<string, unknown>;
type Problem = (path: string, message: string) => void;

function contextSize(raw: Doc, path: string, problem: Problem, allowZero: boolean): ContextSize | undefined {
  const type = raw["type"] as ContextSize["type"];
  const value = raw["value"] as number;
  if (type === "fraction" && !(value > 0 && value <= 1))
    problem(`${path}.value`, `must be > 0 and ≤ 1 for type fraction, got ${value}`);
  else if (type !== "fraction" && !(Number.isInteger(value) && (allowZero ? value >= 0 : value > 0)))
    problem(`${path}.value`, `must be an integer ${allowZero ? "≥ 0" : "> 0"} for type ${type}, got ${value}`);
  else return { type, value };
  return undefined;
}

function summarization(
  raw: Doc,
  models: readonly string[],
  problem: Problem,
): NonNullable<LeadMiddlewareOptions["summarization"]> {
  const triggerRaw = raw["trigger"];
  const triggers =
    triggerRaw === undefined || triggerRaw === null
      ? []
      : Array.isArray(triggerRaw)
        ? (triggerRaw as Doc[])
        : [triggerRaw as Doc];
  const trigger = triggers.flatMap(
    (t, i) =>
      contextSize(
        t,
        Array.isArray(triggerRaw) ? `summarization.trigger[${i}]` : "summarization.trigger",
        problem,
        false,
      ) ?? [],
  );
  const keep =
    raw["keep"] === undefined ? undefined : contextSize(raw["keep"] as Doc, "summarization.keep", problem, true);
  const modelName = raw["model_name"] as string | null | undefined;
  if (typeof modelName === "string" && !models.includes(modelName))
    problem(
      "summarization.model_name",
      `must be one of the configured models (${models.join(", ")}), got "${modelName}"`,
    );
  // A null key is unset in our config files (the default, 4000), so 0 stands for DeerFlow's null: no trimming.
  const trimRaw = raw["trim_tokens_to_summarize"] as number | undefined;
  const trim = trimRaw === 0 ? null : trimRaw;
  const prompt = raw["summary_prompt"] as string | null | undefined;
  return {
    enabled: (raw["enabled"] as boolean | undefined) ?? false,
    trigger,
    ...(keep === undefined ? {} : { keep }),
    ...(trim === undefined ? {} : { trimTokensToSummarize: trim }),
    ...(typeof prompt === "string" ? { summaryPrompt: prompt } : {}),
    ...(typeof modelName === "string" ? { modelName } : {}),
  };
}

function tokenBudget(raw: Doc, problem: Problem): NonNullable<LeadMiddlewareOptions["tokenBudget"]> {
  const warn = (raw["warn_threshold"] as number | undefined) ?? 0.8;
  const hard = (raw["hard_stop_threshold"] as number | undefined) ?? 1;
  if (hard < warn)
    problem("token_budget.hard_stop_threshold", `must be ≥ token_budget.warn_threshold (${warn}), got ${hard}`);
  const maxInput = raw["max_input_tokens"] as number | null | undefined;
  const maxOutput = raw["max_output_tokens"] as number | null | undefined;
  return {
    enabled: (raw["enabled"] as boolean | undefined) ?? false,
    maxTokens: (raw["max_tokens"] as number | undefined) ?? 200_000,
    warnThreshold: warn,
    hardStopThreshold: hard,
    ...(maxInput === undefined || maxInput === null ? {} : { maxInputTokens: maxInput }),
    ...(maxOutput === undefined || maxOutput === null ? {} : { maxOutputTokens: maxOutput }),
  };
}

/**
 * Resolves `summarization:`, `tool_output:`, `token_usage:` and `token_budget:`.
 *
 * @param doc - the validated document
 * @param models - the configured model names (for `summarization.model_name`)
 * @param problem - records a problem at a key path
 * @returns the options with DeerFlow's defaults (summarization and token budget off, the others on)
 */
export function resolveContext(
  doc: Doc,
  models: readonly string[],
  problem: Problem,
): { contextMiddleware: ContextMiddlewareSettings } {
  const out = (key: string): Doc => (doc[key] as Doc | undefined) ?? {};
  const tool = out("tool_output");
  return {
    contextMiddleware: {
      summarization: summarization(out("summarization"), models, problem),
      toolOutput: {
        enabled: (tool["enabled"] as boolean | undefined) ?? true,
        ...(tool["externalize_min_chars"] === undefined
          ? {}
          : { externalizeMinChars: tool["externalize_min_chars"] as number }),
        ...(tool["fallback_max_chars"] === undefined ? {} : { fallbackMaxChars: tool["fallback_max_chars"] as number }),
        ...(tool["exempt_tools"] === undefined ? {} : { exemptTools: tool["exempt_tools"] as string[] }),
        ...(tool["tool_overrides"] === undefined
          ? {}
          : { toolOverrides: tool["tool_overrides"] as Record<string, number> }),
      },
      tokenUsage: { enabled: (out("token_usage")["enabled"] as boolean | undefined) ?? true },
      tokenBudget: tokenBudget(out("token_budget"), problem),
    },
  };
}
