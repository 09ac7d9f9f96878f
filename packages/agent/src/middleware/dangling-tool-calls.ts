/**
 * Dangling tool calls — DeerFlow's `DanglingToolCallMiddleware` (chain row 7;
 * config keys: none): an AI message whose tool calls never got results (the
 * run was stopped mid-tool, or a clarification was answered with a new message
 * instead of a resume) would make providers reject the conversation. Before each model call, a synthetic error
 * ToolMessage is inserted right after such a message, in the request only; the
 * stored history is left as it was.
 */
import { AIMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { createMiddleware, type AgentMiddleware } from "langchain";
import { answeredToolCallIds } from "../messages.js";

/** Content of the synthetic result of an interrupted tool call. */
export const INTERRUPTED_TOOL_CALL_TEXT =
  "Error: this tool call was interrupted before it returned a result (the previous run was stopped or superseded). Do not assume it succeeded; call the tool again if it is still needed.";

/**
 * Inserts a synthetic result after every AI message for each of its tool calls that has no ToolMessage.
 *
 * @param messages - the conversation
 * @returns the patched copy, or the same array when nothing dangles
 */
export function patchDanglingToolCalls(messages: readonly BaseMessage[]): BaseMessage[] {
  const answered = answeredToolCallIds(messages);
  let changed = false;
  const out: BaseMessage[] = [];
  for (const m of messages) {
    out.push(m);
    if (!AIMessage.isInstance(m)) continue;
    for (const call of m.tool_calls ?? []) {
      if (call.id === undefined || answered.has(call.id)) continue;
      changed = true;
      out.push(
        new ToolMessage({
          content: INTERRUPTED_TOOL_CALL_TEXT,
          tool_call_id: call.id,
          name: call.name,
          status: "error",
        }),
      );
    }
  }
  return changed ? out : (messages as BaseMessage[]);
}

/**
 * Creates the dangling-tool-call middleware.
 *
 * @returns a `wrapModelCall` middleware
 */
export function createDanglingToolCallMiddleware(): AgentMiddleware {
  return createMiddleware({
    name: "DanglingToolCallMiddleware",
    wrapModelCall: (request, handler) => {
      const messages = patchDanglingToolCalls(request.messages);
      return handler(messages === request.messages ? request : { ...request, messages });
    },
  });
}
