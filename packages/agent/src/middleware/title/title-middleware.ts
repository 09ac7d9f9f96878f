/**
 * Title — DeerFlow's `TitleMiddleware` (§3 row 21, §3.2): after the first
 * complete exchange (no `title` in state yet, exactly one real user message,
 * at least one AI message), the thread gets a title in the `title` state
 * channel. Without a title model the title is the local fallback (the first
 * user message, cut); with one, the model is asked with DeerFlow's prompt, its
 * answer cleaned (`<think>` blocks and quotes removed, cut to `maxChars`), and
 * any failure falls back to the local title. The model call is tagged
 * `nostream`, so it never reaches the client's `messages` stream. `onTitle`
 * lets the host copy the title elsewhere (the server: the thread's metadata).
 *
 * Deliberate differences from DeerFlow: hidden human messages
 * (`additional_kwargs.hide_from_ui`, e.g. date/memory reminders) do not count
 * as user messages, and a `<current_uploads>` block is left out of the user
 * text, so titles are about what the user wrote. Thinking is not switched off
 * for the title call here: the title model comes from the resolver as
 * configured.
 *
 * Where its hook lives: after `handler()` in a `wrapModelCall` (DeerFlow's
 * `after_model`), returning a `Command` with `title`, so titling adds no graph
 * node every model call passes through and the title is written in the same
 * step as the thread's first answer. The trigger's "no `title` in state yet"
 * becomes "no AI message before this answer" (a wrapper sees no state beyond
 * its own schema, which langchain would parse on every call); a thread given a
 * title before its first answer gets it replaced. In a chain, put it outside the
 * LLM error handling, so a first answer that failed after the retries (a
 * readable error message) still titles the thread, as DeerFlow's does.
 *
 * Config keys (`title:`): `enabled` (true), `max_words` (6, 1–20), `max_chars`
 * (60, 10–200), `model_name` (null = local fallback), `prompt_template`.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { Command, StateSchema } from "@langchain/langgraph";
import { createMiddleware, type AgentMiddleware } from "langchain";
import { AgentError } from "../../errors.js";
import { isGenuineUserMessage } from "../../internal/genuine-user-message.js";
import { messageText } from "../../internal/message-text.js";
import { silentLogger, type Logger } from "../../logger.js";
import type { RunConfigLike } from "../../run/run-options.js";
import { valueSchema } from "../../state/state-schema.js";
import { DEFAULT_TITLE_PROMPT_TEMPLATE, fallbackTitle, parseTitle, titlePrompt } from "./title-text.js";

/** Options of {@link createTitleMiddleware} (the `title:` keys). */
export interface TitleMiddlewareOptions {
  /** `title.enabled`. Default true. */
  readonly enabled?: boolean;
  /** `title.max_words`: words asked of the model (1–20). Default 6. */
  readonly maxWords?: number;
  /** `title.max_chars`: longest title (10–200). Default 60. */
  readonly maxChars?: number;
  /** `title.prompt_template`. Default DeerFlow's. */
  readonly promptTemplate?: string;
  /**
   * The title model of a run (`title.model_name` resolved), or `undefined` for the
   * local fallback. Without it every title is the local fallback.
   */
  readonly model?: (config: RunConfigLike) => Promise<BaseChatModel | undefined>;
  /**
   * Called once the thread has its title, e.g. to copy it into the thread's metadata so
   * thread search shows it; a failure is logged and never fails the run.
   */
  readonly onTitle?: (title: string, config: RunConfigLike) => Promise<void>;
  readonly logger?: Logger;
}

const isOptionalString = (v: unknown): v is string | undefined => v === undefined || typeof v === "string";

/** The `title` state field (the thread's title, once set). */
export const titleStateField = valueSchema<string | undefined>({ type: "string" }, isOptionalString);

/**
 * The `title` state channel, for `createAgent({ stateSchema })`: langchain parses a
 * middleware's own state schema with zod, which this package does not depend on, so
 * the channel is declared at agent level (the lead agent's state includes it).
 */
export const TitleState = new StateSchema({ title: titleStateField });

const UPLOADS_BLOCK = /<current_uploads>[\s\S]*?<\/current_uploads>\s*/g;

function integerIn(key: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max)
    throw new AgentError("CONFIG_INVALID", `title.${key} must be an integer from ${min} to ${max}, got ${value}`);
  return value;
}

/**
 * Whether a state gets its title now (DeerFlow's `_should_generate_title`).
 *
 * @param messages - the thread's messages
 * @param title - the state's title
 * @returns true after the first complete exchange of an untitled thread
 */
export function shouldTitle(messages: readonly BaseMessage[], title: string | undefined): boolean {
  if (title !== undefined && title !== "") return false;
  if (messages.length < 2) return false;
  return messages.filter(isGenuineUserMessage).length === 1 && messages.some((m) => AIMessage.isInstance(m));
}

/**
 * Whether a model answer completes a thread's first exchange: {@link shouldTitle}
 * of the messages with the answer, and no AI message before it. That second
 * test stands for "no `title` in state yet", which a `wrapModelCall` cannot read
 * without a state schema of its own (langchain would parse it on every model
 * call): the title is written in the same step as the thread's first answer, so
 * a thread with an earlier answer already has its title.
 *
 * @param before - the thread's messages before the answer
 * @param answer - the model's answer
 * @returns true when the answer gets the thread its title
 */
function isFirstAnswer(before: readonly BaseMessage[], answer: AIMessage): boolean {
  return !before.some((m) => AIMessage.isInstance(m)) && shouldTitle([...before, answer], undefined);
}

/**
 * Creates the title middleware.
 *
 * @param options - the `title:` settings and the title model
 * @returns a `wrapModelCall` middleware writing the `title` channel (declare it with {@link TitleState})
 * @throws AgentError `CONFIG_INVALID` naming the key when `max_words` or `max_chars` is out of range
 */
export function createTitleMiddleware(options: TitleMiddlewareOptions = {}): AgentMiddleware {
  const enabled = options.enabled ?? true;
  const maxWords = integerIn("max_words", options.maxWords ?? 6, 1, 20);
  const maxChars = integerIn("max_chars", options.maxChars ?? 60, 10, 200);
  const template = options.promptTemplate ?? DEFAULT_TITLE_PROMPT_TEMPLATE;
  const logger = options.logger ?? silentLogger;

  const modelTitle = async (
    config: RunConfigLike & { signal?: AbortSignal },
    userText: string,
    assistantText: string,
  ): Promise<string | undefined> => {
    const model = await options.model?.(config);
    if (model === undefined) return undefined;
    try {
      const prompt = titlePrompt(template, { maxWords, userText, assistantText });
      // `nostream`: LangGraph's messages stream skips this call, so the client never sees it.
      const answer = await model.invoke([new HumanMessage(prompt)], {
        tags: ["nostream"],
        ...(config.signal === undefined ? {} : { signal: config.signal }),
      });
      return parseTitle(messageText(answer.content), maxChars) || undefined;
    } catch (err) {
      logger.warn({ err }, "title model failed; using the local title");
      return undefined;
    }
  };

  return createMiddleware({
    name: "TitleMiddleware",
    wrapModelCall: async (request, handler) => {
      const response = await handler(request);
      if (!enabled || !AIMessage.isInstance(response)) return response;
      const before = request.state.messages as BaseMessage[];
      if (!isFirstAnswer(before, response)) return response;
      const messages = [...before, response];
      const user = messages.find(isGenuineUserMessage);
      const userText = messageText(user?.content).replace(UPLOADS_BLOCK, "");
      const assistantText = messageText(response.content);
      const config = request.runtime as RunConfigLike & { signal?: AbortSignal };
      const title = (await modelTitle(config, userText, assistantText)) ?? fallbackTitle(userText, maxChars);
      await options
        .onTitle?.(title, config)
        .catch((err: unknown) => logger.warn({ err }, "could not record the thread's title"));
      // The channel is declared at agent level (TitleState), which this hook's type cannot see.
      return new Command({ update: { title } });
    },
  });
}
