/**
 * The pure part of the subagent limit: which `task` calls of one model
 * response survive the per-response and per-run caps (DeerFlow's
 * `SubagentLimitMiddleware`), and how the response is rewritten.
 */
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";

/** Default `task` calls allowed per model response. */
export const DEFAULT_MAX_TASK_CALLS_PER_RESPONSE = 3;
/** Default `task` calls allowed per run. */
export const DEFAULT_MAX_TASK_CALLS_PER_RUN = 6;

/** Text appended to the response when the run's delegation budget is used up (DeerFlow's exact text). */
export const SUBAGENT_LIMIT_REACHED_TEXT =
  "[SUBAGENT LIMIT REACHED] The subagent delegation limit for this run has been reached. Continue using the subagent results already collected, execute remaining simple work directly, or summarize the remaining work instead of launching more subagents.";

/** Caps of the limit; numbers outside the ranges are clamped. */
export interface SubagentLimits {
  /** Per response, clamped to [1, 4]; default 3. */
  readonly maxConcurrent?: number;
  /** Per run, clamped to [1, 50]; default 6. */
  readonly maxTotal?: number;
}

function clamp(value: number | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined || !Number.isFinite(value)) return fallback;
  return Math.min(max, Math.max(min, Math.trunc(value)));
}

/**
 * Clamps the caps to DeerFlow's ranges (the prompt shows the same numbers).
 *
 * @param limits - requested caps (either may be missing or out of range)
 * @returns `maxConcurrent` in [1, 4] (default 3) and `maxTotal` in [1, 50] (default 6)
 */
export function resolveSubagentLimits(limits: SubagentLimits = {}): { maxConcurrent: number; maxTotal: number } {
  return {
    maxConcurrent: clamp(limits.maxConcurrent, DEFAULT_MAX_TASK_CALLS_PER_RESPONSE, 1, 4),
    maxTotal: clamp(limits.maxTotal, DEFAULT_MAX_TASK_CALLS_PER_RUN, 1, 50),
  };
}

/**
 * Counts `task` calls already made in the current run: those of AI messages
 * after the last human message, excluding `exclude` (the response being checked).
 *
 * @param messages - the conversation so far
 * @param exclude - the message under review, not counted
 * @param toolName - the delegation tool's name
 * @returns the number of prior `task` calls
 */
export function countPriorTaskCalls(
  messages: readonly BaseMessage[],
  exclude?: BaseMessage,
  toolName = "task",
): number {
  let start = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (HumanMessage.isInstance(messages[i])) {
      start = i + 1;
      break;
    }
  }
  let count = 0;
  for (const m of messages.slice(start)) {
    if (m === exclude || !AIMessage.isInstance(m)) continue;
    count += (m.tool_calls ?? []).filter((c) => c.name === toolName).length;
  }
  return count;
}

/** What {@link applySubagentLimit} decided. */
export interface SubagentLimitOutcome {
  /** The rewritten response, or `undefined` when nothing changed. */
  readonly message: AIMessage | undefined;
  /** Ids (or positions, as `#i`) of dropped `task` calls. */
  readonly dropped: readonly string[];
  /** True when the run's total was already used up. */
  readonly exhausted: boolean;
}

function appendText(content: AIMessage["content"], text: string): AIMessage["content"] {
  if (typeof content === "string") return content === "" ? text : `${content}\n\n${text}`;
  return [...content, { type: "text", text }];
}

/**
 * Keeps the first allowed `task` calls of a response, allowed =
 * min(maxConcurrent, maxTotal − prior); drops the rest; keeps every other
 * call. When nothing remains of the run's total, appends
 * {@link SUBAGENT_LIMIT_REACHED_TEXT}; when no call is left, sets
 * `finish_reason` to `stop`. The raw `additional_kwargs.tool_calls` list is
 * filtered the same way.
 *
 * @param message - the model's response
 * @param priorTaskCalls - `task` calls already made in this run
 * @param limits - caps (clamped)
 * @param toolName - the delegation tool's name
 * @returns the rewritten message (same id) or `undefined` when within limits
 */
export function applySubagentLimit(
  message: AIMessage,
  priorTaskCalls: number,
  limits: SubagentLimits = {},
  toolName = "task",
): SubagentLimitOutcome {
  const { maxConcurrent, maxTotal } = resolveSubagentLimits(limits);
  const calls = message.tool_calls ?? [];
  const taskCount = calls.filter((c) => c.name === toolName).length;
  const remaining = Math.max(0, maxTotal - Math.max(0, priorTaskCalls));
  const allowed = Math.min(maxConcurrent, remaining);
  if (taskCount <= allowed) return { message: undefined, dropped: [], exhausted: false };

  let seen = 0;
  const kept: typeof calls = [];
  const dropped: string[] = [];
  calls.forEach((c, i) => {
    if (c.name !== toolName || seen++ < allowed) kept.push(c);
    else dropped.push(c.id ?? `#${i}`);
  });
  const droppedIds = new Set(dropped);
  const exhausted = remaining === 0;

  const rawCalls: unknown = message.additional_kwargs["tool_calls"];
  const additional_kwargs = { ...message.additional_kwargs };
  if (Array.isArray(rawCalls)) {
    additional_kwargs["tool_calls"] = rawCalls.filter((r: unknown) => {
      const id = (r as { id?: unknown } | null)?.id;
      return typeof id !== "string" || !droppedIds.has(id);
    });
  }
  const response_metadata =
    kept.length === 0 ? { ...message.response_metadata, finish_reason: "stop" } : { ...message.response_metadata };
  const rewritten = new AIMessage({
    content: exhausted ? appendText(message.content, SUBAGENT_LIMIT_REACHED_TEXT) : message.content,
    tool_calls: kept,
    invalid_tool_calls: message.invalid_tool_calls ?? [],
    additional_kwargs,
    response_metadata,
    ...(message.id !== undefined ? { id: message.id } : {}),
    ...(message.name !== undefined ? { name: message.name } : {}),
    ...(message.usage_metadata !== undefined ? { usage_metadata: message.usage_metadata } : {}),
  });
  return { message: rewritten, dropped, exhausted };
}
