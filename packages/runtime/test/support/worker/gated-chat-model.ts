/**
 * A streaming fake chat model for worker tests. It streams its tokens as
 * `AIMessageChunk`s and, when `holdAfter` is set, stops after that many tokens
 * until its call's abort signal fires — so a test can abort a run while a model
 * call is provably in flight, without timers.
 */
import { BaseChatModel, type BaseChatModelCallOptions } from "@langchain/core/language_models/chat_models";
import { AIMessage, AIMessageChunk, type BaseMessage } from "@langchain/core/messages";
import { ChatGenerationChunk, type ChatResult } from "@langchain/core/outputs";
import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";

export interface GatedChatModelFields {
  tokens: string[];
  /** Message id of every chunk (LangChain otherwise uses `run-<uuid>`). */
  messageId?: string;
  /** Tokens streamed before the model waits for its signal to abort. */
  holdAfter?: number;
}

export class GatedChatModel extends BaseChatModel {
  readonly tokens: string[];
  readonly messageId: string | undefined;
  readonly holdAfter: number | undefined;
  /** Signals seen by calls, in call order. */
  readonly signals: (AbortSignal | undefined)[] = [];
  /** Set when a held call observed its signal abort. */
  abortObserved = false;
  private holdingResolve!: () => void;
  /** Resolves when a call starts holding. */
  readonly holding: Promise<void> = new Promise((resolve) => (this.holdingResolve = resolve));

  constructor(fields: GatedChatModelFields) {
    super({});
    this.tokens = fields.tokens;
    this.messageId = fields.messageId;
    this.holdAfter = fields.holdAfter;
  }

  _llmType(): string {
    return "gated-fake";
  }

  override async *_streamResponseChunks(
    _messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    const signal = (options as BaseChatModelCallOptions).signal;
    this.signals.push(signal);
    for (const [i, token] of this.tokens.entries()) {
      if (this.holdAfter !== undefined && i === this.holdAfter) await this.hold(signal);
      const fields = this.messageId === undefined ? { content: token } : { content: token, id: this.messageId };
      const chunk = new ChatGenerationChunk({ text: token, message: new AIMessageChunk(fields) });
      yield chunk;
      await runManager?.handleLLMNewToken(token, undefined, undefined, undefined, undefined, { chunk });
    }
  }

  async _generate(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    runManager?: CallbackManagerForLLMRun,
  ): Promise<ChatResult> {
    let text = "";
    for await (const chunk of this._streamResponseChunks(messages, options, runManager)) text += chunk.text;
    const fields = this.messageId === undefined ? { content: text } : { content: text, id: this.messageId };
    return { generations: [{ text, message: new AIMessage(fields) }] };
  }

  private hold(signal: AbortSignal | undefined): Promise<never> {
    this.holdingResolve();
    return new Promise((_, reject) => {
      const onAbort = () => {
        this.abortObserved = true;
        reject(signal?.reason ?? new Error("aborted"));
      };
      if (!signal) return; // without a signal the call can never end: the test would time out, which is the point
      if (signal.aborted) onAbort();
      else signal.addEventListener("abort", onAbort, { once: true });
    });
  }
}
