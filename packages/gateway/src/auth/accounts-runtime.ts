/**
 * The accounts' working parts, built once from {@link AccountsOptions} and
 * shared by the authentication hook and the auth routes.
 */
import type { AccountStore, LoginFailurePolicy } from "@deerflow/runtime";
import type { FastifyBaseLogger } from "fastify";
import { GatewayError } from "../errors.js";
import { AccountAuthenticator } from "./account-authenticator.js";
import type { AccountsOptions } from "./accounts-options.js";
import { CookieSessionIssuer } from "./cookie-session-issuer.js";
import { PasswordHasher } from "./password-hasher.js";
import { allowedOriginSet } from "./request-origin.js";
import type { SessionIssuer } from "./session-issuer.js";
import {
  DEFAULT_TOKEN_EXPIRY_DAYS,
  MAX_TOKEN_EXPIRY_DAYS,
  MIN_TOKEN_EXPIRY_DAYS,
  type SessionSettings,
} from "./session-settings.js";

/** DeerFlow's lockout: 5 failures lock a client address for 300 s (counted over 15 minutes). */
export const DEFAULT_LOGIN_FAILURE_POLICY: LoginFailurePolicy = Object.freeze({
  maxFailures: 5,
  windowMs: 15 * 60_000,
  lockMs: 300_000,
});

/** Shortest accepted session secret in bytes. */
export const MIN_SECRET_BYTES = 32;

/** The built parts. */
export interface AccountsRuntime {
  readonly options: AccountsOptions;
  readonly store: AccountStore;
  readonly settings: SessionSettings;
  readonly authenticator: AccountAuthenticator;
  readonly issuer: SessionIssuer;
  readonly hasher: PasswordHasher;
  readonly allowedOrigins: ReadonlySet<string>;
  readonly allowRegistration: boolean;
  readonly loginFailurePolicy: LoginFailurePolicy;
}

/**
 * @param options - the accounts options.
 * @param log - the gateway's logger.
 * @throws GatewayError `CONFIG_INVALID` for a short secret or a token lifetime outside 1..30 days.
 */
export function createAccountsRuntime(options: AccountsOptions, log?: FastifyBaseLogger): AccountsRuntime {
  const secretBytes =
    typeof options.secret === "string" ? Buffer.byteLength(options.secret, "utf8") : options.secret.byteLength;
  if (secretBytes < MIN_SECRET_BYTES) {
    throw new GatewayError("CONFIG_INVALID", `accounts.secret must be at least ${MIN_SECRET_BYTES} bytes`);
  }
  const days = options.tokenExpiryDays ?? DEFAULT_TOKEN_EXPIRY_DAYS;
  if (!Number.isInteger(days) || days < MIN_TOKEN_EXPIRY_DAYS || days > MAX_TOKEN_EXPIRY_DAYS) {
    throw new GatewayError(
      "CONFIG_INVALID",
      `accounts.tokenExpiryDays must be an integer from ${MIN_TOKEN_EXPIRY_DAYS} to ${MAX_TOKEN_EXPIRY_DAYS}, got ${String(days)}`,
    );
  }
  const settings: SessionSettings = {
    secret: options.secret,
    lifetimeSeconds: days * 24 * 3600,
    cookieSecure: options.cookieSecure === true,
    now: options.now ?? (() => new Date()),
  };
  return {
    options,
    store: options.store,
    settings,
    authenticator: new AccountAuthenticator(options.store, settings, log),
    issuer: new CookieSessionIssuer(options.store, settings),
    hasher: options.passwordHasher ?? new PasswordHasher(),
    allowedOrigins: allowedOriginSet(options.allowedOrigins),
    allowRegistration: options.allowRegistration !== false,
    loginFailurePolicy: options.loginFailurePolicy ?? DEFAULT_LOGIN_FAILURE_POLICY,
  };
}
