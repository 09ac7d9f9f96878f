/**
 * The built-in guardrail provider — DeerFlow's `AllowlistProvider`: allows or
 * denies by tool name, no dependencies. With `allowedTools`, only those tools
 * run (an empty list denies every tool); `deniedTools` are always denied.
 */
import type { GuardrailDecision, GuardrailProvider, GuardrailRequest } from "./provider.js";

/** Options of {@link AllowlistProvider} (`guardrails.provider.config.allowed_tools` / `denied_tools`). */
export interface AllowlistProviderOptions {
  /** Only these tools may run. Absent: every tool not denied. */
  readonly allowedTools?: readonly string[];
  /** These tools never run. */
  readonly deniedTools?: readonly string[];
}

/** Allow/deny lists by tool name. */
export class AllowlistProvider implements GuardrailProvider {
  readonly name = "allowlist";
  readonly #allowed: ReadonlySet<string> | undefined;
  readonly #denied: ReadonlySet<string>;

  /** @param options - the lists */
  constructor(options: AllowlistProviderOptions = {}) {
    this.#allowed = options.allowedTools === undefined ? undefined : new Set(options.allowedTools);
    this.#denied = new Set(options.deniedTools ?? []);
  }

  /**
   * Judges one call: not in the allowlist (when there is one), or in the denylist, is denied.
   *
   * @param request - the call
   * @returns the decision, with DeerFlow's reason code and text
   */
  evaluate(request: GuardrailRequest): GuardrailDecision {
    const tool = request.toolName;
    if (this.#allowed !== undefined && !this.#allowed.has(tool)) {
      return {
        allow: false,
        reasons: [{ code: "oap.tool_not_allowed", message: `tool '${tool}' not in allowlist` }],
        policyId: "allowlist",
      };
    }
    if (this.#denied.has(tool)) {
      return {
        allow: false,
        reasons: [{ code: "oap.tool_not_allowed", message: `tool '${tool}' is denied` }],
        policyId: "allowlist",
      };
    }
    return { allow: true, reasons: [{ code: "oap.allowed" }], policyId: "allowlist" };
  }
}
