/**
 * The server's accounts (`auth.enabled`): the account store, the session
 * secret and the gateway's `accounts` options built from `auth:`.
 */
import { createOidcLogin, type AccountsOptions } from "@deerflow/gateway";
import { MemoryAccountStore, type AccountStore } from "@deerflow/runtime";
import type { LoadedConfig } from "../config/load-config.js";
import { loadAuthSecret } from "./auth-secret.js";
import type { ServerLogger } from "./logger.js";

/** What {@link createServerAccounts} built. */
export interface ServerAccounts {
  /** The gateway's `accounts` option. */
  readonly options: AccountsOptions;
  /** Closes the account store. */
  close(): Promise<void>;
}

/** Options of {@link createServerAccounts}. */
export interface ServerAccountsOptions {
  readonly env: NodeJS.ProcessEnv;
  readonly logger: ServerLogger;
  /**
   * Builds the account store next to the run store (same SQLite file or PostgreSQL pool).
   * Default: an in-memory store (accounts last as long as the process).
   */
  readonly createStore?: () => Promise<AccountStore>;
}

/**
 * @param loaded - the configuration.
 * @param options - environment, logger and the store factory.
 * @returns the accounts, or `undefined` when `auth.enabled` is false (the single-user mode).
 */
export async function createServerAccounts(
  loaded: LoadedConfig,
  options: ServerAccountsOptions,
): Promise<ServerAccounts | undefined> {
  const auth = loaded.config.auth;
  if (auth === undefined || !auth.enabled) return undefined;
  const { secret, source } = await loadAuthSecret(options.env, loaded.config.storage.dataDir);
  // Before the store, so a bad provider (CONFIG_INVALID) leaves nothing to close. Mounted whenever accounts
  // are on: while auth.oidc is off its routes answer DeerFlow's 404 "SSO authentication is not enabled".
  const oidc = createOidcLogin({
    settings: auth.oidc,
    secret,
    cookieSecure: auth.cookieSecure,
    logger: options.logger,
  });
  const store = options.createStore === undefined ? new MemoryAccountStore() : await options.createStore();
  options.logger.info(
    { event: "accounts", store: store.constructor.name, secret: source, registration: auth.allowRegistration },
    `accounts on: ${store.constructor.name}, session secret from ${source === "environment" ? "AUTH_JWT_SECRET" : "the data folder"}`,
  );
  return {
    options: {
      store,
      secret,
      tokenExpiryDays: auth.tokenExpiryDays,
      cookieSecure: auth.cookieSecure,
      allowedOrigins: auth.allowedOrigins,
      allowRegistration: auth.allowRegistration,
      oidcProviders: oidc.providers,
      routes: [oidc.routes],
    },
    close: () => store.close(),
  };
}
