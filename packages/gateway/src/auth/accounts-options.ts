/**
 * Options of the gateway's accounts: local users with browser sessions and
 * per-user API keys, over an {@link AccountStore}.
 */
import type { AccountStore, LoginFailurePolicy } from "@deerflow/runtime";
import type { FastifyInstance } from "fastify";
import type { PasswordHasher } from "./password-hasher.js";
import type { SessionIssuer } from "./session-issuer.js";

/** An identity provider listed by `GET /api/v1/auth/providers`. */
export interface OidcProviderInfo {
  readonly id: string;
  readonly display_name: string;
}

/** What a plugin of {@link AccountsOptions.routes} gets besides the app. */
export interface AccountsRouteContext {
  readonly store: AccountStore;
  /** Signs a user in (sets the session and CSRF cookies). */
  readonly issuer: SessionIssuer;
}

/**
 * A plugin adding routes under `/api/v1/auth` (OIDC login). Routes that must
 * answer signed-out callers carry `config: anonymousRoute()`.
 */
export type AccountsRoutePlugin = (app: FastifyInstance, context: AccountsRouteContext) => Promise<void>;

/** Options of `GatewayOptions.accounts`. */
export interface AccountsOptions {
  /** Users, sessions, API keys and login-failure counters. */
  readonly store: AccountStore;
  /** HMAC key of session cookies, at least 32 bytes; keep it stable across restarts and instances. */
  readonly secret: string | Uint8Array;
  /** Session lifetime in days, 1..30. Default 7. */
  readonly tokenExpiryDays?: number;
  /** Always set `Secure` on cookies (TLS ends at a proxy that does not send `X-Forwarded-Proto`). Default false. */
  readonly cookieSecure?: boolean;
  /**
   * Browser origins besides the server's own allowed to call the auth endpoints
   * (login, register, initialize, logout), e.g. a console on another port. `*` is never one.
   */
  readonly allowedOrigins?: readonly string[];
  /** `POST /api/v1/auth/register` is open. Default true. */
  readonly allowRegistration?: boolean;
  /** Failed logins from one client address that lock it out. Default 5 in 15 minutes lock it 300 s. */
  readonly loginFailurePolicy?: LoginFailurePolicy;
  /** The password hasher (default bcrypt cost 12). */
  readonly passwordHasher?: PasswordHasher;
  /** The clock (tests move it). Default `() => new Date()`. */
  readonly now?: () => Date;
  /** OIDC providers listed by `GET /api/v1/auth/providers`. */
  readonly oidcProviders?: () => readonly OidcProviderInfo[];
  /** More routes under `/api/v1/auth` (OIDC login). */
  readonly routes?: readonly AccountsRoutePlugin[];
}
