/**
 * Safety finish reason — DeerFlow's `SafetyFinishReasonMiddleware` (chain row
 * 34): when the provider stopped for safety (OpenAI `content_filter`,
 * Anthropic `refusal`, Gemini `SAFETY` / `BLOCKLIST` / `PROHIBITED_CONTENT` /
 * `SPII` / `RECITATION`) yet the response carries tool calls, the calls are
 * cleared (raw provider metadata included) so a filtered, possibly truncated
 * call is never executed, and the run's `stop_reason` becomes `safety_capped`.
 *
 * Config keys: `safety_finish_reason.enabled` (true); `detectors` replaces the
 * default set (DeerFlow's `detectors: [{use, config}]`; here functions).
 */
import { AIMessage } from "@langchain/core/messages";
import { createMiddleware, type AgentMiddleware } from "langchain";
import { silentLogger, type Logger } from "../../logger.js";
import { rewriteAiMessage } from "../../messages.js";
import { stampStopReason } from "../../internal/run-stop.js";
import { finishReasonOf } from "./finish-reason.js";

/** Tells whether a response was stopped for safety; returns the matched reason. */
export type SafetyDetector = (message: AIMessage) => string | undefined;

/** Provider safety stops (OpenAI, Anthropic, Gemini). */
export const SAFETY_FINISH_REASONS: ReadonlySet<string> = new Set([
  "content_filter",
  "refusal",
  "SAFETY",
  "BLOCKLIST",
  "PROHIBITED_CONTENT",
  "SPII",
  "RECITATION",
]);

/** The default detector: the provider's finish reason is one of {@link SAFETY_FINISH_REASONS}. */
export const providerSafetyDetector: SafetyDetector = (message) => {
  const reason = finishReasonOf(message);
  return reason !== undefined && SAFETY_FINISH_REASONS.has(reason) ? reason : undefined;
};

/** Options of {@link createSafetyFinishReasonMiddleware}. */
export interface SafetyFinishReasonOptions {
  /** Replaces the default detector set. */
  readonly detectors?: readonly SafetyDetector[];
  readonly logger?: Logger;
}

/**
 * Creates the safety finish-reason middleware.
 *
 * @param options - detectors and logger
 * @returns a `wrapModelCall` middleware
 */
export function createSafetyFinishReasonMiddleware(options: SafetyFinishReasonOptions = {}): AgentMiddleware {
  const detectors = options.detectors ?? [providerSafetyDetector];
  const logger = options.logger ?? silentLogger;
  return createMiddleware({
    name: "SafetyFinishReasonMiddleware",
    // wrapModelCall rather than afterModel: no graph node of its own on every model call.
    wrapModelCall: async (request, handler) => {
      const response = await handler(request);
      if (!AIMessage.isInstance(response) || (response.tool_calls?.length ?? 0) === 0) return response;
      const reason = detectors.map((detect) => detect(response)).find((r) => r !== undefined);
      if (reason === undefined) return response;
      logger.warn(
        { reason, toolCalls: response.tool_calls?.map((c) => c.name) },
        "safety stop with tool calls; the calls are cleared",
      );
      stampStopReason(request.runtime, "safety_capped", logger);
      return rewriteAiMessage(response, { content: response.content, toolCalls: [] });
    },
  });
}
