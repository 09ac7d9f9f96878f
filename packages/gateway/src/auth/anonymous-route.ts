/**
 * A route config flag: the route answers callers without credentials (login,
 * registration, setup status) while authentication is on. A valid session or
 * key is still resolved, so such a route can tell who is calling.
 */
import type { FastifyRequest } from "fastify";

const ANONYMOUS = Symbol.for("@deerflow/gateway/anonymous-route");

/**
 * @returns the route `config` marking a route as open to signed-out callers.
 * @example
 * ```ts
 * app.get("/providers", { config: anonymousRoute() }, async () => ({ local: true, oidc: [] }));
 * ```
 */
export function anonymousRoute(): Record<symbol, true> {
  return { [ANONYMOUS]: true };
}

/** Whether the request's route carries {@link anonymousRoute}. */
export function allowsAnonymous(request: FastifyRequest): boolean {
  return isAnonymousRoute(request.routeOptions);
}

/** Whether a route (its options, as `onRoute` and `@fastify/swagger` see them) carries {@link anonymousRoute}. */
export function isAnonymousRoute(route: { readonly config?: unknown } | undefined): boolean {
  const config = route?.config as Record<symbol, unknown> | undefined;
  return config?.[ANONYMOUS] === true;
}
