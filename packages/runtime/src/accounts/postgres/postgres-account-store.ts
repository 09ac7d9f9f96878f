/**
 * `PostgresAccountStore`: the account store shared by every instance of a
 * deployment, in the run store's PostgreSQL schema.
 *
 * Cross-process atomicity: uniqueness (emails, OIDC identities, session ids,
 * key hashes) is enforced by unique indexes, so of two concurrent inserts the
 * second fails with a unique violation that maps to the store's code. The
 * first admin is created under an exclusive transaction-level advisory lock
 * that every other user insert takes in shared mode: the "no user yet" check
 * and the insert cannot interleave with any other insert on any instance.
 * Read-modify-write operations (`updateUser`, `registerLoginFailure`) lock
 * their row first (`SELECT ... FOR UPDATE`).
 */
import { RuntimeError } from "../../errors.js";
import type { Logger } from "../../logger.js";
import { one, type PgDatabase, type Queryable } from "../../runs/postgres/pg-database.js";
import { isUniqueViolation } from "../../runs/postgres/pg-errors.js";
import {
  openPgStore,
  type PostgresStoreConnection,
  type PostgresStoreOptions,
} from "../../runs/postgres/pg-store-options.js";
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
  isLookupValue,
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

const STORE_NAME = "PostgresAccountStore";

/** First key of the advisory lock around user inserts ("dfus"); the second is the schema's hash. */
const USER_INSERT_LOCK_KEY = 0x64667573;

const USER_COLUMNS =
  "user_id, email, password_hash, system_role, needs_setup, token_version, oauth_provider, oauth_subject, disabled, created_at, updated_at";

/** Where the store gets its connections (typically the run store's pool). */
export type PostgresAccountStoreConnection = PostgresStoreConnection;

/** Options of {@link PostgresAccountStore}; `now` is the clock of timestamps and expiry. */
export type PostgresAccountStoreOptions = PostgresStoreOptions;

/** A `login_failures` row. */
interface FailureRow {
  failures: number;
  locked_until: Date | string | null;
  reset_at: Date | string;
}

function epochMs(value: Date | string): number {
  return typeof value === "string" ? Date.parse(value) : value.getTime();
}

function isForeignKeyViolation(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === "23503";
}

/**
 * An {@link AccountStore} on PostgreSQL (`pg`), safe to share between many
 * server instances: `users`, `user_sessions`, `user_api_keys` and
 * `login_failures` in the run store's schema. Call
 * {@link PostgresAccountStore.setup} once per process before use.
 *
 * @example
 * ```ts
 * const accounts = new PostgresAccountStore({ pool, schema: "deerflow" }); // the run store's pool and schema
 * await accounts.setup();
 * const user = await accounts.getUserByEmail("ada@example.com");
 * ```
 */
export class PostgresAccountStore implements AccountStore {
  /** The schema holding the tables. */
  readonly schema: string;
  private readonly db: PgDatabase;
  private readonly logger: Logger;
  private readonly clock: () => Date;
  private readonly users: string;
  private readonly sessions: string;
  private readonly apiKeys: string;
  private readonly failures: string;
  private closed = false;

  /**
   * @param options - a pool or a connection string, plus schema, logger, clock.
   * @throws RuntimeError `CONFIG_INVALID` for an unsafe schema name, both or neither of
   *   `pool` / `connectionString`, or a bad `maxAttempts`.
   */
  constructor(options: PostgresAccountStoreOptions) {
    const opened = openPgStore(options, STORE_NAME);
    const s = opened.quotedSchema;
    this.schema = opened.schema;
    this.logger = opened.logger;
    this.clock = opened.clock;
    this.db = opened.db;
    this.users = `${s}.users`;
    this.sessions = `${s}.user_sessions`;
    this.apiKeys = `${s}.user_api_keys`;
    this.failures = `${s}.login_failures`;
  }

  /**
   * Creates the schema and tables or migrates them to the current version.
   * Idempotent and safe to call from many processes at once.
   *
   * @throws RuntimeError `STORE_UNAVAILABLE` when the database cannot be reached or refuses the DDL.
   */
  async setup(): Promise<void> {
    await this.db.transaction("setup", (c) => migrateAccountSchema(c, this.schema, this.logger));
  }

  async createUser(user: NewUser): Promise<UserRecord> {
    const checked = checkNewUser(user);
    return this.db.transaction("createUser", async (c) => {
      await c.query("SELECT pg_advisory_xact_lock_shared($1, hashtext($2))", [USER_INSERT_LOCK_KEY, this.schema]);
      return this.insertUser(c, checked);
    });
  }

  async createFirstAdmin(user: NewUser): Promise<UserRecord> {
    const checked = checkNewUser(user);
    return this.db.transaction("createFirstAdmin", async (c) => {
      // Exclusive: waits for inserts in flight; READ COMMITTED then sees them in the next statement.
      await c.query("SELECT pg_advisory_xact_lock($1, hashtext($2))", [USER_INSERT_LOCK_KEY, this.schema]);
      if (await one(c, `SELECT 1 FROM ${this.users} LIMIT 1`, [])) throw alreadyInitialized();
      return this.insertUser(c, checked);
    });
  }

  async getUser(userId: string): Promise<UserRecord | undefined> {
    if (!this.canMatch(userId)) return undefined;
    const [row] = await this.db.read<UserRow>(
      "getUser",
      `SELECT ${USER_COLUMNS} FROM ${this.users} WHERE user_id = $1`,
      [userId],
    );
    return row && userFromRow(row);
  }

  async getUserByEmail(email: string): Promise<UserRecord | undefined> {
    const wanted = lookupEmail(email);
    if (wanted === undefined) return undefined;
    const [row] = await this.db.read<UserRow>(
      "getUserByEmail",
      `SELECT ${USER_COLUMNS} FROM ${this.users} WHERE lower(email) = lower($1)`,
      [wanted],
    );
    return row && userFromRow(row);
  }

  async getUserByOAuth(provider: string, subject: string): Promise<UserRecord | undefined> {
    if (!this.canMatch(provider, subject)) return undefined;
    const [row] = await this.db.read<UserRow>(
      "getUserByOAuth",
      `SELECT ${USER_COLUMNS} FROM ${this.users} WHERE oauth_provider = $1 AND oauth_subject = $2`,
      [provider, subject],
    );
    return row && userFromRow(row);
  }

  async listUsers(query?: ListUsersQuery): Promise<UserRecord[]> {
    const { limit, offset } = checkListUsers(query);
    const rows = await this.db.read<UserRow>(
      "listUsers",
      `SELECT ${USER_COLUMNS} FROM ${this.users} ORDER BY created_at, seq LIMIT $1 OFFSET $2`,
      [limit, offset],
    );
    return rows.map(userFromRow);
  }

  async countUsers(query?: CountUsersQuery): Promise<number> {
    const role = checkCountUsers(query);
    const [row] = await this.db.read<{ n: string }>(
      "countUsers",
      `SELECT count(*) AS n FROM ${this.users} WHERE $1::text IS NULL OR system_role = $1`,
      [role ?? null],
    );
    return Number(row?.n ?? 0);
  }

  async updateUser(userId: string, patch: UserPatch): Promise<UserRecord> {
    const checked = checkUserPatch(patch);
    if (!this.canMatch(userId)) throw userNotFound(String(userId));
    return this.db.transaction("updateUser", async (c) => {
      const row = await one<UserRow>(c, `SELECT ${USER_COLUMNS} FROM ${this.users} WHERE user_id = $1 FOR UPDATE`, [
        userId,
      ]);
      if (!row) throw userNotFound(userId);
      const user = userFromRow(row);
      const updated = patchedUser(user, checked, this.clock().toISOString());
      try {
        await c.query(
          `UPDATE ${this.users} SET email = $2, password_hash = $3, system_role = $4, needs_setup = $5, disabled = $6,
             token_version = $7, updated_at = $8 WHERE user_id = $1`,
          [
            userId,
            updated.email,
            updated.passwordHash,
            updated.systemRole,
            updated.needsSetup,
            updated.disabled,
            updated.tokenVersion,
            updated.updatedAt,
          ],
        );
      } catch (err) {
        if (isUniqueViolation(err, "users_email_key")) throw emailExists();
        throw err;
      }
      this.logger.debug({ userId, fields: Object.keys(checked) }, "account updated");
      return updated;
    });
  }

  async deleteUser(userId: string): Promise<boolean> {
    if (!this.canMatch(userId)) return false;
    // Sessions and keys go with the user (ON DELETE CASCADE, in the same statement).
    const deleted = await this.db.transaction(
      "deleteUser",
      async (c) => ((await c.query(`DELETE FROM ${this.users} WHERE user_id = $1`, [userId])).rowCount ?? 0) > 0,
    );
    if (deleted) this.logger.debug({ userId }, "account deleted");
    return deleted;
  }

  async createSession(session: SessionRecord): Promise<void> {
    const s = checkSession(session);
    await this.db.transaction("createSession", async (c) => {
      try {
        await c.query(
          `INSERT INTO ${this.sessions} (session_id, user_id, token_version, persistent, created_at, expires_at, user_agent, ip)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
          [s.sessionId, s.userId, s.tokenVersion, s.persistent, s.createdAt, s.expiresAt, s.userAgent, s.ip],
        );
      } catch (err) {
        if (isForeignKeyViolation(err)) throw userNotFound(s.userId);
        if (isUniqueViolation(err, "user_sessions_pkey")) throw sessionExists();
        throw err;
      }
    });
  }

  async getSession(sessionId: string): Promise<SessionRecord | undefined> {
    if (!this.canMatch(sessionId)) return undefined;
    const [row] = await this.db.read<SessionRow>(
      "getSession",
      `SELECT * FROM ${this.sessions} WHERE session_id = $1 AND expires_at > $2`,
      [sessionId, this.clock().toISOString()],
    );
    return row && sessionFromRow(row);
  }

  async deleteSession(sessionId: string): Promise<boolean> {
    if (!this.canMatch(sessionId)) return false;
    return this.db.transaction(
      "deleteSession",
      async (c) =>
        ((await c.query(`DELETE FROM ${this.sessions} WHERE session_id = $1`, [sessionId])).rowCount ?? 0) > 0,
    );
  }

  async deleteUserSessions(userId: string, options: DeleteUserSessionsOptions = {}): Promise<number> {
    if (!this.canMatch(userId)) return 0;
    // No session has an id that cannot be stored: excepting one keeps nothing.
    const except = isLookupValue(options.exceptSessionId) ? options.exceptSessionId : null;
    return this.db.transaction(
      "deleteUserSessions",
      async (c) =>
        (
          await c.query(`DELETE FROM ${this.sessions} WHERE user_id = $1 AND session_id IS DISTINCT FROM $2`, [
            userId,
            except,
          ])
        ).rowCount ?? 0,
    );
  }

  async deleteExpiredSessions(now?: Date): Promise<number> {
    const at = (now === undefined ? this.clock() : checkDate(now, "now")).toISOString();
    return this.db.transaction("deleteExpiredSessions", async (c) => {
      const { rowCount } = await c.query(`DELETE FROM ${this.sessions} WHERE expires_at <= $1`, [at]);
      await c.query(`DELETE FROM ${this.failures} WHERE reset_at <= $1`, [at]);
      return rowCount ?? 0;
    });
  }

  async createApiKey(key: ApiKeyRecord): Promise<void> {
    const k = checkApiKey(key);
    await this.db.transaction("createApiKey", async (c) => {
      try {
        await c.query(
          `INSERT INTO ${this.apiKeys} (key_id, user_id, name, prefix, key_hash, created_at, expires_at, last_used_at, revoked_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
          [k.keyId, k.userId, k.name, k.prefix, k.keyHash, k.createdAt, k.expiresAt, k.lastUsedAt, k.revokedAt],
        );
      } catch (err) {
        if (isForeignKeyViolation(err)) throw userNotFound(k.userId);
        if (isUniqueViolation(err, "user_api_keys_pkey") || isUniqueViolation(err, "user_api_keys_hash_key")) {
          throw apiKeyExists(k.keyId);
        }
        throw err;
      }
    });
  }

  async findApiKey(keyHash: string): Promise<ApiKeyRecord | undefined> {
    if (!this.canMatch(keyHash)) return undefined;
    const [row] = await this.db.read<ApiKeyRow>("findApiKey", `SELECT * FROM ${this.apiKeys} WHERE key_hash = $1`, [
      keyHash,
    ]);
    return row && apiKeyFromRow(row);
  }

  async listApiKeys(userId: string): Promise<ApiKeyRecord[]> {
    if (!this.canMatch(userId)) return [];
    const rows = await this.db.read<ApiKeyRow>(
      "listApiKeys",
      `SELECT * FROM ${this.apiKeys} WHERE user_id = $1 ORDER BY created_at, seq`,
      [userId],
    );
    return rows.map(apiKeyFromRow);
  }

  async revokeApiKey(userId: string, keyId: string): Promise<boolean> {
    if (!this.canMatch(userId, keyId)) return false;
    const revoked = await this.db.transaction(
      "revokeApiKey",
      async (c) =>
        ((
          await c.query(
            `UPDATE ${this.apiKeys} SET revoked_at = $3 WHERE key_id = $1 AND user_id = $2 AND revoked_at IS NULL`,
            [keyId, userId, this.clock().toISOString()],
          )
        ).rowCount ?? 0) > 0,
    );
    if (revoked) this.logger.debug({ userId, keyId }, "api key revoked");
    return revoked;
  }

  async touchApiKey(keyId: string, at: Date): Promise<void> {
    const when = checkDate(at, "at").toISOString();
    if (!this.canMatch(keyId)) return;
    // One autocommit statement, not a transaction (on the path of every API-key request); setting
    // the same time twice is harmless, so the read path's retry after a dropped connection is too.
    await this.db.read("touchApiKey", `UPDATE ${this.apiKeys} SET last_used_at = $2 WHERE key_id = $1`, [keyId, when]);
  }

  async registerLoginFailure(key: string, policy: LoginFailurePolicy, now?: Date): Promise<LoginFailureState> {
    const failureKey = checkFailureKey(key);
    const checkedPolicy = checkPolicy(policy);
    const at = (now === undefined ? this.clock() : checkDate(now, "now")).getTime();
    const counter = await this.db.transaction("registerLoginFailure", async (c) => {
      // A lapsed placeholder row gives FOR UPDATE something to lock when the key is new.
      await c.query(
        `INSERT INTO ${this.failures} (failure_key, failures, locked_until, reset_at)
         VALUES ($1, 0, NULL, to_timestamp(0)) ON CONFLICT (failure_key) DO NOTHING`,
        [failureKey],
      );
      const row = await one<FailureRow>(
        c,
        `SELECT failures, locked_until, reset_at FROM ${this.failures} WHERE failure_key = $1 FOR UPDATE`,
        [failureKey],
      );
      const next = nextFailureCounter(row && counterOf(row), checkedPolicy, at);
      await c.query(
        `UPDATE ${this.failures} SET failures = $2, locked_until = $3, reset_at = $4 WHERE failure_key = $1`,
        [
          failureKey,
          next.failures,
          next.lockedUntil === null ? null : new Date(next.lockedUntil).toISOString(),
          new Date(next.resetAt).toISOString(),
        ],
      );
      return next;
    });
    return failureState(counter);
  }

  async loginLockedUntil(key: string, now?: Date): Promise<string | null> {
    const at = (now === undefined ? this.clock() : checkDate(now, "now")).getTime();
    if (!this.canMatch(key)) return null;
    const [row] = await this.db.read<FailureRow>(
      "loginLockedUntil",
      `SELECT failures, locked_until, reset_at FROM ${this.failures} WHERE failure_key = $1`,
      [key],
    );
    return lockedUntilAt(row && counterOf(row), at);
  }

  async clearLoginFailures(key: string): Promise<void> {
    if (!this.canMatch(key)) return;
    await this.db.transaction("clearLoginFailures", (c) =>
      c.query(`DELETE FROM ${this.failures} WHERE failure_key = $1`, [key]),
    );
  }

  /** Closes the pool when the store created it; later calls fail with `CLOSED`. Idempotent. */
  async close(): Promise<void> {
    this.closed = true;
    await this.db.close();
  }

  /**
   * False when a lookup value cannot equal anything stored (NUL, control characters, lone
   * surrogates): the caller answers "not found" without a query PostgreSQL would refuse.
   *
   * @throws RuntimeError `CLOSED` after close, as the query would have.
   */
  private canMatch(...values: unknown[]): boolean {
    if (this.closed) throw new RuntimeError("CLOSED", `${STORE_NAME} is closed`);
    return values.every(isLookupValue);
  }

  /** Inserts a checked user in the caller's transaction; unique violations map to the store's codes. */
  private async insertUser(c: Queryable, user: CheckedNewUser): Promise<UserRecord> {
    const now = this.clock().toISOString();
    const record: UserRecord = { ...user, tokenVersion: 0, disabled: false, createdAt: now, updatedAt: now };
    try {
      await c.query(
        `INSERT INTO ${this.users} (${USER_COLUMNS}) VALUES ($1, $2, $3, $4, $5, 0, $6, $7, false, $8, $8)`,
        [
          record.userId,
          record.email,
          record.passwordHash,
          record.systemRole,
          record.needsSetup,
          record.oauthProvider,
          record.oauthSubject,
          now,
        ],
      );
    } catch (err) {
      if (isUniqueViolation(err, "users_email_key")) throw emailExists();
      if (isUniqueViolation(err, "users_oauth_identity")) throw oauthIdentityExists(record.oauthProvider ?? "");
      if (isUniqueViolation(err, "users_pkey")) {
        throw new RuntimeError("INVALID_ARGUMENT", `User id ${record.userId} is already taken`, {
          details: { userId: record.userId },
        });
      }
      throw err;
    }
    this.logger.debug({ userId: record.userId, systemRole: record.systemRole }, "account created");
    return record;
  }
}

function counterOf(row: FailureRow): FailureCounter {
  return {
    failures: row.failures,
    lockedUntil: row.locked_until === null ? null : epochMs(row.locked_until),
    resetAt: epochMs(row.reset_at),
  };
}
