/**
 * The authentication hook: runs first on every request (before the body is
 * read, so an anonymous client cannot make the server parse anything) and sets
 * `request.principal`.
 */
import type { FastifyInstance } from "fastify";
import { GatewayError } from "../errors.js";
import { answersPublicly } from "../http/public-routes.js";
import { pathOf } from "../http/url-path.js";
import { ApiKeyRing, presentedKey, type AuthOptions } from "./api-keys.js";
import { ANONYMOUS_ADMIN, DEFAULT_USER_ID, type Principal } from "./principal.js";

/** The principal of open routes (`/health`, preflight) when authentication is on: no rights. */
const UNAUTHENTICATED: Principal = Object.freeze({ userId: DEFAULT_USER_ID, admin: false, authenticated: false });

/** Paths that never need a key (liveness and health probes). */
export const PUBLIC_PATHS: ReadonlySet<string> = new Set(["/health", "/ok"]);

/** The 401 detail. */
export const UNAUTHORIZED_MESSAGE = "Missing or invalid API key.";

/**
 * Decorates requests with `principal` and, when `auth` is given, rejects every
 * request without a valid key with 401 `{"detail": "Missing or invalid API key."}`,
 * except `GET /health`, `GET /ok`, `OPTIONS` (CORS preflight) and public routes. Unknown routes
 * answer 401 too, so routes cannot be discovered anonymously.
 *
 * @param app - the root instance.
 * @param auth - the keys; without them every caller is admin user `default`.
 * @throws GatewayError `CONFIG_INVALID` for bad key configuration.
 */
export function installAuth(app: FastifyInstance, auth: AuthOptions | undefined): void {
  // Fastify 5 refuses object decorator values (they would be shared); every request sets its own.
  app.decorateRequest("principal", null as unknown as Principal);
  const ring = auth === undefined ? undefined : new ApiKeyRing(auth);
  app.addHook("onRequest", async (request) => {
    if (ring === undefined) {
      request.principal = ANONYMOUS_ADMIN;
      return;
    }
    request.principal = UNAUTHENTICATED;
    if (request.method === "OPTIONS" || PUBLIC_PATHS.has(pathOf(request.url)) || answersPublicly(request)) return;
    const key = presentedKey(request.headers);
    const principal = key === undefined ? undefined : ring.match(key);
    if (principal === undefined) throw new GatewayError("UNAUTHORIZED", UNAUTHORIZED_MESSAGE);
    request.principal = principal;
  });
}
