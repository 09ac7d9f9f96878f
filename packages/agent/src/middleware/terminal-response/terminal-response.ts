/**
 * Terminal response — DeerFlow's `TerminalResponseMiddleware` (chain row 32):
 * a model that answers a tool result with an empty message (no text, no tool
 * call) is asked once more, out of sight; when the second answer is empty too,
 * the message becomes {@link TERMINAL_RESPONSE_FALLBACK_TEXT} and the run ends
 * as an error (the conversation is kept, so the thread stays usable).
 *
 * Config keys: none (always on, as DeerFlow).
 */
import { AIMessage, ToolMessage } from "@langchain/core/messages";
import { createMiddleware, type AgentMiddleware } from "langchain";
import { messageText } from "../../internal/message-text.js";
import { failRun } from "../../internal/run-stop.js";
import { silentLogger, type Logger } from "../../logger.js";
import { rewriteAiMessage } from "../../messages.js";

/** DeerFlow's visible message after the hidden retry also came back empty. */
export const TERMINAL_RESPONSE_FALLBACK_TEXT =
  "The model completed the tool run but returned no final response, including after one automatic retry. Please try again or use a different model.";

/** Options of {@link createTerminalResponseMiddleware}. */
export interface TerminalResponseOptions {
  readonly logger?: Logger;
}

/** An AI message with neither text nor tool calls. */
const isEmptyAnswer = (response: unknown): response is AIMessage =>
  AIMessage.isInstance(response) &&
  (response.tool_calls?.length ?? 0) === 0 &&
  messageText(response.content).trim() === "";

/**
 * Creates the terminal-response middleware. Put it inside the LLM error
 * handling, so its retry is protected the same way.
 *
 * @param options - logger
 * @returns a `wrapModelCall` middleware
 */
export function createTerminalResponseMiddleware(options: TerminalResponseOptions = {}): AgentMiddleware {
  const logger = options.logger ?? silentLogger;
  return createMiddleware({
    name: "TerminalResponseMiddleware",
    wrapModelCall: async (request, handler) => {
      const response = await handler(request);
      if (!isEmptyAnswer(response) || !ToolMessage.isInstance(request.messages.at(-1))) return response;
      logger.warn({}, "empty final answer after tool execution; retrying once");
      const retried = await handler(request);
      if (!isEmptyAnswer(retried)) return retried;
      failRun(request.runtime, TERMINAL_RESPONSE_FALLBACK_TEXT, logger);
      return rewriteAiMessage(retried, { content: TERMINAL_RESPONSE_FALLBACK_TEXT, toolCalls: [] });
    },
  });
}
