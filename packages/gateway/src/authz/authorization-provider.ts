/**
 * The authorization contract — DeerFlow's `AuthorizationProvider`
 * (`authorization:`, §8): one policy decides which routes, tools and models a
 * caller's role may use. The gateway asks it on routes (`threads:read`...)
 * and on the models routes; the lead agent asks it when it offers tools to
 * the model and again before a tool call runs. Providers are plugged in with
 * `authorization.provider.use: "<module>:<export>"`; the built-in one is
 * {@link RbacAuthorizationProvider}.
 *
 * A provider may throw (an unknown role, a policy service down): callers
 * apply `fail_closed`, so an error denies unless the operator chose otherwise.
 */

/** Who is asking: the role the policy is keyed by, and the user for providers that look further. */
export interface AuthorizationSubject {
  /** `admin`, `user` or a role the configuration names. */
  readonly role: string;
  readonly userId?: string | undefined;
}

/** Why a decision was taken (`code` is stable: `authz.allowed`, `authz.denied`, `authz.no_policy`...). */
export interface AuthorizationReason {
  readonly code: string;
  readonly message?: string;
}

/** A provider's answer (the shape of the agent's guardrail decisions, so one refusal text serves both). */
export interface AuthorizationDecision {
  readonly allow: boolean;
  readonly reasons?: readonly AuthorizationReason[];
  /** Which rule decided, e.g. `rbac:deny`. */
  readonly policyId?: string;
}

/** A decision, synchronous or not. */
export type MaybeDecision = AuthorizationDecision | Promise<AuthorizationDecision>;

/** Decides what a role may use. Targets are never empty; an unknown role should throw, never allow. */
export interface AuthorizationProvider {
  readonly name: string;
  /**
   * May the subject call routes of this permission?
   *
   * @param permission - DeerFlow's `resource:action`, e.g. `threads:read`, `runs:create` (see `ROUTE_PERMISSIONS`)
   */
  allowsRoute(subject: AuthorizationSubject, permission: string): MaybeDecision;
  /** May the subject be offered, and call, this tool? */
  allowsTool(subject: AuthorizationSubject, toolName: string): MaybeDecision;
  /** May the subject list and use this model? */
  allowsModel(subject: AuthorizationSubject, modelName: string): MaybeDecision;
}

/**
 * Checks that a loaded plugin is a provider (for the `use:` loader's `check`).
 *
 * @param value - what the plugin produced
 * @returns whether it has `name`, `allowsRoute`, `allowsTool` and `allowsModel`
 */
export function isAuthorizationProvider(value: unknown): value is AuthorizationProvider {
  const v = value as Partial<AuthorizationProvider> | null;
  return (
    typeof v === "object" &&
    v !== null &&
    typeof v.name === "string" &&
    typeof v.allowsRoute === "function" &&
    typeof v.allowsTool === "function" &&
    typeof v.allowsModel === "function"
  );
}

/** How a provider must look, for the loader's messages. */
export const AUTHORIZATION_PROVIDER_SHAPE = "an object with name, allowsRoute, allowsTool and allowsModel";
