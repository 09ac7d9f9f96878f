/**
 * Resolves the account behind a request's session cookie or per-user API key.
 * Cheap on purpose: no bcrypt, a signature check before any store read, then
 * the session (or key) and its user.
 */
import type { AccountStore, ApiKeyRecord, UserRecord } from "@deerflow/runtime";
import type { FastifyBaseLogger } from "fastify";
import { GatewayError } from "../errors.js";
import { authError } from "./auth-error-detail.js";
import type { SessionSettings } from "./session-settings.js";
import { verifySessionToken } from "./session-token.js";
import { UNAUTHORIZED_MESSAGE } from "./unauthorized.js";
import { apiKeyHash, looksLikeUserApiKey } from "./user-api-key.js";

/** How an account proved itself. */
export type AccountCredential =
  | { readonly kind: "session"; readonly sessionId: string }
  | { readonly kind: "api_key"; readonly keyId: string };

/** An authenticated account, as routes see it on `request.account`. */
export interface AuthenticatedAccount {
  readonly user: UserRecord;
  readonly credential: AccountCredential;
}

/** How often a key's `lastUsedAt` is written at most. */
export const API_KEY_TOUCH_INTERVAL_MS = 60_000;

/** Looks accounts up (see the module comment). */
export class AccountAuthenticator {
  readonly #store: AccountStore;
  readonly #settings: SessionSettings;
  readonly #log: FastifyBaseLogger | undefined;

  /**
   * @param store - the account store.
   * @param settings - the session secret and clock.
   * @param log - where a failed `lastUsedAt` write is reported.
   */
  constructor(store: AccountStore, settings: SessionSettings, log?: FastifyBaseLogger) {
    this.#store = store;
    this.#settings = settings;
    this.#log = log;
  }

  /**
   * @param cookieValue - the `access_token` cookie.
   * @returns the account.
   * @throws GatewayError `UNAUTHORIZED` (`token_invalid`, `token_expired`, `user_not_found`)
   *   for a tampered, unknown, expired or revoked session, or a missing or disabled user.
   */
  async fromSessionCookie(cookieValue: string): Promise<AuthenticatedAccount> {
    const sessionId = verifySessionToken(cookieValue, this.#settings.secret);
    if (sessionId === undefined) throw authError("UNAUTHORIZED", "token_invalid", "Token error: invalid_signature");
    const session = await this.#store.getSession(sessionId);
    if (session === undefined) throw authError("UNAUTHORIZED", "token_invalid", "Session expired or signed out");
    if (Date.parse(session.expiresAt) <= this.#settings.now().getTime()) {
      throw authError("UNAUTHORIZED", "token_expired", "Token error: expired");
    }
    const user = await this.#store.getUser(session.userId);
    if (user === undefined) throw authError("UNAUTHORIZED", "user_not_found", "User not found");
    if (user.disabled) throw authError("UNAUTHORIZED", "account_disabled", "This account is disabled");
    if (user.tokenVersion !== session.tokenVersion) {
      throw authError("UNAUTHORIZED", "token_invalid", "Token revoked (password changed)");
    }
    return { user, credential: { kind: "session", sessionId } };
  }

  /**
   * @param key - a presented key that no configured key matched.
   * @returns the account of a live per-user key.
   * @throws GatewayError `UNAUTHORIZED` for an unknown, revoked or expired key or a missing or disabled user.
   */
  async fromApiKey(key: string): Promise<AuthenticatedAccount> {
    if (!looksLikeUserApiKey(key)) throw new GatewayError("UNAUTHORIZED", UNAUTHORIZED_MESSAGE);
    const record = await this.#store.findApiKey(apiKeyHash(key));
    const now = this.#settings.now();
    if (record === undefined || record.revokedAt !== null) {
      throw new GatewayError("UNAUTHORIZED", UNAUTHORIZED_MESSAGE);
    }
    if (record.expiresAt !== null && Date.parse(record.expiresAt) <= now.getTime()) {
      throw new GatewayError("UNAUTHORIZED", UNAUTHORIZED_MESSAGE);
    }
    const user = await this.#store.getUser(record.userId);
    if (user === undefined || user.disabled) throw new GatewayError("UNAUTHORIZED", UNAUTHORIZED_MESSAGE);
    this.#touch(record, now);
    return { user, credential: { kind: "api_key", keyId: record.keyId } };
  }

  /** Records the use, at most once a minute, without holding the request up. */
  #touch(record: ApiKeyRecord, now: Date): void {
    const last = record.lastUsedAt === null ? Number.NEGATIVE_INFINITY : Date.parse(record.lastUsedAt);
    if (now.getTime() - last < API_KEY_TOUCH_INTERVAL_MS) return;
    this.#store.touchApiKey(record.keyId, now).catch((err: unknown) => {
      this.#log?.warn({ err, keyId: record.keyId }, "could not record an API key's use");
    });
  }
}
