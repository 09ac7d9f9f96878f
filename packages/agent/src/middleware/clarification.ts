/**
 * Clarification — DeerFlow's `ClarificationMiddleware` (chain row 35, always
 * last; config keys: none), on LangGraph's interrupts: an `ask_clarification`
 * call stops the run with `interrupt()` carrying the question and options, so
 * the thread shows as interrupted; a
 * client resumes it with `Command({ resume: answer })` and the answer becomes
 * the tool's result. Also registers the `ask_clarification` tool.
 *
 * A response that asks for clarification *and* calls other tools keeps only the
 * question: the other calls would run before the user answers, and run again
 * when the interrupted tools step is resumed.
 */
import { ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { interrupt } from "@langchain/langgraph";
import { createMiddleware, type AgentMiddleware } from "langchain";
import { lastAiMessage, rewriteAiMessage } from "../messages.js";
import {
  ASK_CLARIFICATION_TOOL_NAME,
  createAskClarificationTool,
  type ClarificationType,
} from "../tools/ask-clarification.js";

/** The value of the interrupt a clarification raises (what clients show the user). */
export interface ClarificationRequest {
  readonly type: "clarification";
  readonly question: string;
  readonly clarification_type: ClarificationType | string;
  readonly context: string | null;
  readonly options: readonly string[];
  /** The tool call being answered. */
  readonly tool_call_id: string;
}

/**
 * The interrupt value for a call's arguments.
 *
 * @param args - the model's arguments
 * @param toolCallId - the call id
 * @returns the request shown to the user
 */
export function clarificationRequest(args: Record<string, unknown>, toolCallId: string): ClarificationRequest {
  const options = Array.isArray(args["options"])
    ? (args["options"] as unknown[]).filter((o): o is string => typeof o === "string")
    : [];
  return {
    type: "clarification",
    question: typeof args["question"] === "string" ? args["question"] : "",
    clarification_type: typeof args["clarification_type"] === "string" ? args["clarification_type"] : "missing_info",
    context: typeof args["context"] === "string" ? args["context"] : null,
    options,
    tool_call_id: toolCallId,
  };
}

/**
 * Text of a resume value: a string as is, `{ answer }` / `{ response }` / `{ text }` by field, anything else as JSON.
 *
 * @param value - what the client resumed with
 * @returns the user's answer
 */
export function clarificationAnswer(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "object" && value !== null) {
    for (const key of ["answer", "response", "text"]) {
      const v = (value as Record<string, unknown>)[key];
      if (typeof v === "string") return v;
    }
  }
  return JSON.stringify(value) ?? "";
}

/**
 * Creates the clarification middleware (with the `ask_clarification` tool).
 *
 * @returns a middleware with `tools` and `wrapToolCall`
 */
export function createClarificationMiddleware(): AgentMiddleware {
  return createMiddleware({
    name: "ClarificationMiddleware",
    tools: [createAskClarificationTool()],
    afterModel: (state) => {
      const last = lastAiMessage(state.messages as BaseMessage[]);
      const calls = last?.tool_calls ?? [];
      const ask = calls.find((c) => c.name === ASK_CLARIFICATION_TOOL_NAME);
      if (last === undefined || ask === undefined || calls.length === 1) return undefined;
      return { messages: [rewriteAiMessage(last, { content: last.content, toolCalls: [ask] })] };
    },
    wrapToolCall: async (request, handler) => {
      if (request.toolCall.name !== ASK_CLARIFICATION_TOOL_NAME) return handler(request);
      const id = request.toolCall.id ?? "";
      const answer: unknown = interrupt(clarificationRequest(request.toolCall.args, id));
      return new ToolMessage({
        content: `User's answer: ${clarificationAnswer(answer)}`,
        tool_call_id: id,
        name: ASK_CLARIFICATION_TOOL_NAME,
      });
    },
  });
}
