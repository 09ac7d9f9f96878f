/**
 * The graph both servers run: one node calling a deterministic fake chat model
 * that streams a reply of {@link REPLY_TOKENS} tokens (no tool calls, no
 * sleeps). Compiled without a checkpointer: each server brings its own.
 *
 * `@langchain/langgraph-api` loads `graph` (as `./graph.ts:graph`); the gateway
 * side compiles `workflow` with its `MemorySaver`.
 */
import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, AIMessageChunk, type BaseMessage } from "@langchain/core/messages";
import { ChatGenerationChunk, type ChatResult } from "@langchain/core/outputs";
import { END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";

/** The streamed reply, one token per chunk. */
export const REPLY_TOKENS: readonly string[] =
  "Hello! This is a deterministic reply from the benchmark's fake chat model, streamed to you one token at a time."
    .split(/(?<= )/)
    .slice(0, 20);

/** A chat model that streams {@link REPLY_TOKENS}, the same for every call (the lead-agent benchmark's model too). */
export class FakeStreamingChatModel extends BaseChatModel {
  override _llmType(): string {
    return "bench-fake";
  }

  override async _generate(): Promise<ChatResult> {
    const text = REPLY_TOKENS.join("");
    return { generations: [{ text, message: new AIMessage(text) }] };
  }

  override async *_streamResponseChunks(
    _messages: BaseMessage[],
    _options: this["ParsedCallOptions"],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    for (const token of REPLY_TOKENS) {
      const chunk = new ChatGenerationChunk({ text: token, message: new AIMessageChunk({ content: token }) });
      yield chunk;
      await runManager?.handleLLMNewToken(token, undefined, undefined, undefined, undefined, { chunk });
    }
  }
}

const model = new FakeStreamingChatModel({});

/** The uncompiled graph: `START → agent → END`, MessagesAnnotation state. */
export const workflow = new StateGraph(MessagesAnnotation)
  .addNode("agent", async (state) => ({ messages: [await model.invoke(state.messages)] }))
  .addEdge(START, "agent")
  .addEdge("agent", END);

/**
 * Compiled without a checkpointer (the LangGraph API server sets its own).
 * Loaded by name (`graph.ts:graph`) by server-langgraph-api.ts.
 * @public
 */
export const graph = workflow.compile();
