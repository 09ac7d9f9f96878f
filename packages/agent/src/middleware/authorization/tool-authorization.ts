/**
 * Tool authorization — DeerFlow's two enforcement layers of `authorization:`
 * on one role policy ({@link ToolAuthorizer}):
 *
 * 1. binding: each model call is offered only the tools the run's role may use
 *    (the agent is compiled once, so the filter is per call, not per build; it
 *    sits inside the MCP tools middleware, so MCP tools are filtered too);
 * 2. the tool-call guardrail: a call to a tool the role may not use (one the
 *    model hallucinated, or an MCP tool promoted by `tool_search`) is not run
 *    and gets DeerFlow's refusal (`Guardrail denied: tool '<name>' was blocked
 *    (authz.denied). ...`) as its tool message.
 *
 * The role is the run's `configurable.user_role`, written by the gateway from
 * the authenticated caller (never from a request body); a run without one
 * (not started through the gateway) has `defaultRole`. A provider error
 * denies the tool when `failClosed` (default), else allows it with a warning.
 * Subagents get the same middleware (their run carries the lead's role).
 *
 * Models too, when the authorizer has `allowsModel` and `modelNames` are
 * given: a lead model call whose model (the run's `model_name`, which a
 * custom agent may set, else the default) the role may not use runs on the
 * first allowed one of `modelNames` (DeerFlow's fallback, logged once per
 * run); no allowed model fails the run with `MODEL_NOT_AUTHORIZED`. The
 * gateway already applies this rule to the model a request names.
 *
 * Config keys: `authorization.enabled`, `fail_closed`, `default_role`, `provider` (the server's).
 */
import { ToolMessage } from "@langchain/core/messages";
import { isGraphBubbleUp } from "@langchain/langgraph";
import { createMiddleware, type AgentMiddleware } from "langchain";
import { AgentError } from "../../errors.js";
import { silentLogger, type Logger } from "../../logger.js";
import type { RunModels } from "../../models/run-models.js";
import { readRunOptions, type RunConfigLike } from "../../run/run-options.js";
import { guardrailDeniedText } from "../guardrails/guardrail.js";
import type { GuardrailDecision } from "../guardrails/provider.js";
import type { ToolAuthorizationSubject, ToolAuthorizer } from "./tool-authorizer.js";

/** Options of {@link createToolAuthorizationMiddleware}. */
export interface ToolAuthorizationOptions {
  readonly authorizer: ToolAuthorizer;
  /** Deny when the provider fails (`authorization.fail_closed`). Default true. */
  readonly failClosed?: boolean;
  /** The role of a run without `configurable.user_role` (`authorization.default_role`). Default `user`. */
  readonly defaultRole?: string;
  /** The configured models, the default first: the fallback order when the run's model is denied. */
  readonly modelNames?: readonly string[];
  readonly logger?: Logger;
}

/** DeerFlow's text when a role may use no model at all. */
export const NO_AUTHORIZED_MODEL_TEXT = "No models are authorized for the current role.";

/** The decision standing for a provider failure when fail-closed (DeerFlow's guardrail text for it). */
const PROVIDER_ERROR_DENY: GuardrailDecision = {
  allow: false,
  reasons: [{ code: "oap.evaluator_error", message: "guardrail provider error (fail-closed)" }],
};

const ALLOW: GuardrailDecision = { allow: true };

function nameOf(tool: unknown): string | undefined {
  const name = (tool as { name?: unknown } | null)?.name;
  return typeof name === "string" ? name : undefined;
}

/**
 * Creates the middleware.
 *
 * @param options - the authorizer, `failClosed`, `defaultRole`, `modelNames`, logger
 * @param runModels - the lead's model resolution (the chain passes it; without it models are not checked)
 * @returns a `wrapModelCall` / `wrapToolCall` middleware named `AuthorizationMiddleware`
 * @example
 * ```ts
 * const authorizer = { name: "no-bash", allowsTool: (_s, tool) => ({ allow: tool !== "bash" }) };
 * createToolAuthorizationMiddleware({ authorizer, defaultRole: "user" });
 * ```
 */
export function createToolAuthorizationMiddleware(
  options: ToolAuthorizationOptions,
  runModels?: RunModels,
): AgentMiddleware {
  const { authorizer } = options;
  const logger = options.logger ?? silentLogger;
  const failClosed = options.failClosed ?? true;
  const defaultRole = options.defaultRole ?? "user";

  const subjectOf = (runtime: unknown): ToolAuthorizationSubject => {
    const run = readRunOptions(runtime as RunConfigLike);
    return { role: run.userRole ?? defaultRole, userId: run.userId };
  };
  const decide = async (
    subject: ToolAuthorizationSubject,
    tool: string,
    ask: "tool" | "model" = "tool",
  ): Promise<GuardrailDecision> => {
    try {
      const decision: unknown = await (ask === "tool"
        ? authorizer.allowsTool(subject, tool)
        : authorizer.allowsModel?.(subject, tool));
      if (typeof (decision as GuardrailDecision | null)?.allow !== "boolean")
        throw new TypeError(`${authorizer.name}: the provider's answer is not a decision`);
      return decision as GuardrailDecision;
    } catch (err) {
      if (isGraphBubbleUp(err)) throw err;
      logger.error(
        { err, [ask]: tool, role: subject.role, provider: authorizer.name, failClosed },
        `authorization provider failed on a ${ask}`,
      );
      return failClosed ? PROVIDER_ERROR_DENY : ALLOW;
    }
  };

  const modelNames = options.modelNames ?? [];
  const checksModels = runModels !== undefined && authorizer.allowsModel !== undefined && modelNames.length > 0;
  const warned = new Set<string>();
  /** The run's model when the role may use it, else the first allowed one. */
  const authorizedModel = async (runtime: unknown, subject: ToolAuthorizationSubject) => {
    if (!checksModels) return undefined;
    const run = readRunOptions(runtime as RunConfigLike);
    const name = runModels.nameFor(run);
    if ((await decide(subject, name, "model")).allow) return undefined;
    for (const candidate of modelNames) {
      if (candidate === name || !(await decide(subject, candidate, "model")).allow) continue;
      const key = `${run.runId ?? run.threadId ?? ""}\u0000${name}`;
      if (!warned.has(key)) {
        warned.add(key);
        if (warned.size > 10_000) warned.clear();
        logger.warn(
          { model: name, fallback: candidate, role: subject.role, runId: run.runId },
          `Model '${name}' is not authorized for the current role; fallback to '${candidate}'.`,
        );
      }
      return (await runModels.resolve({ ...run, modelName: candidate })).model;
    }
    throw new AgentError("MODEL_NOT_AUTHORIZED", NO_AUTHORIZED_MODEL_TEXT, { details: { role: subject.role } });
  };

  return createMiddleware({
    name: "AuthorizationMiddleware",
    wrapModelCall: async (request, handler) => {
      const subject = subjectOf(request.runtime);
      const model = await authorizedModel(request.runtime, subject);
      if (model !== undefined) request = { ...request, model };
      const allowed = await Promise.all(request.tools.map(async (t) => (await decide(subject, nameOf(t) ?? "")).allow));
      if (allowed.every(Boolean)) return handler(request);
      return handler({ ...request, tools: request.tools.filter((_, i) => allowed[i]) });
    },
    wrapToolCall: async (request, handler) => {
      const { name, id } = request.toolCall;
      const subject = subjectOf(request.runtime);
      const decision = await decide(subject, name);
      if (decision.allow) return handler(request);
      logger.warn(
        { tool: name, role: subject.role, userId: subject.userId, code: decision.reasons?.[0]?.code },
        "authorization denied a tool call",
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
