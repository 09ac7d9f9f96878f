/**
 * Resolves `authorization:` — DeerFlow's role-based authorization: `enabled`
 * (false), `fail_closed` (true), `default_role` (`user`), `provider.use`
 * (`rbac`, DeerFlow's class path `deerflow.authz.rbac:RbacAuthorizationProvider`,
 * or a `"<module>:<export>"` plugin) and `provider.config` (for `rbac`:
 * `roles.<role>.{tools,routes,models}: {allow, deny}`). The RBAC policy is
 * compiled here, so a typo in it (or a `default_role` it does not define) is
 * a configuration error at its key path, not a silent grant at run time.
 */
import { AuthorizationError, RbacAuthorizationProvider, type RbacAuthorizationOptions } from "@deerflow/gateway";
import { isUseSpec } from "../plugins/index.js";
import type { AuthorizationSettings } from "./types.js";

type Doc = Record<string, unknown>;

/** `use:` values naming the built-in RBAC provider (ours, and DeerFlow's class path). */
const RBAC_USES: ReadonlySet<string> = new Set(["rbac", "deerflow.authz.rbac:RbacAuthorizationProvider"]);

/** A configured key's `role` must be one the policy defines (it would be denied everything). */
function checkKeyRoles(doc: Doc, rbac: RbacAuthorizationProvider, problem: (path: string, message: string) => void) {
  const keys = ((doc["server"] as Doc | undefined)?.["api_keys"] as unknown[] | undefined) ?? [];
  keys.forEach((entry, i) => {
    const role = (entry as { role?: unknown } | null)?.role;
    if (typeof role === "string" && !rbac.roles.includes(role))
      problem(
        `server.api_keys[${i}].role`,
        `'${role}' is not a role of authorization.provider.config.roles (${rbac.roles.join(", ")})`,
      );
  });
}

/**
 * @param doc - the validated document
 * @param problem - records a problem at a key path
 * @returns the settings with DeerFlow's defaults (off, fail-closed, default role `user`)
 */
export function resolveAuthorization(
  doc: Doc,
  problem: (path: string, message: string) => void,
): AuthorizationSettings {
  const a = (doc["authorization"] as Doc | undefined) ?? {};
  const enabled = (a["enabled"] as boolean | undefined) ?? false;
  const defaultRole = (a["default_role"] as string | undefined) ?? "user";
  const raw = a["provider"] as { use: string; config?: Doc } | undefined;
  const settings = { enabled, failClosed: (a["fail_closed"] as boolean | undefined) ?? true, defaultRole };
  if (!enabled) return settings;
  if (raw === undefined) {
    problem(
      "authorization.provider",
      "is required when authorization.enabled is true (e.g. use: rbac with config.roles)",
    );
    return settings;
  }
  const options = raw.config ?? {};
  if (RBAC_USES.has(raw.use)) {
    try {
      const rbac = new RbacAuthorizationProvider(options as unknown as RbacAuthorizationOptions);
      rbac.validateRole(defaultRole);
      checkKeyRoles(doc, rbac, problem);
    } catch (err) {
      if (!AuthorizationError.isInstance(err)) throw err;
      problem(
        err.code === "ROLE_UNKNOWN" ? "authorization.default_role" : "authorization.provider.config",
        err.message,
      );
      return settings;
    }
    return { ...settings, provider: { kind: "rbac", options } };
  }
  if (!isUseSpec(raw.use)) {
    problem("authorization.provider.use", `must be "rbac" or "<module>:<export>", got "${raw.use}"`);
    return settings;
  }
  return { ...settings, provider: { kind: "plugin", use: raw.use, options } };
}
