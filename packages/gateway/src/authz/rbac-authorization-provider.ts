/**
 * The built-in provider — DeerFlow's `RbacAuthorizationProvider`: per role,
 * per resource (`tools`, `routes`, `models`), an `allow` list (`"*"` = all)
 * and a `deny` list; deny wins. The policy is compiled and checked once, at
 * construction: a typo (`alow`), a null list or an empty name is refused, so
 * a mistake in the configuration never grants anything.
 *
 * Semantics (DeerFlow's): a role without a policy for a resource is
 * unrestricted on it (`authz.no_policy`); a policy without `allow` allows all
 * but its `deny`; `allow: false` (or `[]`) denies all; an unknown or empty
 * role throws `ROLE_UNKNOWN`, which the enforcement turns into a denial
 * (`fail_closed`).
 */
import { AuthorizationError } from "./authorization-error.js";
import type { AuthorizationDecision, AuthorizationProvider, AuthorizationSubject } from "./authorization-provider.js";

/** The resources a role's policy may name (`authorization.provider.config.roles.<role>.<resource>`). */
export const RBAC_RESOURCES = ["tools", "routes", "models"] as const;

/** One of {@link RBAC_RESOURCES}. */
export type RbacResource = (typeof RBAC_RESOURCES)[number];

/** One resource's rule, as written in `config.yaml`. */
export interface RbacRule {
  /** `"*"` or `true`: everything (the default when absent); `false` or `[]`: nothing; else these names. */
  readonly allow?: "*" | boolean | readonly string[];
  /** Never these names, whatever `allow` says. */
  readonly deny?: readonly string[];
}

/** A role's rules per resource; a resource left out is unrestricted for the role. */
export type RbacRole = Partial<Readonly<Record<RbacResource, RbacRule>>>;

/** Options of {@link RbacAuthorizationProvider} (`authorization.provider.config`). */
export interface RbacAuthorizationOptions {
  /** The roles; a subject with a role not named here is denied everything. */
  readonly roles: Readonly<Record<string, RbacRole>>;
}

const ALL = "*";

interface CompiledRule {
  /** `"*"` or the allowed names. */
  readonly allowed: typeof ALL | ReadonlySet<string>;
  readonly denied: ReadonlySet<string>;
}

const invalid = (message: string): AuthorizationError => new AuthorizationError("POLICY_INVALID", message);

function nameList(value: unknown, where: string): ReadonlySet<string> {
  if (!Array.isArray(value)) throw invalid(`${where} must be a list of names`);
  for (const item of value as unknown[])
    if (typeof item !== "string" || item === "") throw invalid(`${where} has an empty or non-string name`);
  return new Set(value as string[]);
}

function compileRule(rule: unknown, where: string): CompiledRule {
  if (typeof rule !== "object" || rule === null || Array.isArray(rule))
    throw invalid(`${where} must be a mapping with allow and/or deny`);
  const r = rule as Record<string, unknown>;
  const unknown = Object.keys(r).filter((k) => k !== "allow" && k !== "deny");
  if (unknown.length > 0) throw invalid(`${where} has unknown keys ${unknown.join(", ")} (allow, deny)`);
  let allowed: CompiledRule["allowed"];
  const allow = r["allow"];
  if (!Object.hasOwn(r, "allow") || allow === true || allow === ALL) allowed = ALL;
  else if (allow === false) allowed = new Set();
  else if (allow === null) throw invalid(`${where}.allow must not be null: omit it, or use "*", a boolean or a list`);
  else if (typeof allow === "string") throw invalid(`${where}.allow must be "*" when it is a string, got "${allow}"`);
  else allowed = nameList(allow, `${where}.allow`);
  if (Object.hasOwn(r, "deny") && r["deny"] === null) throw invalid(`${where}.deny must not be null: omit it`);
  const denied = r["deny"] === undefined ? new Set<string>() : nameList(r["deny"], `${where}.deny`);
  return { allowed, denied };
}

function target(value: unknown, what: string): string {
  if (typeof value !== "string" || value === "")
    throw new AuthorizationError("TARGET_INVALID", `${what} must be a non-empty string`);
  return value;
}

/** Role-based allow/deny lists of tools, routes and models. */
export class RbacAuthorizationProvider implements AuthorizationProvider {
  readonly name = "rbac";
  readonly #rules = new Map<string, Map<RbacResource, CompiledRule>>();

  /**
   * @param options - `{ roles }` as in `config.yaml`
   * @throws AuthorizationError `POLICY_INVALID` for a malformed policy (unknown keys, null or empty lists, a bad `allow`)
   * @example
   * ```ts
   * const rbac = new RbacAuthorizationProvider({
   *   roles: { admin: {}, user: { tools: { deny: ["bash"] }, routes: { deny: ["threads:delete"] } } },
   * });
   * rbac.allowsTool({ role: "user" }, "bash"); // { allow: false, reasons: [{ code: "authz.denied", ... }] }
   * ```
   */
  constructor(options: RbacAuthorizationOptions) {
    const roles = (options as Partial<RbacAuthorizationOptions> | null)?.roles;
    if (typeof roles !== "object" || roles === null || Array.isArray(roles))
      throw invalid("roles must be a mapping of role names to their rules");
    const extra = Object.keys(options).filter((k) => k !== "roles");
    if (extra.length > 0) throw invalid(`unknown settings ${extra.join(", ")} (roles)`);
    for (const [role, spec] of Object.entries(roles)) {
      if (role === "") throw invalid("a role name is empty");
      if (typeof spec !== "object" || spec === null || Array.isArray(spec))
        throw invalid(`roles.${role} must be a mapping of resources (${RBAC_RESOURCES.join(", ")})`);
      const compiled = new Map<RbacResource, CompiledRule>();
      for (const [resource, rule] of Object.entries(spec as Record<string, unknown>)) {
        if (!(RBAC_RESOURCES as readonly string[]).includes(resource))
          throw invalid(`roles.${role}.${resource} is not a resource (${RBAC_RESOURCES.join(", ")})`);
        compiled.set(resource as RbacResource, compileRule(rule, `roles.${role}.${resource}`));
      }
      this.#rules.set(role, compiled);
    }
  }

  /** The roles the policy defines. */
  get roles(): readonly string[] {
    return [...this.#rules.keys()];
  }

  /**
   * Fails when a role is not defined (the server checks `default_role` at startup with it).
   *
   * @throws AuthorizationError `ROLE_UNKNOWN`
   */
  validateRole(role: string): void {
    if (!this.#rules.has(role))
      throw new AuthorizationError("ROLE_UNKNOWN", `Unknown role '${role}'; known roles: ${this.roles.join(", ")}`);
  }

  /** {@inheritDoc AuthorizationProvider.allowsRoute} */
  allowsRoute(subject: AuthorizationSubject, permission: string): AuthorizationDecision {
    return this.#decide(subject, "routes", target(permission, "permission"));
  }

  /** {@inheritDoc AuthorizationProvider.allowsTool} */
  allowsTool(subject: AuthorizationSubject, toolName: string): AuthorizationDecision {
    return this.#decide(subject, "tools", target(toolName, "tool name"));
  }

  /** {@inheritDoc AuthorizationProvider.allowsModel} */
  allowsModel(subject: AuthorizationSubject, modelName: string): AuthorizationDecision {
    return this.#decide(subject, "models", target(modelName, "model name"));
  }

  #decide(subject: AuthorizationSubject, resource: RbacResource, name: string): AuthorizationDecision {
    const role = target(subject?.role, "role");
    this.validateRole(role);
    const rule = this.#rules.get(role)?.get(resource);
    if (rule === undefined)
      return {
        allow: true,
        reasons: [{ code: "authz.no_policy", message: "no policy configured" }],
        policyId: "rbac:unrestricted",
      };
    if (!rule.denied.has(name) && (rule.allowed === ALL || rule.allowed.has(name)))
      return { allow: true, reasons: [{ code: "authz.allowed" }], policyId: "rbac:allow" };
    return {
      allow: false,
      reasons: [
        { code: "authz.denied", message: `role '${role}' is denied '${name}' on resource '${resource.slice(0, -1)}'` },
      ],
      policyId: "rbac:deny",
    };
  }
}
