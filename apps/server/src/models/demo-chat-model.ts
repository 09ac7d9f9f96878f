/**
 * The offline demo model: a real LangChain chat model (a `BaseChatModel`
 * subclass, not a test double) that needs no provider and no API key, so a
 * fresh server works end to end out of the box. Its answers say that it is a
 * demo.
 *
 * It follows fixed rules (see `demo/planner.ts`), so the same conversation
 * always produces the same response, token for token:
 *
 * - a request of at most two words ending in `?` (or only `?`) → `ask_clarification`;
 * - a request whose words match a skill in the system prompt's `<available_skills>` → `read_file` of that SKILL.md;
 * - "list"/"ls" → `ls /mnt/user-data/workspace` (or the `/mnt/...` path mentioned);
 * - "run"/"execute" → `bash` with the command in backticks, else an `echo`;
 * - "write"/"save" + "report"/"file"/a file name → `write_file` under `/mnt/user-data/outputs`, then `present_files`;
 * - "delegate"/"subagent"/"in parallel" → `task` calls (one per topic for "A and B in parallel");
 * - then a closing answer summarising every tool result.
 *
 * Tools are used only when bound (`bindTools`), with arguments fitted to their
 * schemas and stable ids. Streaming yields the text word by word, then the tool
 * calls, so `messages-tuple` streams show partial tokens.
 */
import { createHash } from "node:crypto";
import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import {
  BaseChatModel,
  type BaseChatModelCallOptions,
  type BaseChatModelParams,
  type BindToolsInput,
} from "@langchain/core/language_models/chat_models";
import { AIMessage, AIMessageChunk, type BaseMessage } from "@langchain/core/messages";
import { ChatGenerationChunk, type ChatResult } from "@langchain/core/outputs";
import type { Runnable } from "@langchain/core/runnables";
import type { BaseLanguageModelInput } from "@langchain/core/language_models/base";
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import { readBoundTools } from "./demo/bound-tools.js";
import { contentText } from "./demo/message-text.js";
import { planDemoTurn, type DemoTurn } from "./demo/planner.js";

/** Name reported as the model name in response metadata and events. */
export const DEMO_MODEL_NAME = "deerflow-demo";

/** Call options of {@link DemoChatModel}: `tools` are set by `bindTools`. */
export interface DemoChatModelCallOptions extends BaseChatModelCallOptions {
  readonly tools?: readonly unknown[];
}

/** Options of {@link DemoChatModel}. */
export type DemoChatModelFields = BaseChatModelParams;

function fingerprint(messages: readonly BaseMessage[], tools: readonly string[]): string {
  const hash = createHash("sha256");
  for (const m of messages) {
    hash.update(m.getType());
    hash.update("\u0000");
    hash.update(contentText(m.content));
    const calls = (m as AIMessage).tool_calls ?? [];
    for (const c of calls) hash.update(`\u0001${c.id ?? ""}`);
    const toolCallId = (m as { tool_call_id?: unknown }).tool_call_id;
    if (typeof toolCallId === "string") hash.update(`\u0002${toolCallId}`);
    hash.update("\u0003");
  }
  hash.update(tools.join(","));
  return hash.digest("hex").slice(0, 16);
}

/** Splits text into stream tokens: each word with the whitespace that follows it. */
export function demoTokens(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

function approxTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

/**
 * The offline, deterministic demo chat model.
 *
 * @example
 * ```ts
 * const model = new DemoChatModel();
 * const agent = createAgent({ model, tools: [...createSandboxTools({ sandbox })] });
 * await agent.invoke({ messages: [new HumanMessage("list my workspace")] });
 * ```
 */
export class DemoChatModel extends BaseChatModel<DemoChatModelCallOptions, AIMessageChunk> {
  /** @param fields - standard chat model params (callbacks, tags...) */
  constructor(fields: DemoChatModelFields = {}) {
    super(fields);
  }

  static override lc_name(): string {
    return "DemoChatModel";
  }

  override _llmType(): string {
    return DEMO_MODEL_NAME;
  }

  /**
   * Binds tools the OpenAI way (as `tools` call options), so the model sees
   * their names and JSON Schemas.
   */
  override bindTools(
    tools: BindToolsInput[],
    kwargs?: Partial<DemoChatModelCallOptions>,
  ): Runnable<BaseLanguageModelInput, AIMessageChunk, DemoChatModelCallOptions> {
    return this.withConfig({
      tools: tools.map((t) => convertToOpenAITool(t)),
      ...kwargs,
    } as Partial<DemoChatModelCallOptions>);
  }

  #turn(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
  ): { turn: DemoTurn; id: string; toolCalls: { id: string; name: string; args: Record<string, unknown> }[] } {
    const tools = readBoundTools(options.tools);
    const turn = planDemoTurn(messages, tools);
    const id = `demo-${fingerprint(messages, [...tools.keys()])}`;
    const toolCalls = turn.calls.map((c, i) => ({ id: `call_${id.slice(5)}_${i}`, name: c.name, args: c.args }));
    return { turn, id, toolCalls };
  }

  #responseMetadata(turn: DemoTurn): Record<string, unknown> {
    return { model_name: DEMO_MODEL_NAME, finish_reason: turn.calls.length > 0 ? "tool_calls" : "stop" };
  }

  /** Approximate token usage (characters / 4), so usage reporting has numbers to show. */
  #withUsage<T extends AIMessage | AIMessageChunk>(message: T, turn: DemoTurn, messages: BaseMessage[]): T {
    const input = approxTokens(messages.map((m) => contentText(m.content)).join("\n"));
    const output = approxTokens(turn.text + JSON.stringify(turn.calls));
    // Assigned after construction: this @langchain/core version types usage_metadata of the default structure as `never`.
    Object.assign(message, {
      usage_metadata: { input_tokens: input, output_tokens: output, total_tokens: input + output },
    });
    return message;
  }

  /** One whole response (used when nothing streams). */
  override async _generate(messages: BaseMessage[], options: this["ParsedCallOptions"]): Promise<ChatResult> {
    const { turn, id, toolCalls } = this.#turn(messages, options);
    const message = this.#withUsage(
      new AIMessage({
        id,
        content: turn.text,
        tool_calls: toolCalls.map((c) => ({ ...c, type: "tool_call" as const })),
        response_metadata: this.#responseMetadata(turn),
      }),
      turn,
      messages,
    );
    return { generations: [{ text: turn.text, message }] };
  }

  /** Streams the response word by word, then the tool calls, then usage. */
  override async *_streamResponseChunks(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    const { turn, id, toolCalls } = this.#turn(messages, options);
    for (const token of demoTokens(turn.text)) {
      options.signal?.throwIfAborted();
      const chunk = new ChatGenerationChunk({ text: token, message: new AIMessageChunk({ id, content: token }) });
      yield chunk;
      await runManager?.handleLLMNewToken(token, undefined, undefined, undefined, undefined, { chunk });
    }
    if (toolCalls.length > 0) {
      const message = new AIMessageChunk({
        id,
        content: "",
        tool_call_chunks: toolCalls.map((c, index) => ({
          id: c.id,
          name: c.name,
          args: JSON.stringify(c.args),
          index,
          type: "tool_call_chunk" as const,
        })),
      });
      const chunk = new ChatGenerationChunk({ text: "", message });
      yield chunk;
      await runManager?.handleLLMNewToken("", undefined, undefined, undefined, undefined, { chunk });
    }
    const closing = this.#withUsage(
      new AIMessageChunk({ id, content: "", response_metadata: this.#responseMetadata(turn) }),
      turn,
      messages,
    );
    yield new ChatGenerationChunk({ text: "", message: closing });
  }
}
