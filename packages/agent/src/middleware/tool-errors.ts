/**
 * Tool-error middleware — DeerFlow's `ToolErrorHandlingMiddleware` (chain row 13;
 * outermost tool wrapper here): a tool that throws, or a call with invalid
 * arguments, becomes an error `ToolMessage` the model can read and recover
 * from, instead of failing the run. The text names the tool and the error,
 * never a stack trace. Interrupts and aborts pass through untouched.
 *
 * Config keys: none (options: `logger`).
 */
import { ToolMessage } from "@langchain/core/messages";
import { isGraphBubbleUp } from "@langchain/langgraph";
import { createMiddleware, MiddlewareError, ToolInvocationError, type AgentMiddleware } from "langchain";
import { silentLogger, type Logger } from "../logger.js";

/** Longest error detail handed to the model (DeerFlow's cap). */
export const MAX_TOOL_ERROR_DETAIL = 500;

/** Options of {@link createToolErrorMiddleware}. */
export interface ToolErrorMiddlewareOptions {
  readonly logger?: Logger;
}

function rootCause(error: unknown): unknown {
  let e = error;
  for (let i = 0; i < 10 && MiddlewareError.isInstance(e); i++) e = (e as Error).cause;
  return e;
}

/** First lines of a message, without stack frames, capped. */
function errorDetail(error: unknown): string {
  const raw = error instanceof Error ? error.message : String(error);
  const withoutStack = raw
    .split("\n")
    .filter((line) => !/^\s+at\s/.test(line))
    .join("\n")
    .trim();
  return withoutStack.length > MAX_TOOL_ERROR_DETAIL
    ? `${withoutStack.slice(0, MAX_TOOL_ERROR_DETAIL - 1)}…`
    : withoutStack;
}

/**
 * The text the model reads for a failed tool call.
 *
 * @param toolName - the tool
 * @param error - what it threw
 * @returns `Error: Invalid arguments for tool 'x': …` or `Error: Tool 'x' failed with Type: …. Continue …`
 */
export function toolErrorText(toolName: string, error: unknown): string {
  const cause = rootCause(error);
  if (ToolInvocationError.isInstance(cause)) {
    return `Error: Invalid arguments for tool '${toolName}': ${errorDetail(cause.toolError)}. Check the tool's parameters and call it again.`;
  }
  const type = cause instanceof Error ? cause.name || "Error" : "Error";
  return `Error: Tool '${toolName}' failed with ${type}: ${errorDetail(cause)}. Continue with available context, or choose an alternative tool.`;
}

/**
 * Creates the tool-error middleware. Put it first among the middlewares that
 * wrap tool calls, so it also covers errors of the inner ones.
 *
 * @param options - logger (the full error is logged for operators)
 * @returns a `wrapToolCall` middleware
 */
export function createToolErrorMiddleware(options: ToolErrorMiddlewareOptions = {}): AgentMiddleware {
  const logger = options.logger ?? silentLogger;
  return createMiddleware({
    name: "ToolErrorHandlingMiddleware",
    wrapToolCall: async (request, handler) => {
      try {
        return await handler(request);
      } catch (error) {
        if (isGraphBubbleUp(error) || request.runtime.signal?.aborted === true) throw error;
        const name = request.toolCall.name;
        const cause = rootCause(error);
        logger.warn(
          { tool: name, toolCallId: request.toolCall.id, err: cause instanceof Error ? cause.message : String(cause) },
          "tool call failed; returning the error to the model",
        );
        return new ToolMessage({
          content: toolErrorText(name, error),
          tool_call_id: request.toolCall.id ?? "",
          name,
          status: "error",
        });
      }
    },
  });
}
