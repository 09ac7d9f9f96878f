/**
 * Why the provider stopped generating, across providers: OpenAI's
 * `finish_reason`, Anthropic's `stop_reason`, Gemini's `finishReason`, as
 * LangChain puts them in `response_metadata`.
 */
import type { AIMessage } from "@langchain/core/messages";

/**
 * @param message - a model response
 * @returns its finish reason as the provider wrote it, or `undefined`
 */
export function finishReasonOf(message: AIMessage): string | undefined {
  const meta = message.response_metadata as Record<string, unknown> | undefined;
  for (const key of ["finish_reason", "stop_reason", "finishReason"]) {
    const value = meta?.[key];
    if (typeof value === "string" && value !== "") return value;
  }
  return undefined;
}
