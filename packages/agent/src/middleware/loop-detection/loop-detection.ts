/**
 * Loop detection — DeerFlow's `LoopDetectionMiddleware` (chain row 28, §3.3).
 * Two guards over the current turn (the messages since the user last wrote):
 *
 * - the same tool-call set (order-independent hash, see `tool-call-hash.ts`)
 *   seen `warn_threshold` times among the last `window_size` tool-calling
 *   responses queues {@link LOOP_WARNING_TEXT}, shown to the model at its next
 *   call (once per hash); at `hard_limit` the response's tool calls are
 *   stripped (raw provider metadata too), {@link LOOP_FORCED_STOP_TEXT} is
 *   added and the run's `stop_reason` becomes `loop_capped`;
 * - one tool called `tool_freq_warn` times warns the same way, and
 *   `tool_freq_hard_limit` times stops (`tool_freq_overrides` per tool).
 * Several warnings due at one call are merged into one message.
 *
 * Config keys (`loop_detection:`): `enabled` (true), `warn_threshold` (3),
 * `hard_limit` (5), `window_size` (20), `tool_freq_warn` (30),
 * `tool_freq_hard_limit` (50), `tool_freq_overrides` (`{tool: {warn, hard_limit}}`).
 *
 * Where we differ from DeerFlow: the counts are derived from the thread's
 * messages on every call, not kept in a per-process table of threads, so they
 * are right after a restart or on another instance and DeerFlow's
 * `max_tracked_threads` has nothing to bound; a turn (not the whole thread)
 * is the scope, as a final answer ends the repetition DeerFlow looks for.
 */
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { createMiddleware, type AgentMiddleware } from "langchain";
import { lastGenuineUserIndex } from "../../internal/genuine-user-message.js";
import { stampStopReason } from "../../internal/run-stop.js";
import { silentLogger, type Logger } from "../../logger.js";
import { appendText, rewriteAiMessage } from "../../messages.js";
import {
  LOOP_FORCED_STOP_TEXT,
  LOOP_WARNING_TEXT,
  toolFrequencyForcedStopText,
  toolFrequencyWarningText,
} from "./texts.js";
import { toolCallSetHash } from "./tool-call-hash.js";

/** Per-tool frequency limits. */
export interface ToolFrequencyLimit {
  readonly warn: number;
  readonly hardLimit: number;
}

/** Options of {@link createLoopDetectionMiddleware} (`loop_detection:` keys, camelCase). */
export interface LoopDetectionOptions {
  /** `warn_threshold`: repeats of one tool-call set that warn (≥ 1). Default 3. */
  readonly warnThreshold?: number;
  /** `hard_limit`: repeats that stop (≥ `warnThreshold`). Default 5. */
  readonly hardLimit?: number;
  /** `window_size`: tool-calling responses looked back at. Default 20. */
  readonly windowSize?: number;
  /** `tool_freq_warn`: calls of one tool in a turn that warn. Default 30. */
  readonly toolFreqWarn?: number;
  /** `tool_freq_hard_limit`: calls of one tool in a turn that stop. Default 50. */
  readonly toolFreqHardLimit?: number;
  /** `tool_freq_overrides`: per-tool `{ warn, hardLimit }`. */
  readonly toolFreqOverrides?: Readonly<Record<string, ToolFrequencyLimit>>;
  readonly logger?: Logger;
}

/** DeerFlow's defaults. */
export const DEFAULT_LOOP_DETECTION = Object.freeze({
  warnThreshold: 3,
  hardLimit: 5,
  windowSize: 20,
  toolFreqWarn: 30,
  toolFreqHardLimit: 50,
});

type Settings = { readonly [K in keyof typeof DEFAULT_LOOP_DETECTION]: number } & {
  readonly overrides: Readonly<Record<string, ToolFrequencyLimit>>;
};

/** A verdict on the newest tool-calling response of the turn. */
interface LoopVerdict {
  /** Warnings due at the model's next call. */
  readonly warnings: readonly string[];
  /** The forced-stop text, when the response must be stopped. */
  readonly stop?: string;
}

const limitsOf = (s: Settings, tool: string): ToolFrequencyLimit =>
  s.overrides[tool] ?? { warn: s.toolFreqWarn, hardLimit: s.toolFreqHardLimit };

/**
 * Judges the newest tool-calling response of the current turn.
 *
 * @param messages - the conversation; `index` is the response to judge
 * @param index - index of an AI message with tool calls
 * @param s - thresholds
 * @returns the warnings it makes due and whether it must be stopped
 */
function judge(messages: readonly BaseMessage[], index: number, s: Settings): LoopVerdict {
  const responses = messages
    .slice(lastGenuineUserIndex(messages.slice(0, index)) + 1, index + 1)
    .filter((m): m is AIMessage => AIMessage.isInstance(m) && (m.tool_calls?.length ?? 0) > 0);
  const newest = responses.at(-1);
  if (newest === undefined) return { warnings: [] };
  const hash = toolCallSetHash(newest.tool_calls ?? []);
  const repeats = responses.slice(-s.windowSize).filter((m) => toolCallSetHash(m.tool_calls ?? []) === hash).length;
  const before = new Map<string, number>();
  for (const m of responses.slice(0, -1))
    for (const c of m.tool_calls ?? []) before.set(c.name, (before.get(c.name) ?? 0) + 1);
  const after = new Map(before);
  for (const c of newest.tool_calls ?? []) after.set(c.name, (after.get(c.name) ?? 0) + 1);

  if (repeats >= s.hardLimit) return { warnings: [], stop: LOOP_FORCED_STOP_TEXT };
  for (const [tool, count] of after)
    if (count > (before.get(tool) ?? 0) && count >= limitsOf(s, tool).hardLimit)
      return { warnings: [], stop: toolFrequencyForcedStopText(tool, count) };
  const warnings: string[] = [];
  if (repeats === s.warnThreshold) warnings.push(LOOP_WARNING_TEXT);
  for (const [tool, count] of after) {
    const { warn } = limitsOf(s, tool);
    if ((before.get(tool) ?? 0) < warn && count >= warn) warnings.push(toolFrequencyWarningText(tool, count));
  }
  return { warnings };
}

/**
 * Creates the loop-detection middleware.
 *
 * @param options - thresholds (`loop_detection:` keys) and logger
 * @returns a `wrapModelCall` middleware: warnings into the request, the hard stop on the response
 */
export function createLoopDetectionMiddleware(options: LoopDetectionOptions = {}): AgentMiddleware {
  const int = (v: number | undefined, fallback: number): number =>
    v === undefined ? fallback : Math.max(1, Math.trunc(v));
  const warnThreshold = int(options.warnThreshold, DEFAULT_LOOP_DETECTION.warnThreshold);
  const toolFreqWarn = int(options.toolFreqWarn, DEFAULT_LOOP_DETECTION.toolFreqWarn);
  const s: Settings = {
    warnThreshold,
    hardLimit: Math.max(warnThreshold, int(options.hardLimit, DEFAULT_LOOP_DETECTION.hardLimit)),
    windowSize: int(options.windowSize, DEFAULT_LOOP_DETECTION.windowSize),
    toolFreqWarn,
    toolFreqHardLimit: Math.max(toolFreqWarn, int(options.toolFreqHardLimit, DEFAULT_LOOP_DETECTION.toolFreqHardLimit)),
    overrides: options.toolFreqOverrides ?? {},
  };
  const logger = options.logger ?? silentLogger;
  return createMiddleware({
    name: "LoopDetectionMiddleware",
    // One wrapModelCall (no graph node of its own): warnings go into the request, the stop into the response.
    wrapModelCall: async (request, handler) => {
      const messages = request.messages;
      const response = await handler(withWarnings(messages));
      if (!AIMessage.isInstance(response) || (response.tool_calls?.length ?? 0) === 0) return response;
      const { stop } = judge([...messages, response], messages.length, s);
      if (stop === undefined) return response;
      logger.warn({ tools: response.tool_calls?.map((c) => c.name) }, "tool-call loop hard limit; ending the turn");
      stampStopReason(request.runtime, "loop_capped", logger);
      return rewriteAiMessage(response, {
        content: appendText(response.content, stop),
        toolCalls: [],
        finishReason: "stop",
      });

      /** The request, with the warnings due right after the tool results of the response that triggered them. */
      function withWarnings(list: BaseMessage[]): typeof request {
        let index = list.length - 1;
        while (index >= 0 && ToolMessage.isInstance(list[index])) index--;
        if (index === list.length - 1 || !AIMessage.isInstance(list[index])) return request;
        const { warnings } = judge(list, index, s);
        if (warnings.length === 0) return request;
        logger.warn({ warnings: warnings.length }, "tool-call loop warning sent to the model");
        return {
          ...request,
          messages: [
            ...list,
            new HumanMessage({ content: warnings.join("\n\n"), additional_kwargs: { hide_from_ui: true } }),
          ],
        };
      }
    },
  });
}
