/**
 * The names and attributes of the browser session's cookies, and the one place
 * that reads the `Cookie` header (parsed once per request).
 */
import { parse, serialize, type SerializeOptions } from "cookie";
import type { FastifyReply, FastifyRequest } from "fastify";

/** The signed session token (HttpOnly). */
export const ACCESS_TOKEN_COOKIE = "access_token";
/** The double-submit CSRF token (readable by the page's script). */
export const CSRF_COOKIE = "csrf_token";
/** `1` when the user chose "remember me", `0` otherwise (HttpOnly). */
export const SESSION_PERSISTENT_COOKIE = "deerflow_session_persistent";

const parsed = new WeakMap<FastifyRequest, Readonly<Record<string, string | undefined>>>();

/**
 * @param request - the request.
 * @returns its cookies by name (the first of repeated names), parsed once and memoised.
 */
export function requestCookies(request: FastifyRequest): Readonly<Record<string, string | undefined>> {
  let cookies = parsed.get(request);
  if (cookies === undefined) {
    const header = request.headers.cookie;
    cookies = typeof header === "string" && header.length > 0 ? parse(header) : {};
    parsed.set(request, cookies);
  }
  return cookies;
}

/** Attributes of a cookie the gateway sets. */
export interface CookieAttributes {
  readonly httpOnly: boolean;
  readonly secure: boolean;
  readonly sameSite: "lax" | "strict";
  /** Seconds; absent for a browser-session cookie. */
  readonly maxAgeSeconds?: number;
}

/**
 * Appends a `Set-Cookie` header (Fastify keeps every `set-cookie` value).
 *
 * @param reply - the reply.
 * @param name - the cookie's name.
 * @param value - its value (`""` with `maxAgeSeconds: 0` clears it).
 * @param attributes - see {@link CookieAttributes}.
 */
export function setCookie(reply: FastifyReply, name: string, value: string, attributes: CookieAttributes): void {
  const options: SerializeOptions = {
    path: "/",
    httpOnly: attributes.httpOnly,
    secure: attributes.secure,
    sameSite: attributes.sameSite,
  };
  if (attributes.maxAgeSeconds !== undefined) options.maxAge = attributes.maxAgeSeconds;
  reply.header("set-cookie", serialize(name, value, options));
}

/**
 * Expires the session, persistence and CSRF cookies.
 *
 * @param reply - the reply.
 * @param secure - whether they were set with `Secure`.
 */
export function clearAuthCookies(reply: FastifyReply, secure: boolean): void {
  setCookie(reply, ACCESS_TOKEN_COOKIE, "", { httpOnly: true, secure, sameSite: "lax", maxAgeSeconds: 0 });
  setCookie(reply, SESSION_PERSISTENT_COOKIE, "", { httpOnly: true, secure, sameSite: "lax", maxAgeSeconds: 0 });
  setCookie(reply, CSRF_COOKIE, "", { httpOnly: false, secure, sameSite: "strict", maxAgeSeconds: 0 });
}
