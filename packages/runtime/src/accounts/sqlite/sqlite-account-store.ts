/**
 * `SqliteAccountStore`: accounts in one SQLite file (`better-sqlite3`),
 * normally the run store's own file, through a connection of its own.
 *
 * Atomicity: every operation that reads and then writes runs in one
 * synchronous `BEGIN IMMEDIATE` transaction. Within the process nothing can
 * interleave with it (better-sqlite3 never yields to the event loop); across
 * connections sharing the file (the run store's, another process's),
 * IMMEDIATE takes the write lock before the first read, so a second writer
 * waits (up to the busy timeout) instead of acting on a stale snapshot.
 */
import { RuntimeError } from "../../errors.js";
import type { Logger } from "../../logger.js";
import type { SqliteDatabase } from "../../runs/sqlite/sqlite-database.js";
import {
  openSqliteStore,
  type SqliteStoreConnection,
  type SqliteStoreOptions,
} from "../../runs/sqlite/sqlite-store-options.js";
import {
  alreadyInitialized,
  apiKeyExists,
  emailExists,
  oauthIdentityExists,
  sessionExists,
  userNotFound,
} from "../account-errors.js";
import {
  checkApiKey,
  checkCountUsers,
  checkDate,
  checkFailureKey,
  checkListUsers,
  checkNewUser,
  checkPolicy,
  checkSession,
  checkUserPatch,
  lookupEmail,
  patchedUser,
  type CheckedNewUser,
} from "../account-input.js";
import {
  apiKeyFromRow,
  sessionFromRow,
  userFromRow,
  type ApiKeyRow,
  type SessionRow,
  type UserRow,
} from "../account-rows.js";
import type {
  AccountStore,
  ApiKeyRecord,
  CountUsersQuery,
  DeleteUserSessionsOptions,
  ListUsersQuery,
  LoginFailurePolicy,
  LoginFailureState,
  NewUser,
  SessionRecord,
  UserPatch,
  UserRecord,
} from "../account-store.js";
import { failureState, lockedUntilAt, nextFailureCounter, type FailureCounter } from "../login-failures.js";
import { migrateAccountSchema } from "./schema.js";

const STORE_NAME = "SqliteAccountStore";

/** Where the store keeps its data; give the run store's file to keep accounts beside runs. */
export type SqliteAccountStoreConnection = SqliteStoreConnection;

/** Options of {@link SqliteAccountStore}; `now` is the clock of timestamps and expiry. */
export type SqliteAccountStoreOptions = SqliteStoreOptions;

/** A `login_failures` row. */
interface FailureRow {
  failures: number;
  locked_until: number | null;
  reset_at: number;
}

const USER_COLUMNS =
  "user_id, email, password_hash, system_role, needs_setup, token_version, oauth_provider, oauth_subject, disabled, created_at, updated_at";

/**
 * An {@link AccountStore} in a SQLite file, for a single server instance: the
 * tables (`users`, `user_sessions`, `user_api_keys`, `login_failures`) sit
 * beside the run store's in the same file, versioned by their own table. The
 * schema is created or migrated on construction.
 *
 * @example
 * ```ts
 * const runs = new SqliteRunStore({ path: "./data/runs.sqlite" });
 * const accounts = new SqliteAccountStore({ path: runs.path });
 * const admin = await accounts.createFirstAdmin({ email: "ada@example.com", passwordHash: hash, systemRole: "admin" });
 * ```
 */
export class SqliteAccountStore implements AccountStore {
  /** The database file (absolute), `":memory:"`, or the caller's `database.name`. */
  readonly path: string;
  private readonly db: SqliteDatabase;
  private readonly logger: Logger;
  private readonly clock: () => Date;

  /**
   * Opens the database and creates or migrates the account tables.
   *
   * @param options - a file path or a caller's connection, plus logger, clock and busy timeout.
   * @throws RuntimeError `CONFIG_INVALID` for malformed options; `STORE_UNAVAILABLE` naming the
   *   path when the file cannot be opened or migrated.
   */
  constructor(options: SqliteAccountStoreOptions) {
    const opened = openSqliteStore(options, { storeName: STORE_NAME, migrate: migrateAccountSchema });
    this.logger = opened.logger;
    this.clock = opened.clock;
    this.db = opened.db;
    this.path = this.db.path;
  }

  /** Brings the schema to the current version (already done by the constructor; idempotent). */
  async setup(): Promise<void> {
    this.db.migrate();
  }

  async createUser(user: NewUser): Promise<UserRecord> {
    const checked = checkNewUser(user);
    return this.db.transaction("createUser", () => this.insertUser(checked));
  }

  async createFirstAdmin(user: NewUser): Promise<UserRecord> {
    const checked = checkNewUser(user);
    return this.db.transaction("createFirstAdmin", () => {
      if (this.db.get("SELECT 1 FROM users LIMIT 1") !== undefined) throw alreadyInitialized();
      return this.insertUser(checked);
    });
  }

  async getUser(userId: string): Promise<UserRecord | undefined> {
    const row = this.db.call("getUser", () =>
      this.db.get<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE user_id = ?`, userId),
    );
    return row && userFromRow(row);
  }

  async getUserByEmail(email: string): Promise<UserRecord | undefined> {
    this.db.open();
    const wanted = lookupEmail(email);
    if (wanted === undefined) return undefined;
    const row = this.db.call("getUserByEmail", () => this.userByEmail(wanted));
    return row && userFromRow(row);
  }

  async getUserByOAuth(provider: string, subject: string): Promise<UserRecord | undefined> {
    const row = this.db.call("getUserByOAuth", () => this.userByOAuth(provider, subject));
    return row && userFromRow(row);
  }

  async listUsers(query?: ListUsersQuery): Promise<UserRecord[]> {
    const { limit, offset } = checkListUsers(query);
    const rows = this.db.call("listUsers", () =>
      this.db.all<UserRow>(
        `SELECT ${USER_COLUMNS} FROM users ORDER BY created_at, seq LIMIT ? OFFSET ?`,
        limit,
        offset,
      ),
    );
    return rows.map(userFromRow);
  }

  async countUsers(query?: CountUsersQuery): Promise<number> {
    const role = checkCountUsers(query);
    const row = this.db.call("countUsers", () =>
      role === undefined
        ? this.db.get<{ n: number }>("SELECT count(*) AS n FROM users")
        : this.db.get<{ n: number }>("SELECT count(*) AS n FROM users WHERE system_role = ?", role),
    );
    return row?.n ?? 0;
  }

  async updateUser(userId: string, patch: UserPatch): Promise<UserRecord> {
    const checked = checkUserPatch(patch);
    return this.db.transaction("updateUser", () => {
      const row = this.db.get<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE user_id = ?`, userId);
      if (!row) throw userNotFound(userId);
      const user = userFromRow(row);
      if (checked.email !== undefined && checked.email !== user.email && this.userByEmail(checked.email)) {
        throw emailExists();
      }
      const updated = patchedUser(user, checked, this.clock().toISOString());
      this.db.run(
        `UPDATE users SET email = ?, password_hash = ?, system_role = ?, needs_setup = ?, disabled = ?,
           token_version = ?, updated_at = ? WHERE user_id = ?`,
        updated.email,
        updated.passwordHash,
        updated.systemRole,
        updated.needsSetup ? 1 : 0,
        updated.disabled ? 1 : 0,
        updated.tokenVersion,
        updated.updatedAt,
        userId,
      );
      this.logger.debug({ userId, fields: Object.keys(checked) }, "account updated");
      return updated;
    });
  }

  async deleteUser(userId: string): Promise<boolean> {
    return this.db.transaction("deleteUser", () => {
      // Explicit, not only ON DELETE CASCADE: a caller's connection may run with foreign keys off.
      this.db.run("DELETE FROM user_sessions WHERE user_id = ?", userId);
      this.db.run("DELETE FROM user_api_keys WHERE user_id = ?", userId);
      const deleted = this.db.run("DELETE FROM users WHERE user_id = ?", userId).changes > 0;
      if (deleted) this.logger.debug({ userId }, "account deleted");
      return deleted;
    });
  }

  async createSession(session: SessionRecord): Promise<void> {
    const s = checkSession(session);
    this.db.transaction("createSession", () => {
      if (this.db.get("SELECT 1 FROM users WHERE user_id = ?", s.userId) === undefined) throw userNotFound(s.userId);
      if (this.db.get("SELECT 1 FROM user_sessions WHERE session_id = ?", s.sessionId) !== undefined) {
        throw sessionExists();
      }
      this.db.run(
        `INSERT INTO user_sessions (session_id, user_id, token_version, persistent, created_at, expires_at, user_agent, ip)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        s.sessionId,
        s.userId,
        s.tokenVersion,
        s.persistent ? 1 : 0,
        s.createdAt,
        s.expiresAt,
        s.userAgent,
        s.ip,
      );
    });
  }

  async getSession(sessionId: string): Promise<SessionRecord | undefined> {
    const row = this.db.call("getSession", () =>
      this.db.get<SessionRow>(
        "SELECT * FROM user_sessions WHERE session_id = ? AND expires_at > ?",
        sessionId,
        this.clock().toISOString(),
      ),
    );
    return row && sessionFromRow(row);
  }

  async deleteSession(sessionId: string): Promise<boolean> {
    return this.db.call(
      "deleteSession",
      () => this.db.run("DELETE FROM user_sessions WHERE session_id = ?", sessionId).changes > 0,
    );
  }

  async deleteUserSessions(userId: string, options: DeleteUserSessionsOptions = {}): Promise<number> {
    return this.db.call(
      "deleteUserSessions",
      () =>
        this.db.run(
          "DELETE FROM user_sessions WHERE user_id = ? AND session_id IS NOT ?",
          userId,
          options.exceptSessionId ?? null,
        ).changes,
    );
  }

  async deleteExpiredSessions(now?: Date): Promise<number> {
    const at = now === undefined ? this.clock() : checkDate(now, "now");
    return this.db.transaction("deleteExpiredSessions", () => {
      const { changes } = this.db.run("DELETE FROM user_sessions WHERE expires_at <= ?", at.toISOString());
      this.db.run("DELETE FROM login_failures WHERE reset_at <= ?", at.getTime());
      return changes;
    });
  }

  async createApiKey(key: ApiKeyRecord): Promise<void> {
    const k = checkApiKey(key);
    this.db.transaction("createApiKey", () => {
      if (this.db.get("SELECT 1 FROM users WHERE user_id = ?", k.userId) === undefined) throw userNotFound(k.userId);
      if (this.db.get("SELECT 1 FROM user_api_keys WHERE key_id = ? OR key_hash = ?", k.keyId, k.keyHash)) {
        throw apiKeyExists(k.keyId);
      }
      this.db.run(
        `INSERT INTO user_api_keys (key_id, user_id, name, prefix, key_hash, created_at, expires_at, last_used_at, revoked_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        k.keyId,
        k.userId,
        k.name,
        k.prefix,
        k.keyHash,
        k.createdAt,
        k.expiresAt,
        k.lastUsedAt,
        k.revokedAt,
      );
    });
  }

  async findApiKey(keyHash: string): Promise<ApiKeyRecord | undefined> {
    const row = this.db.call("findApiKey", () =>
      this.db.get<ApiKeyRow>("SELECT * FROM user_api_keys WHERE key_hash = ?", keyHash),
    );
    return row && apiKeyFromRow(row);
  }

  async listApiKeys(userId: string): Promise<ApiKeyRecord[]> {
    const rows = this.db.call("listApiKeys", () =>
      this.db.all<ApiKeyRow>("SELECT * FROM user_api_keys WHERE user_id = ? ORDER BY created_at, seq", userId),
    );
    return rows.map(apiKeyFromRow);
  }

  async revokeApiKey(userId: string, keyId: string): Promise<boolean> {
    const revoked = this.db.call(
      "revokeApiKey",
      () =>
        this.db.run(
          "UPDATE user_api_keys SET revoked_at = ? WHERE key_id = ? AND user_id = ? AND revoked_at IS NULL",
          this.clock().toISOString(),
          keyId,
          userId,
        ).changes > 0,
    );
    if (revoked) this.logger.debug({ userId, keyId }, "api key revoked");
    return revoked;
  }

  async touchApiKey(keyId: string, at: Date): Promise<void> {
    const when = checkDate(at, "at").toISOString();
    this.db.call("touchApiKey", () =>
      this.db.run("UPDATE user_api_keys SET last_used_at = ? WHERE key_id = ?", when, keyId),
    );
  }

  async registerLoginFailure(key: string, policy: LoginFailurePolicy, now?: Date): Promise<LoginFailureState> {
    const failureKey = checkFailureKey(key);
    const checkedPolicy = checkPolicy(policy);
    const at = (now === undefined ? this.clock() : checkDate(now, "now")).getTime();
    const counter = this.db.transaction("registerLoginFailure", () => {
      const next = nextFailureCounter(this.failureCounter(failureKey), checkedPolicy, at);
      this.db.run(
        `INSERT INTO login_failures (failure_key, failures, locked_until, reset_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (failure_key) DO UPDATE SET
           failures = excluded.failures, locked_until = excluded.locked_until, reset_at = excluded.reset_at`,
        failureKey,
        next.failures,
        next.lockedUntil,
        next.resetAt,
      );
      return next;
    });
    return failureState(counter);
  }

  async loginLockedUntil(key: string, now?: Date): Promise<string | null> {
    const at = (now === undefined ? this.clock() : checkDate(now, "now")).getTime();
    return lockedUntilAt(
      this.db.call("loginLockedUntil", () => this.failureCounter(key)),
      at,
    );
  }

  async clearLoginFailures(key: string): Promise<void> {
    this.db.call("clearLoginFailures", () => this.db.run("DELETE FROM login_failures WHERE failure_key = ?", key));
  }

  /** Closes the database when the store opened it; later calls fail with `CLOSED`. Idempotent. */
  async close(): Promise<void> {
    this.db.close();
  }

  /** Inserts a checked user inside the caller's transaction, refusing taken ids, emails and identities. */
  private insertUser(user: CheckedNewUser): UserRecord {
    if (this.db.get("SELECT 1 FROM users WHERE user_id = ?", user.userId) !== undefined) {
      throw new RuntimeError("INVALID_ARGUMENT", `User id ${user.userId} is already taken`, {
        details: { userId: user.userId },
      });
    }
    if (this.userByEmail(user.email)) throw emailExists();
    if (user.oauthProvider !== null && this.userByOAuth(user.oauthProvider, user.oauthSubject ?? "")) {
      throw oauthIdentityExists(user.oauthProvider);
    }
    const now = this.clock().toISOString();
    const record: UserRecord = { ...user, tokenVersion: 0, disabled: false, createdAt: now, updatedAt: now };
    this.db.run(
      `INSERT INTO users (${USER_COLUMNS}) VALUES (?, ?, ?, ?, ?, 0, ?, ?, 0, ?, ?)`,
      record.userId,
      record.email,
      record.passwordHash,
      record.systemRole,
      record.needsSetup ? 1 : 0,
      record.oauthProvider,
      record.oauthSubject,
      now,
      now,
    );
    this.logger.debug({ userId: record.userId, systemRole: record.systemRole }, "account created");
    return record;
  }

  private userByEmail(email: string): UserRow | undefined {
    return this.db.get<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE email = ?`, email);
  }

  private userByOAuth(provider: string, subject: string): UserRow | undefined {
    return this.db.get<UserRow>(
      `SELECT ${USER_COLUMNS} FROM users WHERE oauth_provider = ? AND oauth_subject = ?`,
      provider,
      subject,
    );
  }

  private failureCounter(key: string): FailureCounter | undefined {
    const row = this.db.get<FailureRow>(
      "SELECT failures, locked_until, reset_at FROM login_failures WHERE failure_key = ?",
      key,
    );
    return row && { failures: row.failures, lockedUntil: row.locked_until, resetAt: row.reset_at };
  }
}
