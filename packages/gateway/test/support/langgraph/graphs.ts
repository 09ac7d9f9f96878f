/**
 * The graphs the LangGraph API tests run: a chat agent with a token-streaming
 * scripted model, a tool node, custom events and an approval interrupt; and a
 * slow worker that can hold until the test releases it (or it is cancelled).
 */
import { randomUUID } from "node:crypto";
import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, AIMessageChunk, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { ChatGenerationChunk, type ChatResult } from "@langchain/core/outputs";
import { END, MessagesAnnotation, START, StateGraph, interrupt } from "@langchain/langgraph";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";

/** The error the agent raises for a message containing "fail". */
class CustomError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CustomError";
  }
}

function textOf(message: BaseMessage | undefined): string {
  if (message === undefined) return "";
  return typeof message.content === "string" ? message.content : JSON.stringify(message.content);
}

function lastHuman(messages: readonly BaseMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i -= 1) if (messages[i]?.getType() === "human") return textOf(messages[i]);
  return "";
}

interface Reply {
  text: string;
  toolCalls?: Array<{ id: string; name: string; args: Record<string, unknown> }>;
}

/**
 * A chat model whose answer depends only on the conversation: a tool result is
 * summarised; "weather" asks for the `get_weather` tool; "fail" raises
 * {@link CustomError}; anything else is echoed. Text is streamed word by word,
 * every chunk of one answer carrying the same message id.
 */
class ScriptedChatModel extends BaseChatModel {
  _llmType(): string {
    return "scripted";
  }

  private reply(messages: readonly BaseMessage[]): Reply {
    const last = messages.at(-1);
    if (last?.getType() === "tool") return { text: `The weather is ${textOf(last)}.` };
    const text = lastHuman(messages);
    if (text.includes("fail")) throw new CustomError("Boom");
    if (text.includes("weather"))
      return {
        text: "",
        toolCalls: [{ id: `call_${randomUUID().slice(0, 8)}`, name: "get_weather", args: { city: "Paris" } }],
      };
    return { text: `You said: ${text}` };
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const { text, toolCalls } = this.reply(messages);
    const message = new AIMessage({ content: text, id: randomUUID(), tool_calls: toolCalls ?? [] });
    return { generations: [{ text, message }] };
  }

  override async *_streamResponseChunks(
    messages: BaseMessage[],
    _options: this["ParsedCallOptions"],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    const { text, toolCalls } = this.reply(messages);
    const id = randomUUID();
    for (const token of text.split(/(?<= )/)) {
      if (token === "") continue;
      const chunk = new ChatGenerationChunk({ text: token, message: new AIMessageChunk({ content: token, id }) });
      yield chunk;
      await runManager?.handleLLMNewToken(token, undefined, undefined, undefined, undefined, { chunk });
    }
    if (toolCalls !== undefined) {
      const chunk = new ChatGenerationChunk({
        text: "",
        message: new AIMessageChunk({
          content: "",
          id,
          tool_call_chunks: toolCalls.map((call, index) => ({
            id: call.id,
            name: call.name,
            args: JSON.stringify(call.args),
            index,
            type: "tool_call_chunk" as const,
          })),
        }),
      });
      yield chunk;
      await runManager?.handleLLMNewToken("", undefined, undefined, undefined, undefined, { chunk });
    }
  }
}

/**
 * The chat agent: notify (custom event) → model → tools → model, or → review
 * (an `interrupt()` asking for approval when the human said "approve").
 */
export function buildAgentGraph(checkpointer?: BaseCheckpointSaver) {
  const model = new ScriptedChatModel({});
  return new StateGraph(MessagesAnnotation)
    .addNode("notify", async (state, config) => {
      config.writer?.({ progress: "thinking", messages: state.messages.length });
      return {};
    })
    .addNode("model", async (state, config) => ({ messages: [await model.invoke(state.messages, config)] }))
    .addNode("tools", async (state) => {
      const last = state.messages.at(-1) as AIMessage;
      return {
        messages: (last.tool_calls ?? []).map(
          (call) =>
            new ToolMessage({
              id: randomUUID(),
              content: `sunny in ${String(call.args["city"])}`,
              tool_call_id: call.id ?? "",
              name: call.name,
            }),
        ),
      };
    })
    .addNode("review", async () => {
      const answer: unknown = interrupt({ question: "Approve?" });
      return { messages: [new AIMessage({ id: randomUUID(), content: `approved: ${String(answer)}` })] };
    })
    .addEdge(START, "notify")
    .addEdge("notify", "model")
    .addConditionalEdges(
      "model",
      (state) => {
        const last = state.messages.at(-1) as AIMessage;
        if ((last.tool_calls ?? []).length > 0) return "tools";
        return lastHuman(state.messages).includes("approve") ? "review" : END;
      },
      ["tools", "review", END],
    )
    .addEdge("tools", "model")
    .addEdge("review", END)
    .compile(checkpointer === undefined ? {} : { checkpointer });
}

/** Permits per key: `wait` takes one or waits for `release`, and rejects when its signal aborts. */
export class Gates {
  readonly #permits = new Map<string, number>();
  readonly #waiting = new Map<string, Array<() => void>>();

  release(key: string): void {
    const waiter = this.#waiting.get(key)?.shift();
    if (waiter !== undefined) waiter();
    else this.#permits.set(key, (this.#permits.get(key) ?? 0) + 1);
  }

  /** How many are waiting on `key`. */
  waiting(key: string): number {
    return this.#waiting.get(key)?.length ?? 0;
  }

  wait(key: string, signal: AbortSignal | undefined): Promise<void> {
    const permits = this.#permits.get(key) ?? 0;
    if (permits > 0) {
      this.#permits.set(key, permits - 1);
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const list = this.#waiting.get(key) ?? [];
      const waiter = () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      };
      const onAbort = () => {
        const i = list.indexOf(waiter);
        if (i !== -1) list.splice(i, 1);
        reject(signal?.reason instanceof Error ? signal.reason : new Error("aborted"));
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener("abort", onAbort, { once: true });
      list.push(waiter);
      this.#waiting.set(key, list);
    });
  }
}

/**
 * The slow worker: prepare (a message, a custom event) → work, which holds on
 * `gates` (keyed by thread id) when the human said "hold", until released or
 * cancelled through the run's signal.
 */
export function buildSlowGraph(gates: Gates, checkpointer?: BaseCheckpointSaver) {
  return new StateGraph(MessagesAnnotation)
    .addNode("prepare", async (state, config) => {
      config.writer?.({ phase: "prepare" });
      return { messages: [new AIMessage({ id: randomUUID(), content: `working on: ${lastHuman(state.messages)}` })] };
    })
    .addNode("work", async (state, config) => {
      const text = lastHuman(state.messages);
      if (text.includes("hold")) {
        config.writer?.({ phase: "holding" });
        await gates.wait(String(config.configurable?.["thread_id"]), config.signal);
      }
      return { messages: [new AIMessage({ id: randomUUID(), content: `finished: ${text}` })] };
    })
    .addEdge(START, "prepare")
    .addEdge("prepare", "work")
    .addEdge("work", END)
    .compile(checkpointer === undefined ? {} : { checkpointer });
}
