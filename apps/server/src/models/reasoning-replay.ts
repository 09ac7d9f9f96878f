/**
 * Reasoning replay for OpenAI-compatible providers that want it back
 * (DeepSeek-style `reasoning_content`, DeerFlow §5.3: "it is replayed to the
 * provider on later turns"). `@langchain/openai` keeps a streamed or returned
 * `reasoning_content` in the AI message's `additional_kwargs.reasoning_content`
 * but drops it when it converts messages into a Chat Completions request, so
 * a thinking model on such a provider loses its own earlier reasoning (and
 * DeepSeek's thinking mode with tools rejects a tool-call turn without it).
 *
 * {@link ReasoningReplayCompletions} is `ChatOpenAI`'s Chat Completions half
 * with one change: each assistant message of the request gets the
 * `reasoning_content` of the AI message it was converted from. The reasoning
 * travels from the message list to the request under a private call option
 * (calls on one model run concurrently, so no instance state). Opt-in per
 * model (`replay_reasoning: true`): providers that reject unknown message
 * fields (OpenAI itself) must not get it. DeerFlow keys the same behaviour on
 * its patched DeepSeek provider class instead of a config key.
 */
import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import { ChatOpenAICompletions, convertMessagesToCompletionsMessageParams, type OpenAIClient } from "@langchain/openai";

/** Where the reasoning per request message travels with the call options. */
const REPLAY = Symbol("deerflow.reasoningReplay");

type Options = ChatOpenAICompletions["ParsedCallOptions"];
type WithReplay = Options & { [REPLAY]?: readonly (string | undefined)[] };

/** Text reasoning of an AI message (`additional_kwargs.reasoning_content`), if any. */
function reasoningOf(message: BaseMessage): string | undefined {
  if (!AIMessage.isInstance(message)) return undefined;
  const value = message.additional_kwargs?.["reasoning_content"];
  return typeof value === "string" && value !== "" ? value : undefined;
}

/**
 * The reasoning for each message of the converted request, aligned with it:
 * a message may convert to more than one request message (audio replies do).
 * `undefined` when no message carries reasoning (nothing to replay).
 */
function reasoningPerRequestMessage(
  messages: readonly BaseMessage[],
  model: string,
): (string | undefined)[] | undefined {
  if (!messages.some((m) => reasoningOf(m) !== undefined)) return undefined;
  const aligned: (string | undefined)[] = [];
  for (const message of messages) {
    const count = convertMessagesToCompletionsMessageParams({ messages: [message], model }).length;
    aligned.push(reasoningOf(message));
    for (let i = 1; i < count; i++) aligned.push(undefined);
  }
  return aligned;
}

/** `ChatOpenAI`'s Chat Completions client that replays `reasoning_content` on assistant messages. */
export class ReasoningReplayCompletions extends ChatOpenAICompletions {
  #withReplay(messages: BaseMessage[], options: Options): Options {
    const replay = reasoningPerRequestMessage(messages, this.model);
    if (replay === undefined) return options;
    // The streaming paths hand these options to completionWithRetry; the plain one hands it `options.options`.
    const nested = { ...(options as { options?: object }).options, [REPLAY]: replay };
    return { ...options, [REPLAY]: replay, options: nested } as WithReplay;
  }

  override _generate(messages: BaseMessage[], options: Options, runManager?: CallbackManagerForLLMRun) {
    return super._generate(messages, this.#withReplay(messages, options), runManager);
  }

  override _streamResponseChunks(messages: BaseMessage[], options: Options, runManager?: CallbackManagerForLLMRun) {
    return super._streamResponseChunks(messages, this.#withReplay(messages, options), runManager);
  }

  override _streamChatModelEvents(messages: BaseMessage[], options: Options, runManager?: CallbackManagerForLLMRun) {
    return super._streamChatModelEvents(messages, this.#withReplay(messages, options), runManager);
  }

  override completionWithRetry(
    request: OpenAIClient.Chat.ChatCompletionCreateParamsStreaming,
    requestOptions?: OpenAIClient.RequestOptions,
  ): Promise<AsyncIterable<OpenAIClient.Chat.Completions.ChatCompletionChunk>>;
  override completionWithRetry(
    request: OpenAIClient.Chat.ChatCompletionCreateParamsNonStreaming,
    requestOptions?: OpenAIClient.RequestOptions,
  ): Promise<OpenAIClient.Chat.Completions.ChatCompletion>;
  override completionWithRetry(
    request: OpenAIClient.Chat.ChatCompletionCreateParams,
    requestOptions?: OpenAIClient.RequestOptions,
  ): Promise<unknown> {
    const { [REPLAY]: replay, ...rest } = (requestOptions ?? {}) as WithReplay;
    const messages = request.messages;
    const shaped =
      replay === undefined || messages.length !== replay.length
        ? request
        : {
            ...request,
            messages: messages.map((m, i) => {
              const reasoning = replay[i];
              return reasoning === undefined || m.role !== "assistant" ? m : { ...m, reasoning_content: reasoning };
            }),
          };
    const base = ChatOpenAICompletions.prototype.completionWithRetry as (r: unknown, o: unknown) => Promise<unknown>;
    return base.call(this, shaped, requestOptions === undefined ? undefined : rest);
  }
}
