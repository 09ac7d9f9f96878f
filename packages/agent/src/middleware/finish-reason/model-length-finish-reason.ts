/**
 * Model length finish reason — DeerFlow's `ModelLengthFinishReasonMiddleware`
 * (chain row 33): a response cut by the provider's output limit
 * (`finish_reason: length`, Anthropic `stop_reason: max_tokens`, Gemini
 * `MAX_TOKENS`) that asks for no tool call ends the run with
 * `stop_reason=model_length_capped`, so the client can tell a truncated answer
 * from a complete one. The content is left as the model wrote it.
 *
 * Config keys: none (always on, as DeerFlow).
 */
import { AIMessage } from "@langchain/core/messages";
import { createMiddleware, type AgentMiddleware } from "langchain";
import { silentLogger, type Logger } from "../../logger.js";
import { stampStopReason } from "../../internal/run-stop.js";
import { finishReasonOf } from "./finish-reason.js";

/** Finish reasons that mean "cut by the output limit". */
export const LENGTH_FINISH_REASONS: ReadonlySet<string> = new Set(["length", "max_tokens", "MAX_TOKENS"]);

/** Options of {@link createModelLengthFinishReasonMiddleware}. */
export interface ModelLengthFinishReasonOptions {
  readonly logger?: Logger;
}

/**
 * Creates the model-length finish-reason middleware.
 *
 * @param options - logger
 * @returns a `wrapModelCall` middleware
 */
export function createModelLengthFinishReasonMiddleware(options: ModelLengthFinishReasonOptions = {}): AgentMiddleware {
  const logger = options.logger ?? silentLogger;
  return createMiddleware({
    name: "ModelLengthFinishReasonMiddleware",
    // wrapModelCall rather than afterModel: no graph node of its own on every model call.
    wrapModelCall: async (request, handler) => {
      const response = await handler(request);
      if (!AIMessage.isInstance(response) || (response.tool_calls?.length ?? 0) > 0) return response;
      const reason = finishReasonOf(response);
      if (reason !== undefined && LENGTH_FINISH_REASONS.has(reason))
        stampStopReason(request.runtime, "model_length_capped", logger);
      return response;
    },
  });
}
