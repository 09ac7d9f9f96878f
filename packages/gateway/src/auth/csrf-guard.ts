/**
 * CSRF protection of cookie-authenticated requests (DeerFlow's rules):
 *
 * - a state-changing request (POST, PUT, PATCH, DELETE) authenticated by the
 *   session cookie must echo the `csrf_token` cookie in `X-CSRF-Token`;
 * - the auth endpoints that create or end a session (login, register,
 *   initialize, logout) need no token (a first visit has none) but refuse a
 *   browser `Origin` other than the server's own or a configured one; a
 *   request without `Origin` is a non-browser client and passes;
 * - `/api/v1/auth/me` is exempt.
 *
 * Requests with an API key are not exposed to CSRF: a cross-site page cannot
 * make the browser attach a key.
 */
import type { FastifyRequest } from "fastify";
import { GatewayError } from "../errors.js";
import { pathOf } from "../http/url-path.js";
import { CSRF_COOKIE, requestCookies } from "./auth-cookies.js";
import { CSRF_HEADER, csrfTokensMatch } from "./csrf-token.js";
import { normalizeOrigin, ownOrigin } from "./request-origin.js";

/** Prefix of the auth routes. */
export const AUTH_ROUTES_PREFIX = "/api/v1/auth";

/** Endpoints checked by origin instead of token. */
export const AUTH_ENDPOINT_PATHS: ReadonlySet<string> = new Set(
  ["login/local", "logout", "register", "initialize"].map((p) => `${AUTH_ROUTES_PREFIX}/${p}`),
);

/** Paths never checked. */
export const CSRF_EXEMPT_PATHS: ReadonlySet<string> = new Set([`${AUTH_ROUTES_PREFIX}/me`]);

/** DeerFlow's 403 texts. */
export const CROSS_SITE_AUTH_MESSAGE = "Cross-site auth request denied.";
export const CSRF_MISSING_MESSAGE = "CSRF token missing. Include X-CSRF-Token header.";
export const CSRF_MISMATCH_MESSAGE = "CSRF token mismatch.";

const STATE_CHANGING: ReadonlySet<string> = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** The request's path without a trailing slash (the route pattern when one matched). */
function routePath(request: FastifyRequest): string {
  const path = pathOf(request.url);
  return path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
}

/** Whether `request` is a state-changing call to one of {@link AUTH_ENDPOINT_PATHS}. */
export function isAuthEndpointWrite(request: FastifyRequest): boolean {
  return STATE_CHANGING.has(request.method) && AUTH_ENDPOINT_PATHS.has(routePath(request));
}

/**
 * @param request - a state-changing auth endpoint request.
 * @param allowed - configured origins ({@link allowedOriginSet}).
 * @throws GatewayError `FORBIDDEN` "Cross-site auth request denied." for a foreign or malformed `Origin`.
 */
export function checkAuthOrigin(request: FastifyRequest, allowed: ReadonlySet<string>): void {
  const origin = request.headers.origin;
  if (origin === undefined || origin === "") return;
  const normalized = normalizeOrigin(origin);
  if (normalized !== undefined && (allowed.has(normalized) || normalized === ownOrigin(request))) return;
  throw new GatewayError("FORBIDDEN", CROSS_SITE_AUTH_MESSAGE);
}

/**
 * Checks the double-submit token of a cookie-authenticated request.
 *
 * @param request - the request.
 * @throws GatewayError `FORBIDDEN` with DeerFlow's texts when the token is missing or differs.
 */
export function checkCsrfToken(request: FastifyRequest): void {
  if (!STATE_CHANGING.has(request.method)) return;
  const path = routePath(request);
  if (CSRF_EXEMPT_PATHS.has(path) || AUTH_ENDPOINT_PATHS.has(path)) return;
  const cookie = requestCookies(request)[CSRF_COOKIE];
  const header = request.headers[CSRF_HEADER];
  if (cookie === undefined || cookie === "" || typeof header !== "string" || header === "") {
    throw new GatewayError("FORBIDDEN", CSRF_MISSING_MESSAGE);
  }
  if (!csrfTokensMatch(cookie, header)) throw new GatewayError("FORBIDDEN", CSRF_MISMATCH_MESSAGE);
}
