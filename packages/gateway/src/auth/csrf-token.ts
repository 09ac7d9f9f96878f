/**
 * The double-submit CSRF token: a random value in a cookie the page's script
 * reads and echoes in `X-CSRF-Token`. A cross-site page can make the browser
 * send the cookie but cannot read it, so it cannot send the header.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { FastifyReply } from "fastify";
import { CSRF_COOKIE, setCookie } from "./auth-cookies.js";

/** Random bytes of a CSRF token (DeerFlow's `token_urlsafe(64)`). */
const CSRF_TOKEN_BYTES = 64;

/** The header carrying the token. */
export const CSRF_HEADER = "x-csrf-token";

/** @returns a new token, base64url. */
function newCsrfToken(): string {
  return randomBytes(CSRF_TOKEN_BYTES).toString("base64url");
}

/**
 * @param a - the cookie's token.
 * @param b - the header's token.
 * @returns whether both are the same, compared in constant time.
 */
export function csrfTokensMatch(a: string, b: string): boolean {
  const x = Buffer.from(a, "utf8");
  const y = Buffer.from(b, "utf8");
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Sets a new CSRF cookie (readable by script, `SameSite=Strict`), with the
 * session cookie's lifetime so the pair is evicted together.
 *
 * @returns the token.
 */
export function setCsrfCookie(reply: FastifyReply, secure: boolean, maxAgeSeconds: number | undefined): string {
  const token = newCsrfToken();
  setCookie(reply, CSRF_COOKIE, token, {
    httpOnly: false,
    secure,
    sameSite: "strict",
    ...(maxAgeSeconds === undefined ? {} : { maxAgeSeconds }),
  });
  return token;
}
