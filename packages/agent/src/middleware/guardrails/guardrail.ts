/**
 * Guardrails — DeerFlow's `GuardrailMiddleware` (§3 row 9b): every tool call
 * is judged by a {@link GuardrailProvider} before it runs; a denied call is
 * not run and becomes an error result the model can adapt to. When the
 * provider itself fails, `failClosed` (default `true`) denies the call;
 * `false` lets it through with a warning. LangGraph interrupts raised by a
 * provider propagate.
 *
 * Config keys: `guardrails.enabled` (default `false`), `guardrails.fail_closed`
 * (default `true`), `guardrails.passport` (default none),
 * `guardrails.provider.use` (`allowlist`, or `"<module>:<export>"`) and
 * `guardrails.provider.config` (for `allowlist`: `allowed_tools`, `denied_tools`).
 */
import { ToolMessage } from "@langchain/core/messages";
import { isGraphBubbleUp } from "@langchain/langgraph";
import { createMiddleware, type AgentMiddleware } from "langchain";
import { silentLogger, type Logger } from "../../logger.js";
import { readRunOptions, type RunConfigLike } from "../../run/run-options.js";
import type { GuardrailDecision, GuardrailProvider, GuardrailRequest } from "./provider.js";

/** Options of {@link createGuardrailMiddleware}. */
export interface GuardrailOptions {
  readonly provider: GuardrailProvider;
  /** Deny when the provider throws (`guardrails.fail_closed`). Default `true`. */
  readonly failClosed?: boolean;
  /** `guardrails.passport`, passed to the provider as `agentId`. */
  readonly passport?: string;
  readonly logger?: Logger;
}

/**
 * DeerFlow's text for a denied call.
 *
 * @param toolName - the tool
 * @param decision - the provider's decision
 * @returns the error result the model reads
 */
export function guardrailDeniedText(toolName: string, decision: GuardrailDecision): string {
  const reason = decision.reasons?.[0];
  return `Guardrail denied: tool '${toolName}' was blocked (${reason?.code ?? "oap.denied"}). Reason: ${reason?.message ?? "blocked by guardrail policy"}. Choose an alternative approach.`;
}

const PROVIDER_ERROR_DENY: GuardrailDecision = {
  allow: false,
  reasons: [{ code: "oap.evaluator_error", message: "guardrail provider error (fail-closed)" }],
};

/**
 * Creates the guardrail middleware.
 *
 * @param options - the provider, fail-closed, passport, logger
 * @returns a `wrapToolCall` middleware
 * @example
 * ```ts
 * createGuardrailMiddleware({ provider: new AllowlistProvider({ deniedTools: ["bash"] }) });
 * ```
 */
export function createGuardrailMiddleware(options: GuardrailOptions): AgentMiddleware {
  const logger = options.logger ?? silentLogger;
  const failClosed = options.failClosed ?? true;
  return createMiddleware({
    name: "GuardrailMiddleware",
    wrapToolCall: async (request, handler) => {
      const { name, args, id } = request.toolCall;
      const run = readRunOptions(request.runtime as RunConfigLike);
      const guardrailRequest: GuardrailRequest = {
        toolName: name,
        toolInput: (args ?? {}) as Record<string, unknown>,
        timestamp: new Date().toISOString(),
        ...(id === undefined ? {} : { toolCallId: id }),
        ...(run.threadId === undefined ? {} : { threadId: run.threadId }),
        ...(run.runId === undefined ? {} : { runId: run.runId }),
        ...(run.userId === undefined ? {} : { userId: run.userId }),
        ...(options.passport === undefined ? {} : { agentId: options.passport }),
      };
      let decision: GuardrailDecision;
      try {
        decision = await options.provider.evaluate(guardrailRequest);
      } catch (err) {
        if (isGraphBubbleUp(err)) throw err;
        logger.error({ err, tool: name, provider: options.provider.name }, "guardrail provider failed");
        if (!failClosed) return handler(request);
        decision = PROVIDER_ERROR_DENY;
      }
      if (decision.allow) return handler(request);
      logger.warn(
        { tool: name, policy: decision.policyId, code: decision.reasons?.[0]?.code },
        "guardrail denied a tool call",
      );
      return new ToolMessage({
        content: guardrailDeniedText(name, decision),
        tool_call_id: id ?? "",
        name,
        status: "error",
      });
    },
  });
}
