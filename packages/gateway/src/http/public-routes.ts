/**
 * Public routes: route plugins mounted at the root beside the API whose routes
 * answer without an API key and while the gateway drains (a web console's
 * files, the facts it reads before its first API call), like `/health`.
 *
 * They cannot shadow an API route:
 *
 * - under the API prefix only fixed paths are accepted, and none that an API
 *   route's pattern matches (`CONFIG_INVALID` at registration);
 * - a public route with parameters or a wildcard at the root (`/*`) never
 *   answers a path under the API prefix: such a request is the API's unknown
 *   route (authentication first, so a 401 without a key; then 404).
 */
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest, RouteOptions } from "fastify";
import { GatewayError } from "../errors.js";
import { pathOf } from "./url-path.js";

/** Route config key marking a public route; its value is the API prefix the route must stay out of. */
const PUBLIC_ROUTE = Symbol.for("@deerflow/gateway/public-route");

/** A registered route's method(s) and URL pattern. */
export interface RouteShape {
  readonly method: string | readonly string[];
  readonly url: string;
}

function isUnder(prefix: string, path: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`);
}

/** HEAD is answered by GET routes, so the two count as one method here. */
function methodsOf(route: RouteShape): Set<string> {
  const methods = typeof route.method === "string" ? [route.method] : route.method;
  return new Set(methods.map((m) => (m === "HEAD" ? "GET" : m)));
}

/** Whether Fastify pattern `pattern` (`:param` segments, a trailing `*`) matches the fixed path `path`. */
function patternMatches(pattern: string, path: string): boolean {
  const want = pattern.split("/");
  const got = path.split("/");
  for (let i = 0; i < want.length; i += 1) {
    const segment = want[i] ?? "";
    if (segment === "*") return true;
    if (i >= got.length) return false;
    if (segment.includes(":") ? got[i] === "" : segment !== got[i]) return false;
  }
  return want.length === got.length;
}

/** The API prefix a public route's config carries, or `undefined` for another route. */
function apiPrefixOf(config: unknown): string | undefined {
  const value =
    typeof config === "object" && config !== null ? (config as Record<symbol, unknown>)[PUBLIC_ROUTE] : undefined;
  return typeof value === "string" ? value : undefined;
}

/** Whether a route (its options, as `onRoute` and `@fastify/swagger` see them) is public. */
export function isPublicRoute(route: { readonly config?: unknown } | undefined): boolean {
  return apiPrefixOf(route?.config) !== undefined;
}

/**
 * True when `request` is answered without a key: its route is public and does
 * not stray under the API prefix (see the module comment).
 */
export function answersPublicly(request: FastifyRequest): boolean {
  const apiPrefix = apiPrefixOf(request.routeOptions.config);
  if (apiPrefix === undefined) return false;
  return !isUnder(apiPrefix, pathOf(request.url)) || isUnder(apiPrefix, request.routeOptions.url ?? "");
}

/**
 * Records every route registered on `app` from now on (the API routes a public route is checked against).
 *
 * @returns the list, filled as routes are registered.
 */
export function recordRoutes(app: FastifyInstance): readonly RouteShape[] {
  const routes: RouteShape[] = [];
  app.addHook("onRoute", (route) => {
    routes.push({ method: route.method, url: route.url });
  });
  return routes;
}

function checkNotShadowing(route: RouteOptions, apiPrefix: string, apiRoutes: readonly RouteShape[]): void {
  if (!isUnder(apiPrefix, route.url)) return;
  const name = `${String(route.method)} ${route.url}`;
  if (/[:*(]/.test(route.url)) {
    throw new GatewayError(
      "CONFIG_INVALID",
      `Public route ${name}: under ${apiPrefix} a public route must have a fixed path.`,
    );
  }
  const methods = methodsOf(route);
  for (const api of apiRoutes) {
    if (
      isUnder(apiPrefix, api.url) &&
      [...methodsOf(api)].some((m) => methods.has(m)) &&
      patternMatches(api.url, route.url)
    ) {
      throw new GatewayError(
        "CONFIG_INVALID",
        `Public route ${name} would shadow the API route ${String(api.method)} ${api.url}.`,
      );
    }
  }
}

/**
 * Registers `plugins` at the root of `app` as public routes.
 *
 * @param apiPrefix - the API's prefix (`/api`).
 * @param apiRoutes - the routes registered so far (from {@link recordRoutes}).
 * @throws GatewayError `CONFIG_INVALID` for a public route that could shadow an API route.
 */
export async function registerPublicRoutes(
  app: FastifyInstance,
  plugins: readonly FastifyPluginAsync[],
  apiPrefix: string,
  apiRoutes: readonly RouteShape[],
): Promise<void> {
  const known = [...apiRoutes];
  await app.register(async (scope) => {
    scope.addHook("onRoute", (route) => {
      checkNotShadowing(route, apiPrefix, known);
      route.config = Object.assign({}, route.config, { [PUBLIC_ROUTE]: apiPrefix });
    });
    // A parametric or wildcard public route reached from under the API prefix: that is the API's unknown route.
    scope.addHook("onRequest", async (request: FastifyRequest, reply: FastifyReply) => {
      if (!answersPublicly(request)) return reply.callNotFound();
      return undefined;
    });
    for (const plugin of plugins) await scope.register(plugin);
  });
}
