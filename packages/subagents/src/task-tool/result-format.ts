/**
 * The `task` tool's result contract: the ToolMessage text the lead model reads
 * and the `additional_kwargs` (`subagent_*`) that UIs and journals read,
 * following DeerFlow's `format_subagent_result_message` (contract v2).
 */
import { createHash } from "node:crypto";
import type { SubagentTerminalStatus, TokenUsage } from "../types.js";

/** Longest `subagent_result_brief` / `subagent_error` value, in characters. */
export const MAX_RESULT_BRIEF_CHARS = 2000;

/** Separator between the head and the tail of a capped text. */
const ELLIPSIS = "\n...\n";

/** `usage` as it appears on the wire (events and `subagent_token_usage`). */
export interface WireTokenUsage {
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly total_tokens: number;
}

/** The `subagent_*` keys of the task tool's ToolMessage. */
export interface TaskResultKwargs {
  readonly subagent_status: SubagentTerminalStatus;
  readonly subagent_result_brief?: string;
  readonly subagent_result_sha256?: string;
  readonly subagent_error?: string;
  readonly subagent_model_name?: string;
  readonly subagent_token_usage?: WireTokenUsage;
}

/** The fields of a terminal outcome the formatter reads. */
export interface TaskOutcome {
  readonly status: SubagentTerminalStatus;
  readonly result?: string;
  readonly error?: string;
  readonly usage: TokenUsage | null;
  readonly modelName: string | null;
}

const CANCELLED_TEXT = "Task cancelled by user.";

/** Text used as `subagent_error` when a non-completed outcome carries no error. */
export function defaultErrorText(status: Exclude<SubagentTerminalStatus, "completed">): string {
  switch (status) {
    case "failed":
      return "Task failed.";
    case "cancelled":
      return CANCELLED_TEXT;
    case "timed_out":
      return "Task timed out.";
  }
}

/**
 * Trims `text` and caps it at `max` characters, keeping ⅔ of the budget from
 * the head and the rest from the tail, joined by `\n...\n`.
 *
 * @param text - any text (e.g. a subagent's full result)
 * @param max - the cap, {@link MAX_RESULT_BRIEF_CHARS} by default
 * @returns the trimmed text when it fits, else a `max`-character head/tail brief
 * @example
 * ```ts
 * briefText("x".repeat(5000)).length; // 2000
 * ```
 */
export function briefText(text: string, max: number = MAX_RESULT_BRIEF_CHARS): string {
  const trimmed = text.trim();
  if (trimmed.length <= max) return trimmed;
  const budget = Math.max(0, max - ELLIPSIS.length);
  const head = Math.floor((budget * 2) / 3);
  const tail = budget - head;
  return `${trimmed.slice(0, head)}${ELLIPSIS}${tail > 0 ? trimmed.slice(-tail) : ""}`;
}

/**
 * Lowercase hex SHA-256 of the full UTF-8 text.
 *
 * @param text - the text to hash
 * @returns 64 lowercase hex characters
 */
export function sha256Hex(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0;
}

/**
 * Converts usage to its snake_case wire form.
 *
 * @param usage - cumulative usage, or `null` when unknown
 * @returns the wire object, or `null` when unknown or not made of non-negative integers
 */
export function toWireUsage(usage: TokenUsage | null | undefined): WireTokenUsage | null {
  if (usage === null || usage === undefined) return null;
  const { inputTokens, outputTokens, totalTokens } = usage;
  if (!isCount(inputTokens) || !isCount(outputTokens) || !isCount(totalTokens)) return null;
  return { input_tokens: inputTokens, output_tokens: outputTokens, total_tokens: totalTokens };
}

/**
 * The ToolMessage text the lead model reads for a terminal outcome.
 *
 * @param outcome - the task's status with its result or error
 * @returns e.g. `Task Succeeded. Result: …`, `Task failed. Error: …`, `Task cancelled by user.`, `Task timed out.`
 */
export function formatTaskResultContent(outcome: Pick<TaskOutcome, "status" | "result" | "error">): string {
  const error = outcome.error ?? "";
  switch (outcome.status) {
    case "completed":
      return `Task Succeeded. Result: ${outcome.result ?? ""}`;
    case "failed":
      return error === "" ? "Task failed." : `Task failed. Error: ${error}`;
    case "cancelled":
      return error === "" || error === CANCELLED_TEXT ? CANCELLED_TEXT : `${CANCELLED_TEXT} Error: ${error}`;
    case "timed_out":
      return error === "" ? "Task timed out." : `Task timed out. Error: ${error}`;
  }
}

/**
 * The `subagent_*` keys for a terminal outcome: status; brief and SHA-256 of
 * the full result when completed; the capped error otherwise; model name and
 * token usage when known.
 *
 * @param outcome - the task's outcome
 * @returns the keys to put in the ToolMessage's `additional_kwargs`
 */
export function buildTaskResultKwargs(outcome: TaskOutcome): TaskResultKwargs {
  const usage = toWireUsage(outcome.usage);
  const extra = {
    ...(outcome.modelName !== null && outcome.modelName !== "" ? { subagent_model_name: outcome.modelName } : {}),
    ...(usage !== null ? { subagent_token_usage: usage } : {}),
  };
  if (outcome.status === "completed") {
    const result = outcome.result ?? "";
    return {
      subagent_status: "completed",
      subagent_result_brief: briefText(result),
      subagent_result_sha256: sha256Hex(result),
      ...extra,
    };
  }
  const error =
    outcome.error !== undefined && outcome.error.trim() !== "" ? outcome.error : defaultErrorText(outcome.status);
  return { subagent_status: outcome.status, subagent_error: briefText(error), ...extra };
}
