/**
 * Session lifetime and cookie security, shared by the issuer, the
 * authenticator and the CSRF check.
 */
import type { FastifyRequest } from "fastify";

/** Default and bounds of `auth.token_expiry_days` (DeerFlow's). */
export const DEFAULT_TOKEN_EXPIRY_DAYS = 7;
export const MIN_TOKEN_EXPIRY_DAYS = 1;
export const MAX_TOKEN_EXPIRY_DAYS = 30;

/** Resolved session settings. */
export interface SessionSettings {
  /** HMAC key of session cookies. */
  readonly secret: string | Uint8Array;
  /** Lifetime of a session in seconds. */
  readonly lifetimeSeconds: number;
  /** Always send cookies with `Secure` (behind a TLS-terminating proxy that does not say so). */
  readonly cookieSecure: boolean;
  /** The clock (tests move it). */
  readonly now: () => Date;
}

/**
 * @param request - the request.
 * @param cookieSecure - `auth.cookie_secure`.
 * @returns whether cookies go out with `Secure`: the request came over HTTPS
 *   (as Fastify sees it: `X-Forwarded-Proto` counts only with `trustProxy`) or the configuration says so.
 */
export function isSecureRequest(request: FastifyRequest, cookieSecure: boolean): boolean {
  return cookieSecure || request.protocol === "https";
}

/**
 * Whether the request targets a loopback host, where a persistent cookie over
 * plain HTTP is acceptable (a developer's machine). The `Host` header is the
 * browser's, so a remote attacker gains nothing by forging it.
 *
 * @param request - the request.
 */
export function isLoopbackHost(request: FastifyRequest): boolean {
  const host = request.hostname.toLowerCase();
  return (
    host === "localhost" ||
    host.endsWith(".localhost") ||
    host === "[::1]" ||
    host === "::1" ||
    /^127(?:\.\d{1,3}){3}$/.test(host)
  );
}
