/**
 * Summarization — DeerFlow's `SummarizationMiddleware` (chain row 18, §3.1,
 * `summarization.enabled`) with the durable-context rendering of its summary
 * (row 17), built on langchain's `summarizationMiddleware`, which decides
 * when (the triggers), where to cut (never between an AI tool call and its
 * results) and writes the summary. Around it, as DeerFlow:
 * - the previous summary (`summary_text`) counts towards the triggers and is
 *   folded into the next one (sent as `<existing_summary>`, with at most half
 *   of `trim_tokens_to_summarize`);
 * - the latest message the user wrote is always kept (by id), even before the cutoff;
 * - no summary message is inserted: the messages are replaced by the kept
 *   ones and the summary goes to the `summary_text` state channel, which every
 *   model call then shows as data (a hidden `<durable_context_data>` message and
 *   a contract in the system prompt), never as instructions;
 * - a failed summary changes nothing (tried again at a later call).
 *
 * Config keys (`summarization:`): `enabled` (false), `trigger` (a list of
 * `{ type: tokens | messages | fraction, value }`, any one fires; none = never),
 * `keep` (`{ type, value }`, default 20 messages), `trim_tokens_to_summarize`
 * (4000; null = no trimming), `model_name` (null = the run's model),
 * `summary_prompt` (null = langchain's; `{messages}` is replaced).
 *
 * Differs from DeerFlow: when the messages to summarise are over the trim
 * budget, langchain keeps their end (DeerFlow keeps their start), and they are
 * not HTML-escaped (langchain formats them); `fraction` needs a model whose profile knows its
 * window (otherwise the summary is skipped with a warning).
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { HumanMessage, RemoveMessage, SystemMessage, type BaseMessage } from "@langchain/core/messages";
import { REMOVE_ALL_MESSAGES } from "@langchain/langgraph";
import { createMiddleware, summarizationMiddleware, type AgentMiddleware, type TokenCounter } from "langchain";
import { z } from "zod/v4";
import { AgentError } from "../../errors.js";
import { lastGenuineUserIndex } from "../../internal/genuine-user-message.js";
import { messageText } from "../../internal/message-text.js";
import { silentLogger, type Logger } from "../../logger.js";
import type { RunConfigLike } from "../../run/run-options.js";
import { DURABLE_CONTEXT_CONTRACT, durableContextText, existingSummaryText } from "./texts.js";

/** A size: DeerFlow's `ContextSize` (`fraction` is a share of the model's input window). */
export interface ContextSize {
  readonly type: "tokens" | "messages" | "fraction";
  readonly value: number;
}

/** Options of {@link createSummarizationMiddleware} (the `summarization:` keys in camelCase). */
export interface SummarizationOptions {
  /** The model writing the summary for a run: `model_name`'s, or the run's own. */
  readonly model: (scope: RunConfigLike) => Promise<BaseChatModel>;
  /** `trigger`: any one of these reached starts a summary. Default none (never). */
  readonly trigger?: ContextSize | readonly ContextSize[] | null;
  /** `keep`: what stays after a summary. Default 20 messages. */
  readonly keep?: ContextSize;
  /** `trim_tokens_to_summarize`: tokens sent to the summary model; `null` = all. Default 4000. */
  readonly trimTokensToSummarize?: number | null;
  /** `summary_prompt`: template whose `{messages}` is replaced. Default langchain's. */
  readonly summaryPrompt?: string | null;
  /** Counts tokens. Default langchain's approximation (4 characters a token). */
  readonly tokenCounter?: TokenCounter;
  readonly logger?: Logger;
}

/** The state channel: the summary of the messages removed so far. */
export const SummarizationState = z.object({ summary_text: z.string().optional() });

/** What langchain's middleware answers instead of a summary (a failure here: nothing changes). */
const NOT_A_SUMMARY =
  /^(Error generating summary:|Previous conversation was too long to summarize\.|No previous conversation history\.)/;
const APPROX_CHARS_PER_TOKEN = 4;

function checkSize(key: string, size: ContextSize, allowZero: boolean): ContextSize {
  const { type, value } = size;
  const ok =
    (type === "fraction" && value > 0 && value <= 1) ||
    ((type === "tokens" || type === "messages") && Number.isInteger(value) && (allowZero ? value >= 0 : value > 0));
  if (!ok)
    throw new AgentError(
      "CONFIG_INVALID",
      `summarization.${key} must be { type: tokens | messages (integer${allowZero ? " ≥ 0" : " > 0"}) | fraction (0 < value ≤ 1), value }, got ${JSON.stringify(size)}`,
    );
  return size;
}

// langchain's ContextSize objects: one key each, so a list is OR-ed (keys inside one object are AND-ed).
const asLangchainSize = (size: ContextSize): Record<string, number> => ({ [size.type]: size.value });

/**
 * The hidden message and system-prompt contract showing a summary to the model.
 *
 * @param summary - the thread's `summary_text`
 * @returns the message to put first in a model request
 */
export function durableContextMessage(summary: string): HumanMessage {
  return new HumanMessage({ content: durableContextText(summary), additional_kwargs: { hide_from_ui: true } });
}

/**
 * Creates the summarization middleware.
 *
 * @param options - the `summarization:` settings and the summary model
 * @returns a `beforeModel` (summarize) and `wrapModelCall` (show the summary) middleware with the `summary_text` channel
 * @throws AgentError `CONFIG_INVALID` naming the key when a size is malformed
 */
export function createSummarizationMiddleware(options: SummarizationOptions): AgentMiddleware {
  const logger = options.logger ?? silentLogger;
  const triggers = (
    options.trigger === undefined || options.trigger === null
      ? []
      : Array.isArray(options.trigger)
        ? options.trigger
        : [options.trigger]
  ).map((t: ContextSize, i) => checkSize(`trigger[${i}]`, t, false));
  const keep = checkSize("keep", options.keep ?? { type: "messages", value: 20 }, true);
  const trim = options.trimTokensToSummarize === undefined ? 4000 : options.trimTokensToSummarize;
  if (trim !== null && (!Number.isInteger(trim) || trim < 1))
    throw new AgentError(
      "CONFIG_INVALID",
      `summarization.trim_tokens_to_summarize must be a positive integer or null, got ${trim}`,
    );

  const summarize = async (
    messages: BaseMessage[],
    previous: string | undefined,
    runtime: RunConfigLike,
  ): Promise<{ summary: string; kept: BaseMessage[] } | undefined> => {
    // The previous summary goes first, as a system message: langchain counts it towards the
    // triggers, never cuts it away, always summarizes it and keeps it through trimming. It
    // gets at most half of the trim budget (its end kept, the latest context).
    const priorChars = trim === null ? undefined : Math.floor(trim / 2) * APPROX_CHARS_PER_TOKEN;
    const prior =
      previous === undefined || previous === ""
        ? []
        : [new SystemMessage(existingSummaryText(priorChars === undefined ? previous : previous.slice(-priorChars)))];
    const config = {
      model: await options.model(runtime),
      trigger: triggers.map(asLangchainSize),
      keep: asLangchainSize(keep),
      trimTokensToSummarize: trim ?? Number.MAX_SAFE_INTEGER,
      ...(options.summaryPrompt === undefined || options.summaryPrompt === null
        ? {}
        : { summaryPrompt: options.summaryPrompt }),
      summaryPrefix: "",
      ...(options.tokenCounter === undefined ? {} : { tokenCounter: options.tokenCounter }),
    };
    // Its parameter type is inferred from zod v3 schemas and collapses to `never` here.
    const inner = summarizationMiddleware(config as never);
    const hook = inner.beforeModel as unknown as (
      state: { messages: BaseMessage[] },
      runtime: unknown,
    ) => Promise<{ messages: BaseMessage[] } | undefined>;
    const result = await hook({ messages: [...prior, ...messages] }, { ...runtime, context: {} });
    if (result === undefined) return undefined;
    const [, summaryMessage, ...kept] = result.messages;
    const summary = messageText(summaryMessage?.content).trim();
    if (summary === "" || NOT_A_SUMMARY.test(summary)) {
      logger.warn({ summary: summary.slice(0, 200) }, "summary failed; the conversation is kept as it is");
      return undefined;
    }
    // The user's latest words stay, whatever the cutoff.
    const latest = messages[lastGenuineUserIndex(messages)];
    if (latest !== undefined && !kept.some((m) => m.id === latest.id)) kept.unshift(latest);
    return { summary, kept };
  };

  return createMiddleware({
    name: "SummarizationMiddleware",
    stateSchema: SummarizationState,
    beforeModel: async (state, runtime) => {
      if (triggers.length === 0) return undefined;
      try {
        const done = await summarize(
          [...(state.messages as BaseMessage[])],
          state.summary_text,
          runtime as RunConfigLike,
        );
        if (done === undefined) return undefined;
        logger.info(
          { kept: done.kept.length, removed: state.messages.length - done.kept.length },
          "conversation summarized",
        );
        return { messages: [new RemoveMessage({ id: REMOVE_ALL_MESSAGES }), ...done.kept], summary_text: done.summary };
      } catch (err) {
        logger.warn({ err }, "summarization failed; the conversation is kept as it is");
        return undefined;
      }
    },
    wrapModelCall: (request, handler) => {
      const summary = request.state.summary_text;
      if (summary === undefined || summary === "") return handler(request);
      return handler({
        ...request,
        systemPrompt:
          request.systemPrompt === ""
            ? DURABLE_CONTEXT_CONTRACT
            : `${request.systemPrompt}\n\n${DURABLE_CONTEXT_CONTRACT}`,
        messages: [durableContextMessage(summary), ...request.messages],
      });
    },
  });
}
