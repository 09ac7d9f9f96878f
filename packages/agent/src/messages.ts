/** Small helpers over agent messages. */
import { AIMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";

/** Tool-call ids that have a ToolMessage answering them. */
export function answeredToolCallIds(messages: readonly BaseMessage[]): Set<string> {
  const ids = new Set<string>();
  for (const m of messages) if (ToolMessage.isInstance(m)) ids.add(m.tool_call_id);
  return ids;
}

/** The last message when it is an AI message. */
export function lastAiMessage(messages: readonly BaseMessage[]): AIMessage | undefined {
  const last = messages.at(-1);
  return last !== undefined && AIMessage.isInstance(last) ? last : undefined;
}

/**
 * A copy of an AI message with other tool calls and text, keeping its id (so
 * LangGraph's message reducer replaces the original) and metadata.
 */
export function rewriteAiMessage(
  message: AIMessage,
  changes: { content: AIMessage["content"]; toolCalls: NonNullable<AIMessage["tool_calls"]>; finishReason?: string },
): AIMessage {
  const keptIds = new Set(changes.toolCalls.map((c) => c.id));
  const raw: unknown = message.additional_kwargs["tool_calls"];
  const additional_kwargs = { ...message.additional_kwargs };
  if (Array.isArray(raw))
    additional_kwargs["tool_calls"] = raw.filter((r: unknown) => keptIds.has((r as { id?: string } | null)?.id));
  const rewritten = new AIMessage({
    content: changes.content,
    tool_calls: changes.toolCalls,
    invalid_tool_calls: message.invalid_tool_calls ?? [],
    additional_kwargs,
    response_metadata:
      changes.finishReason === undefined
        ? { ...message.response_metadata }
        : { ...message.response_metadata, finish_reason: changes.finishReason },
    ...(message.id !== undefined ? { id: message.id } : {}),
    ...(message.name !== undefined ? { name: message.name } : {}),
  });
  if (message.usage_metadata !== undefined) Object.assign(rewritten, { usage_metadata: message.usage_metadata });
  return rewritten;
}

/** Appends a paragraph to message content (string or blocks). */
export function appendText(content: AIMessage["content"], text: string): AIMessage["content"] {
  if (typeof content === "string") return content === "" ? text : `${content}\n\n${text}`;
  return [...content, { type: "text", text }];
}
