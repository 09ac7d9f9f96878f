/**
 * The durable home of accounts: users, login sessions, per-user API keys and
 * login-failure counters. It lives in the run store's database (SQLite on one
 * instance, PostgreSQL when scaled out) so that every server instance sees the
 * same users and sessions. `MemoryAccountStore`, `SqliteAccountStore` and
 * `PostgresAccountStore` implement it; `accountStoreConformance` (from
 * `@deerflow/runtime/testing`) checks a plugin implementation.
 *
 * The store holds hashes only: a session is keyed by the SHA-256 of its cookie
 * token and an API key by the SHA-256 of the key, so a leaked database grants
 * nothing. Password hashing, token signing and policy live in the gateway.
 */

/** A user's system-wide role. */
export type SystemRole = "admin" | "user";

/** A stored user. Timestamps are ISO-8601 UTC strings. */
export interface UserRecord {
  /** UUID; also a valid folder name (the user's data folder is named after it). */
  userId: string;
  /** Stored lowercase (Unicode NFC), unique across users. */
  email: string;
  /** The password hash, or `null` for users who sign in through OIDC only. */
  passwordHash: string | null;
  systemRole: SystemRole;
  /** The user must finish setup (change the generated password or email) before doing anything else. */
  needsSetup: boolean;
  /** Bumped on password change; sessions carry the version they were issued under, so older ones stop working. */
  tokenVersion: number;
  /** OIDC provider id, or `null` for local users. */
  oauthProvider: string | null;
  /** OIDC subject; unique per provider. */
  oauthSubject: string | null;
  /** A disabled user cannot sign in; their data stays. */
  disabled: boolean;
  createdAt: string;
  updatedAt: string;
}

/** Input of {@link AccountStore.createUser} and {@link AccountStore.createFirstAdmin}. */
export interface NewUser {
  /** Default: a random UUID. */
  userId?: string | undefined;
  /** Normalised (NFC, lowercase) before it is stored. */
  email: string;
  passwordHash: string | null;
  systemRole: SystemRole;
  /** Default `false`. */
  needsSetup?: boolean | undefined;
  /** Give both or neither. */
  oauthProvider?: string | null;
  oauthSubject?: string | null;
}

/** Changes of {@link AccountStore.updateUser}; absent fields stay as they are. */
export interface UserPatch {
  email?: string | undefined;
  passwordHash?: string | null | undefined;
  systemRole?: SystemRole | undefined;
  needsSetup?: boolean | undefined;
  disabled?: boolean | undefined;
  /** Increments `tokenVersion` by one, invalidating every session issued before. */
  bumpTokenVersion?: boolean | undefined;
}

/** A login session. Timestamps are ISO-8601 strings (normalised to UTC when stored). */
export interface SessionRecord {
  /** SHA-256 hex of the cookie token, never the token itself. */
  sessionId: string;
  userId: string;
  /** The user's `tokenVersion` when the session was issued. */
  tokenVersion: number;
  /** `remember me`: a persistent cookie rather than a browser-session one. */
  persistent: boolean;
  createdAt: string;
  expiresAt: string;
  userAgent: string | null;
  ip: string | null;
}

/** A per-user API key for programs. Only its hash is stored. */
export interface ApiKeyRecord {
  keyId: string;
  userId: string;
  /** The owner's label for the key. */
  name: string;
  /** The first characters of the key, shown in lists so the owner can tell keys apart. */
  prefix: string;
  /** SHA-256 hex of the key. */
  keyHash: string;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** How many failed logins lock a key (an IP, an email) out, and for how long. */
export interface LoginFailurePolicy {
  /** Failures within one window that lock the key; a positive integer. */
  maxFailures: number;
  /** Length of the counting window, from the first failure, in milliseconds. */
  windowMs: number;
  /** Length of the lockout in milliseconds. */
  lockMs: number;
}

/** The state of a login-failure counter after {@link AccountStore.registerLoginFailure}. */
export interface LoginFailureState {
  /** Failures in the current window (or lockout). */
  failures: number;
  /** ISO-8601 end of the lockout, or `null` while not locked. */
  lockedUntil: string | null;
}

/** Pagination of {@link AccountStore.listUsers}. */
export interface ListUsersQuery {
  /** Default 100, at most 1000. */
  limit?: number | undefined;
  /** Default 0. */
  offset?: number | undefined;
}

/** Filter of {@link AccountStore.countUsers}. */
export interface CountUsersQuery {
  systemRole?: SystemRole | undefined;
}

/** Options of {@link AccountStore.deleteUserSessions}. */
export interface DeleteUserSessionsOptions {
  /** Keep this session (the caller's own, e.g. after a password change). */
  exceptSessionId?: string | undefined;
}

/**
 * Users, sessions, API keys and login-failure counters. Every method is atomic
 * with respect to concurrent callers on one instance or many. Failures are
 * `RuntimeError`s with the codes named on each method; bad input fails with
 * `INVALID_ARGUMENT`, a closed store with `CLOSED`, a failing database with
 * `STORE_UNAVAILABLE`. Records go in and out as copies.
 */
export interface AccountStore {
  /**
   * Adds a user. Fails with `EMAIL_EXISTS` when the (normalised) email is taken, also when
   * a concurrent call takes it first, and with `OAUTH_IDENTITY_EXISTS` when the
   * provider/subject pair is taken.
   */
  createUser(user: NewUser): Promise<UserRecord>;
  /**
   * Adds the first user, atomically: only when no user exists, else `ALREADY_INITIALIZED`.
   * Of concurrent calls (on any instance) exactly one wins.
   */
  createFirstAdmin(user: NewUser): Promise<UserRecord>;
  getUser(userId: string): Promise<UserRecord | undefined>;
  /** Case-insensitive. */
  getUserByEmail(email: string): Promise<UserRecord | undefined>;
  getUserByOAuth(provider: string, subject: string): Promise<UserRecord | undefined>;
  /** Users by creation time, oldest first. */
  listUsers(query?: ListUsersQuery): Promise<UserRecord[]>;
  countUsers(query?: CountUsersQuery): Promise<number>;
  /** Applies `patch`. Fails with `USER_NOT_FOUND` or `EMAIL_EXISTS`. */
  updateUser(userId: string, patch: UserPatch): Promise<UserRecord>;
  /** Removes the user with their sessions and API keys; `false` when there was none. */
  deleteUser(userId: string): Promise<boolean>;
  /** Stores a session. Fails with `USER_NOT_FOUND` when the user does not exist. */
  createSession(session: SessionRecord): Promise<void>;
  /** The session, unless it has expired (an expired one is as good as absent). */
  getSession(sessionId: string): Promise<SessionRecord | undefined>;
  deleteSession(sessionId: string): Promise<boolean>;
  /** Removes every session of the user but `exceptSessionId`; returns how many went. */
  deleteUserSessions(userId: string, options?: DeleteUserSessionsOptions): Promise<number>;
  /**
   * Removes sessions expired at `now` (default: the clock) and returns how many went.
   * Also drops login-failure counters whose window and lockout have both lapsed.
   */
  deleteExpiredSessions(now?: Date): Promise<number>;
  /**
   * Stores an API key. Fails with `USER_NOT_FOUND` when the user does not exist and with
   * `INVALID_ARGUMENT` when the key id or hash is taken.
   */
  createApiKey(key: ApiKeyRecord): Promise<void>;
  /** The key with this hash; revoked and expired keys are returned as stored, callers decide. */
  findApiKey(keyHash: string): Promise<ApiKeyRecord | undefined>;
  /** The user's keys, oldest first, revoked ones included. */
  listApiKeys(userId: string): Promise<ApiKeyRecord[]>;
  /** Revokes the key if `userId` owns it and it is not revoked yet; `false` otherwise. */
  revokeApiKey(userId: string, keyId: string): Promise<boolean>;
  /** Records a use of the key (`lastUsedAt`); a missing key is ignored. */
  touchApiKey(keyId: string, at: Date): Promise<void>;
  /**
   * Counts one failed login for `key` and locks it once `policy.maxFailures` failures fall
   * within `policy.windowMs` of the first. Atomic under concurrency: N concurrent calls count N.
   */
  registerLoginFailure(key: string, policy: LoginFailurePolicy, now?: Date): Promise<LoginFailureState>;
  /** The end of the key's lockout, or `null` when it is not locked at `now`. */
  loginLockedUntil(key: string, now?: Date): Promise<string | null>;
  /** Forgets the key's failures (after a successful login). */
  clearLoginFailures(key: string): Promise<void>;
  /** Releases the store's resources; later calls fail with `CLOSED`. */
  close(): Promise<void>;
}
