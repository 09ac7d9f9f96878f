/**
 * Authentication of every request but `GET /healthz`, and the principal it
 * establishes, which route handlers read with {@link principalOf}.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { wireErrorBody } from "../wire/errors.js";
import { API_KEY_HEADER } from "../wire/types.js";
import { DEFAULT_CLIENT_ID, type KeyRing, type Principal } from "./auth.js";

const principals = new WeakMap<FastifyRequest, Principal>();

/** Every caller of a service without keys: one client, so one namespace. */
const OPEN_PRINCIPAL: Principal = { clientId: DEFAULT_CLIENT_ID, admin: false };

/**
 * Adds the `onRequest` hook that identifies the caller. It runs before the
 * body is read, so an unauthenticated client cannot make the service parse
 * 64 MiB; a missing or unknown key is 401 `UNAUTHORIZED`, even for unknown routes.
 *
 * @param app - The Fastify instance.
 * @param keys - The accepted keys; when empty every caller is the `default` client.
 */
export function installAuthentication(app: FastifyInstance, keys: KeyRing): void {
  app.addHook("onRequest", async (request, reply) => {
    if (request.routeOptions.url === "/healthz") return;
    const principal = keys.empty ? OPEN_PRINCIPAL : keys.identify(request.headers[API_KEY_HEADER]);
    if (principal === undefined) {
      await reply.code(401).send(wireErrorBody({ code: "UNAUTHORIZED", message: "Missing or invalid X-API-Key" }));
      return;
    }
    principals.set(request, principal);
  });
}

/**
 * The caller of an authenticated request.
 *
 * @param request - A request that went through {@link installAuthentication}.
 * @returns Its principal.
 * @throws Error when the hook did not run (a routing bug, reported as 500).
 */
export function principalOf(request: FastifyRequest): Principal {
  const principal = principals.get(request);
  if (principal === undefined) throw new Error(`No principal for ${request.method} ${request.url}`);
  return principal;
}
