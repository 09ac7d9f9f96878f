/**
 * The guardrail provider contract — DeerFlow's `GuardrailProvider` protocol
 * (§3 row 9b): given one tool call, allow it or deny it with reasons. A
 * provider is any object with `name` and `evaluate(request)`; configure your
 * own with `guardrails.provider.use: "<module>:<export>"` (a class constructed
 * with `guardrails.provider.config`, or a factory called with it).
 */

/** One tool call to judge. */
export interface GuardrailRequest {
  readonly toolName: string;
  readonly toolInput: Readonly<Record<string, unknown>>;
  readonly toolCallId?: string;
  readonly threadId?: string;
  readonly runId?: string;
  readonly userId?: string;
  /** `guardrails.passport`: the agent's policy reference, for providers that use one. */
  readonly agentId?: string;
  /** ISO-8601 time of the call. */
  readonly timestamp: string;
}

/** Why a call was allowed or denied (`code` is stable, e.g. `oap.tool_not_allowed`). */
export interface GuardrailReason {
  readonly code: string;
  readonly message?: string;
}

/** A provider's answer. */
export interface GuardrailDecision {
  readonly allow: boolean;
  readonly reasons?: readonly GuardrailReason[];
  readonly policyId?: string;
}

/** Judges tool calls before they run. */
export interface GuardrailProvider {
  readonly name: string;
  evaluate(request: GuardrailRequest): GuardrailDecision | Promise<GuardrailDecision>;
}

/**
 * Checks that a loaded plugin is a provider (for the `use:` loader's `check`).
 *
 * @param value - what the plugin produced
 * @returns whether it has `name` and `evaluate`
 */
export function isGuardrailProvider(value: unknown): value is GuardrailProvider {
  const v = value as Partial<GuardrailProvider> | null;
  return typeof v === "object" && v !== null && typeof v.name === "string" && typeof v.evaluate === "function";
}

/** How a provider must look, for the loader's messages. */
export const GUARDRAIL_PROVIDER_SHAPE = "an object with name and evaluate(request)";
