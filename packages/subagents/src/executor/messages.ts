/** Step capture and usage accounting of a subagent's message stream. */
import { AIMessage, ToolMessage, type BaseMessage, type UsageMetadata } from "@langchain/core/messages";
import type { TokenUsage } from "../types.js";

/**
 * Remembers which AI/tool messages were already reported. Dedupe is by id,
 * or by object identity when a message has none.
 */
export class StepCollector {
  readonly #seenIds = new Set<string>();
  readonly #seenObjects = new WeakSet<BaseMessage>();
  readonly messages: BaseMessage[] = [];
  #usage: TokenUsage | null = null;

  /** Cumulative usage of the AI messages captured so far (`null` when none reported any). */
  get usage(): TokenUsage | null {
    return this.#usage;
  }

  /**
   * Walks a full `values` snapshot and returns the AI/tool messages not seen before, in order.
   * Human and system messages are never captured.
   */
  capture(snapshot: readonly BaseMessage[]): BaseMessage[] {
    const fresh: BaseMessage[] = [];
    for (const message of snapshot) {
      if (!AIMessage.isInstance(message) && !ToolMessage.isInstance(message)) continue;
      if (message.id !== undefined && message.id !== "") {
        if (this.#seenIds.has(message.id)) continue;
        this.#seenIds.add(message.id);
      } else {
        if (this.#seenObjects.has(message)) continue;
        this.#seenObjects.add(message);
      }
      if (AIMessage.isInstance(message)) this.#addUsage(message);
      this.messages.push(message);
      fresh.push(message);
    }
    return fresh;
  }

  /** Text of the last AI message, or `undefined` when there is none or it is empty. */
  lastAiText(): string | undefined {
    for (let i = this.messages.length - 1; i >= 0; i -= 1) {
      const message = this.messages[i];
      if (message !== undefined && AIMessage.isInstance(message)) {
        const text = message.text.trim();
        return text === "" ? undefined : message.text;
      }
    }
    return undefined;
  }

  /**
   * Whether the last AI message is a model-failure answer: `response_metadata.finish_reason`
   * `"error"` (what `@deerflow/agent`'s LLM error handling answers with once retries are spent)
   * or DeerFlow's `additional_kwargs.deerflow_error_fallback`.
   */
  lastAiIsErrorFallback(): boolean {
    for (let i = this.messages.length - 1; i >= 0; i -= 1) {
      const message = this.messages[i];
      if (message !== undefined && AIMessage.isInstance(message)) {
        return (
          message.response_metadata?.["finish_reason"] === "error" ||
          message.additional_kwargs?.["deerflow_error_fallback"] === true
        );
      }
    }
    return false;
  }

  /** Text of the last captured message of any kind, or `undefined`. */
  lastText(): string | undefined {
    const last = this.messages.at(-1);
    const text = last?.text;
    return text === undefined || text.trim() === "" ? undefined : text;
  }

  #addUsage(message: BaseMessage): void {
    const u = (message as { usage_metadata?: UsageMetadata }).usage_metadata;
    if (u === undefined) return;
    const prev = this.#usage ?? { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
    this.#usage = {
      inputTokens: prev.inputTokens + (u.input_tokens ?? 0),
      outputTokens: prev.outputTokens + (u.output_tokens ?? 0),
      totalTokens: prev.totalTokens + (u.total_tokens ?? 0),
    };
  }
}
