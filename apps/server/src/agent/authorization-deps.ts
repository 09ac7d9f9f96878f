/**
 * `authorization:` — the one provider the gateway (routes, models, the run's
 * role and model) and the agent (tool binding and tool calls, lead and
 * subagents) share: the built-in `RbacAuthorizationProvider`, or a `use:`
 * plugin loaded with the kernel's loader (constructed or called with
 * `authorization.provider.config` as written) that must have `name`,
 * `allowsRoute`, `allowsTool` and `allowsModel`.
 */
import type { LeadMiddlewareOptions } from "@deerflow/agent";
import {
  AUTHORIZATION_PROVIDER_SHAPE,
  RbacAuthorizationProvider,
  isAuthorizationProvider,
  type AuthorizationProvider,
  type RbacAuthorizationOptions,
} from "@deerflow/gateway";
import type { ServerConfig } from "../config/types.js";
import { loadPlugin } from "../plugins/index.js";

/** What the server enforces `authorization:` with. */
export interface ServerAuthorization {
  readonly provider: AuthorizationProvider;
  readonly failClosed: boolean;
  readonly defaultRole: string;
}

/**
 * Loads the provider when `authorization.enabled`.
 *
 * @param config - the resolved configuration
 * @param lookup - where `use:` plugins are looked up
 * @returns the provider and its settings, or `undefined` when authorization is off
 * @throws PluginLoadError when the plugin cannot be loaded or is not a provider
 */
export async function loadServerAuthorization(
  config: ServerConfig,
  lookup: { cwd: string; configDir: string },
): Promise<ServerAuthorization | undefined> {
  const a = config.authorization;
  if (a?.enabled !== true || a.provider === undefined) return undefined;
  const p = a.provider;
  const provider =
    p.kind === "rbac"
      ? new RbacAuthorizationProvider(p.options as unknown as RbacAuthorizationOptions)
      : await loadPlugin(p.use, {
          ...lookup,
          options: p.options,
          purpose: "authorization provider",
          shape: AUTHORIZATION_PROVIDER_SHAPE,
          check: isAuthorizationProvider,
        });
  return { provider, failClosed: a.failClosed, defaultRole: a.defaultRole };
}

/**
 * The agent's part: tools checked against the run's role, and the run's model (a custom agent's
 * `model` included) against the role's models, falling back in `models:` order, the default first.
 *
 * @param authorization - what {@link loadServerAuthorization} returned
 * @param config - the resolved configuration (its models)
 * @returns `authorization` for `createLeadAgent({ middleware })`, or nothing when off
 */
export function toolAuthorizationOptions(
  authorization: ServerAuthorization | undefined,
  config: Pick<ServerConfig, "models" | "defaultModel">,
): Pick<LeadMiddlewareOptions, "authorization"> {
  if (authorization === undefined) return {};
  const { provider, failClosed, defaultRole } = authorization;
  const others = config.models.map((m) => m.name).filter((n) => n !== config.defaultModel);
  return {
    authorization: { authorizer: provider, failClosed, defaultRole, modelNames: [config.defaultModel, ...others] },
  };
}
