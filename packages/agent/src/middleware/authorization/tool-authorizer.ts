/**
 * What the agent asks of an authorization policy (DeerFlow's
 * `AuthorizationProvider`, tool part): may this role use this tool? The
 * gateway's `AuthorizationProvider` (`@deerflow/gateway`, e.g. its
 * `RbacAuthorizationProvider`) has this shape, so the server hands the one
 * provider it loaded for `authorization:` to both; the agent does not depend
 * on the gateway.
 */
import type { GuardrailDecision } from "../guardrails/provider.js";

/** Who runs: the role the run was authenticated with (`configurable.user_role`) and its user. */
export interface ToolAuthorizationSubject {
  readonly role: string;
  readonly userId?: string | undefined;
}

/**
 * Decides which tools a role may be offered and may call, and (optionally) which models it may run
 * on. May throw (denied when fail-closed).
 */
export interface ToolAuthorizer {
  readonly name: string;
  allowsTool(subject: ToolAuthorizationSubject, toolName: string): GuardrailDecision | Promise<GuardrailDecision>;
  /** With it (and `modelNames`), a run whose model the role may not use runs on the first allowed one. */
  allowsModel?(subject: ToolAuthorizationSubject, modelName: string): GuardrailDecision | Promise<GuardrailDecision>;
}
