/**
 * Route enforcement: an `onRoute` hook gives every route of the permission
 * table ({@link routePermissionOf}) an `onRequest` check, run after
 * authentication and before the body is read: a role without the permission
 * gets 403 `Permission denied: <permission>` (DeerFlow's detail). A thread or
 * run route missing from the table is refused with the same 403 (fail closed)
 * and logged at startup, so a new route cannot slip through unchecked. The
 * `runs:create` routes also get the run's role and authorized model written
 * into their validated body (`authorizeRunBody`).
 */
import type { FastifyInstance, onRequestAsyncHookHandler, preHandlerAsyncHookHandler, RouteOptions } from "fastify";
import { GatewayError } from "../errors.js";
import type { ModelCatalog } from "../models/models-routes.js";
import { permissionDeniedMessage, type Authorization } from "./authorization.js";
import { Permissions, isPermissionScoped, routePermissionOf } from "./route-permissions.js";
import { authorizeRunBody } from "./run-authorization.js";

/** The permission name an unmapped thread or run route is refused with. */
const UNMAPPED = "unmapped-route";

function methodsOf(route: RouteOptions): string[] {
  return Array.isArray(route.method) ? [...route.method] : [route.method];
}

/** A route's hook option as a list. */
function hooks<H>(option: H | H[] | undefined): H[] {
  return option === undefined ? [] : Array.isArray(option) ? option : [option];
}

/**
 * Installs the check; call before the routes are registered.
 *
 * @param app - the root instance
 * @param authorization - the enforcement
 * @param catalog - the models a run may ask for (`createGateway({ models })`)
 */
export function installRouteAuthorization(
  app: FastifyInstance,
  authorization: Authorization,
  catalog: ModelCatalog | undefined,
): void {
  app.addHook("onRoute", (route) => {
    const { url } = route;
    const mapped = methodsOf(route).some((m) => routePermissionOf(m, url) !== undefined);
    if (!mapped && !isPermissionScoped(url)) return;
    if (!mapped)
      app.log.warn({ url, method: route.method }, "route without a permission: refused while authorization is on");
    const check: onRequestAsyncHookHandler = async (request) => {
      const permission = routePermissionOf(request.method, url);
      if (permission === undefined) throw new GatewayError("FORBIDDEN", permissionDeniedMessage(UNMAPPED));
      if (!(await authorization.allowsRoute(request.principal, permission)))
        throw new GatewayError("FORBIDDEN", permissionDeniedMessage(permission));
    };
    route.onRequest = [check, ...hooks(route.onRequest)];
    if (methodsOf(route).some((m) => routePermissionOf(m, url) === Permissions.RUNS_CREATE)) {
      const runBody: preHandlerAsyncHookHandler = async (request) => authorizeRunBody(request, authorization, catalog);
      route.preHandler = [...hooks(route.preHandler), runBody];
    }
  });
}
