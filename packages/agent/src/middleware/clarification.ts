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
import { AIMessage, ToolMessage } from "@langchain/core/messages";
import { interrupt } from "@langchain/langgraph";
import { createMiddleware, type AgentMiddleware } from "langchain";
import { rewriteAiMessage } from "../messages.js";
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
 * The response with only its `ask_clarification` call, when it asks and calls other tools too.
 *
 * @param response - the model's answer
 * @returns the answer to keep (the same object when nothing changes)
 */
function onlyTheQuestion<T>(response: T): T {
  if (!AIMessage.isInstance(response)) return response;
  const calls = response.tool_calls ?? [];
  const ask = calls.find((c) => c.name === ASK_CLARIFICATION_TOOL_NAME);
  if (ask === undefined || calls.length === 1) return response;
  return rewriteAiMessage(response, { content: response.content, toolCalls: [ask] }) as T;
}

/**
 * Creates the clarification middleware (with the `ask_clarification` tool).
 *
 * Its response check is the after-work of a `wrapModelCall` (not an `afterModel`
 * hook, which would be a graph node every model call passes through). Placed last
 * in a chain, as DeerFlow's invariant wants, it is the innermost wrapper, so it
 * sees the model's answer before any other middleware's after-work: DeerFlow's
 * "after hooks run in reverse, clarification first".
 *
 * @returns a middleware with `tools`, `wrapModelCall` and `wrapToolCall`
 */
export function createClarificationMiddleware(): AgentMiddleware {
  return createMiddleware({
    name: "ClarificationMiddleware",
    tools: [createAskClarificationTool()],
    wrapModelCall: async (request, handler) => onlyTheQuestion(await handler(request)),
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
