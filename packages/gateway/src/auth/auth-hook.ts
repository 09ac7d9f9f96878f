/**
 * The authentication hook: runs first on every request (before the body is
 * read, so an anonymous client cannot make the server parse anything) and sets
 * `request.principal` (and `request.account` for a signed-in user).
 *
 * Credentials, in order: a configured API key, a per-user API key (both as
 * `Authorization: Bearer` or `X-API-Key`), the session cookie. A presented key
 * that fails is a 401 even when a cookie is present: a program that sends a
 * wrong key should learn it, not run as whoever the browser is.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { GatewayError } from "../errors.js";
import { answersPublicly } from "../http/public-routes.js";
import { pathOf } from "../http/url-path.js";
import type { AuthenticatedAccount } from "./account-authenticator.js";
import type { AccountsRuntime } from "./accounts-runtime.js";
import { allowsAnonymous } from "./anonymous-route.js";
import { ApiKeyRing, presentedKey, type AuthOptions } from "./api-keys.js";
import { ACCESS_TOKEN_COOKIE, requestCookies } from "./auth-cookies.js";
import { authError } from "./auth-error-detail.js";
import { checkAuthOrigin, checkCsrfToken, isAuthEndpointWrite } from "./csrf-guard.js";
import { ANONYMOUS_ADMIN, DEFAULT_USER_ID, type Principal } from "./principal.js";
import { NOT_AUTHENTICATED_MESSAGE, UNAUTHORIZED_MESSAGE } from "./unauthorized.js";

export { UNAUTHORIZED_MESSAGE } from "./unauthorized.js";

/** The principal of open routes (`/health`, preflight) when authentication is on: no rights. */
const UNAUTHENTICATED: Principal = Object.freeze({ userId: DEFAULT_USER_ID, admin: false, authenticated: false });

/** Paths that never need a key (liveness and health probes). */
export const PUBLIC_PATHS: ReadonlySet<string> = new Set(["/health", "/ok"]);

/**
 * @param account - a signed-in user.
 * @returns their principal: the user's id, admin right and system role.
 */
export function accountPrincipal(account: AuthenticatedAccount): Principal {
  const { user } = account;
  return Object.freeze({
    userId: user.userId,
    admin: user.systemRole === "admin",
    role: user.systemRole,
    authenticated: true,
  });
}

async function authenticateAccount(request: FastifyRequest, accounts: AccountsRuntime, open: boolean): Promise<void> {
  if (isAuthEndpointWrite(request)) checkAuthOrigin(request, accounts.allowedOrigins);
  const cookie = requestCookies(request)[ACCESS_TOKEN_COOKIE];
  if (cookie === undefined || cookie === "") {
    if (!open) throw authError("UNAUTHORIZED", "not_authenticated", NOT_AUTHENTICATED_MESSAGE);
    return;
  }
  let account: AuthenticatedAccount;
  try {
    account = await accounts.authenticator.fromSessionCookie(cookie);
  } catch (err) {
    // A stale cookie must not keep a signed-out visitor from the login page.
    if (open) return;
    throw err;
  }
  checkCsrfToken(request);
  request.account = account;
  request.principal = accountPrincipal(account);
}

/**
 * Decorates requests with `principal` and `account`. Without `auth` and
 * `accounts` every caller is admin user `default`. Otherwise every request
 * needs credentials (401; `{"detail": "Missing or invalid API key."}` for a bad
 * key, DeerFlow's `{code, message}` for a missing or bad session), except
 * `GET /health`, `GET /ok`, `OPTIONS` (CORS preflight), public routes and
 * routes marked `anonymousRoute()`. Unknown routes answer 401 too, so routes
 * cannot be discovered anonymously. Cookie-authenticated writes pass the CSRF
 * check ({@link checkCsrfToken}).
 *
 * @param app - the root instance.
 * @param auth - the configured keys.
 * @param accounts - user accounts (sessions, per-user keys).
 * @throws GatewayError `CONFIG_INVALID` for bad key configuration.
 */
export function installAuth(app: FastifyInstance, auth: AuthOptions | undefined, accounts?: AccountsRuntime): void {
  // Fastify 5 refuses object decorator values (they would be shared); every request sets its own.
  app.decorateRequest("principal", null as unknown as Principal);
  app.decorateRequest("account", null);
  const ring =
    auth === undefined || (accounts !== undefined && auth.apiKeys.length === 0) ? undefined : new ApiKeyRing(auth);
  if (ring === undefined && accounts === undefined) {
    app.addHook("onRequest", async (request) => {
      request.principal = ANONYMOUS_ADMIN;
    });
    return;
  }
  app.addHook("onRequest", async (request) => {
    request.principal = UNAUTHENTICATED;
    if (request.method === "OPTIONS" || PUBLIC_PATHS.has(pathOf(request.url)) || answersPublicly(request)) return;
    const key = presentedKey(request.headers);
    if (key !== undefined) {
      const configured = ring?.match(key);
      if (configured !== undefined) {
        request.principal = configured;
        return;
      }
      if (accounts === undefined) throw new GatewayError("UNAUTHORIZED", UNAUTHORIZED_MESSAGE);
      const account = await accounts.authenticator.fromApiKey(key);
      request.account = account;
      request.principal = accountPrincipal(account);
      return;
    }
    if (accounts === undefined) throw new GatewayError("UNAUTHORIZED", UNAUTHORIZED_MESSAGE);
    await authenticateAccount(request, accounts, allowsAnonymous(request));
  });
}

declare module "fastify" {
  interface FastifyRequest {
    /** The signed-in user and how they proved it; `null` for configured keys, open routes and without accounts. */
    account: AuthenticatedAccount | null;
  }
}
