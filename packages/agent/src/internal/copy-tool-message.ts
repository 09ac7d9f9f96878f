/** Rewriting a tool result without losing what identifies it. */
import { ToolMessage } from "@langchain/core/messages";

/**
 * A copy of a tool result with new content or extra `additional_kwargs`,
 * keeping its id (so the messages reducer treats it as the same message),
 * call id, name, status, artifact and metadata.
 *
 * @param message - the result
 * @param changes - new `content`, and keys merged into `additional_kwargs`
 * @returns the copy
 */
export function copyToolMessage(
  message: ToolMessage,
  changes: { readonly content?: ToolMessage["content"]; readonly additionalKwargs?: Readonly<Record<string, unknown>> },
): ToolMessage {
  return new ToolMessage({
    content: changes.content ?? message.content,
    tool_call_id: message.tool_call_id,
    additional_kwargs: { ...message.additional_kwargs, ...changes.additionalKwargs },
    response_metadata: { ...message.response_metadata },
    ...(message.name === undefined ? {} : { name: message.name }),
    ...(message.id === undefined ? {} : { id: message.id }),
    ...(message.status === undefined ? {} : { status: message.status }),
    ...(message.artifact === undefined ? {} : { artifact: message.artifact }),
  });
}
