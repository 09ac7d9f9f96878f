/**
 * Errors of the authorization providers. A provider's error never reaches a
 * client as such: the enforcement ({@link Authorization}) logs it and denies
 * (`fail_closed`), so the codes are for logs and for a policy's construction.
 */
import { DeerflowError } from "@deerflow/kernel";

/**
 * - `POLICY_INVALID`: a policy that cannot be compiled (thrown at startup: a typo must not grant anything).
 * - `ROLE_UNKNOWN`: a subject whose role the policy does not define (denied, never allowed).
 * - `TARGET_INVALID`: an empty or non-string role, permission, tool or model name.
 * - `DECISION_INVALID`: a provider answered something that is not a decision.
 */
export type AuthorizationErrorCode = "POLICY_INVALID" | "ROLE_UNKNOWN" | "TARGET_INVALID" | "DECISION_INVALID";

/** Raised by authorization providers and the enforcement. */
export class AuthorizationError extends DeerflowError<AuthorizationErrorCode> {
  static override readonly brand: symbol = Symbol.for("@deerflow/gateway/authorization-error");
  override name = "AuthorizationError";
}
