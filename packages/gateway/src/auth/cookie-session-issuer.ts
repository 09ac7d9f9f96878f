/**
 * {@link SessionIssuer} over an {@link AccountStore}: an opaque signed token
 * in an HttpOnly cookie, the session row keyed by the token's hash.
 */
import type { AccountStore, UserRecord } from "@deerflow/runtime";
import type { FastifyReply, FastifyRequest } from "fastify";
import { GatewayError } from "../errors.js";
import { ACCESS_TOKEN_COOKIE, SESSION_PERSISTENT_COOKIE, setCookie } from "./auth-cookies.js";
import { setCsrfCookie } from "./csrf-token.js";
import type { IssueSessionOptions, SessionIssuer } from "./session-issuer.js";
import { isLoopbackHost, isSecureRequest, type SessionSettings } from "./session-settings.js";
import { mintSessionToken } from "./session-token.js";

/** The longest `User-Agent` kept with a session. */
const MAX_USER_AGENT = 512;

/** Issues sessions into an account store (see the module comment). */
export class CookieSessionIssuer implements SessionIssuer {
  readonly #store: AccountStore;
  readonly #settings: SessionSettings;

  /**
   * @param store - where sessions are kept.
   * @param settings - secret, lifetime, cookie security and clock.
   */
  constructor(store: AccountStore, settings: SessionSettings) {
    this.#store = store;
    this.#settings = settings;
  }

  /**
   * {@inheritDoc SessionIssuer.issue}
   *
   * A session the browser already had ends. The cookie is persistent only when the user asked for it and the cookie
   * can be `Secure` or the host is loopback (DeerFlow's rule: a long-lived
   * cookie over plain HTTP on a public host is not offered).
   */
  async issue(
    request: FastifyRequest,
    reply: FastifyReply,
    user: UserRecord,
    options: IssueSessionOptions,
  ): Promise<void> {
    if (user.disabled) throw new GatewayError("FORBIDDEN", "This account is disabled");
    // The browser's previous session (another account's, or its own) ends here: a cookie is replaced, never duplicated.
    const previous = request.account?.credential;
    if (previous?.kind === "session") await this.#store.deleteSession(previous.sessionId);
    const { secret, lifetimeSeconds, cookieSecure, now } = this.#settings;
    const minted = mintSessionToken(secret);
    const issuedAt = now();
    const userAgent = request.headers["user-agent"];
    await this.#store.createSession({
      sessionId: minted.sessionId,
      userId: user.userId,
      tokenVersion: user.tokenVersion,
      persistent: options.rememberMe,
      createdAt: issuedAt.toISOString(),
      expiresAt: new Date(issuedAt.getTime() + lifetimeSeconds * 1000).toISOString(),
      userAgent: typeof userAgent === "string" ? userAgent.slice(0, MAX_USER_AGENT) : null,
      ip: request.ip,
    });
    const secure = isSecureRequest(request, cookieSecure);
    const persistent = options.rememberMe && (secure || isLoopbackHost(request));
    const maxAgeSeconds = persistent ? lifetimeSeconds : undefined;
    const lifetime = maxAgeSeconds === undefined ? {} : { maxAgeSeconds };
    setCookie(reply, ACCESS_TOKEN_COOKIE, minted.cookieValue, { httpOnly: true, secure, sameSite: "lax", ...lifetime });
    setCookie(reply, SESSION_PERSISTENT_COOKIE, options.rememberMe ? "1" : "0", {
      httpOnly: true,
      secure,
      sameSite: "lax",
      ...lifetime,
    });
    setCsrfCookie(reply, secure, maxAgeSeconds);
  }
}
