/**
 * `MemoryAccountStore`: the account store of a single process. Every method
 * runs to completion without awaiting, so it is atomic with respect to every
 * other call; records go in and out as copies.
 */
import { RuntimeError } from "../errors.js";
import { silentLogger, type Logger } from "../logger.js";
import {
  alreadyInitialized,
  apiKeyExists,
  emailExists,
  oauthIdentityExists,
  sessionExists,
  userNotFound,
} from "./account-errors.js";
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
} from "./account-input.js";
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
} from "./account-store.js";
import { failureState, lockedUntilAt, nextFailureCounter, type FailureCounter } from "./login-failures.js";

/** Options of {@link MemoryAccountStore}. */
export interface MemoryAccountStoreOptions {
  /** Receives debug records of account changes (ids only, never emails or hashes). Default: silent. */
  logger?: Logger;
  /** Clock for timestamps and expiry. Default: `() => new Date()`. */
  now?: () => Date;
}

/**
 * An {@link AccountStore} in process memory, for a single server instance
 * without a database, and for tests. It behaves exactly like the SQLite and
 * PostgreSQL stores (the conformance kit checks all three) but forgets every
 * user when the process exits.
 *
 * @example
 * ```ts
 * const accounts = new MemoryAccountStore();
 * const admin = await accounts.createFirstAdmin({ email: "Ada@Example.com", passwordHash: hash, systemRole: "admin" });
 * // admin.email === "ada@example.com"
 * ```
 */
export class MemoryAccountStore implements AccountStore {
  private readonly users = new Map<string, UserRecord>();
  private readonly sessions = new Map<string, SessionRecord>();
  /** Keys by hash (the lookup of every authenticated request). */
  private readonly apiKeys = new Map<string, ApiKeyRecord>();
  /** Key hashes by key id. */
  private readonly keyHashes = new Map<string, string>();
  private readonly failures = new Map<string, FailureCounter>();
  private readonly logger: Logger;
  private readonly clock: () => Date;
  /** Distinguishes users created in the same millisecond, so lists keep creation order. */
  private readonly order = new Map<string, number>();
  private seq = 0;
  private closed = false;

  /** @param options - logger and clock. */
  constructor(options: MemoryAccountStoreOptions = {}) {
    this.logger = options.logger ?? silentLogger;
    this.clock = options.now ?? (() => new Date());
  }

  async createUser(user: NewUser): Promise<UserRecord> {
    this.open();
    return { ...this.insertUser(checkNewUser(user)) };
  }

  async createFirstAdmin(user: NewUser): Promise<UserRecord> {
    this.open();
    const checked = checkNewUser(user);
    if (this.users.size > 0) throw alreadyInitialized();
    return { ...this.insertUser(checked) };
  }

  async getUser(userId: string): Promise<UserRecord | undefined> {
    this.open();
    const user = this.users.get(userId);
    return user && { ...user };
  }

  async getUserByEmail(email: string): Promise<UserRecord | undefined> {
    this.open();
    const wanted = lookupEmail(email);
    const user = wanted === undefined ? undefined : this.findByEmail(wanted);
    return user && { ...user };
  }

  async getUserByOAuth(provider: string, subject: string): Promise<UserRecord | undefined> {
    this.open();
    const user = this.findByOAuth(provider, subject);
    return user && { ...user };
  }

  async listUsers(query?: ListUsersQuery): Promise<UserRecord[]> {
    this.open();
    const { limit, offset } = checkListUsers(query);
    return [...this.users.values()]
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || this.orderOf(a) - this.orderOf(b))
      .slice(offset, offset + limit)
      .map((user) => ({ ...user }));
  }

  async countUsers(query?: CountUsersQuery): Promise<number> {
    this.open();
    const role = checkCountUsers(query);
    let count = 0;
    for (const user of this.users.values()) if (role === undefined || user.systemRole === role) count++;
    return count;
  }

  async updateUser(userId: string, patch: UserPatch): Promise<UserRecord> {
    this.open();
    const checked = checkUserPatch(patch);
    const user = this.users.get(userId);
    if (!user) throw userNotFound(userId);
    if (checked.email !== undefined && checked.email !== user.email && this.findByEmail(checked.email)) {
      throw emailExists();
    }
    const updated = patchedUser(user, checked, this.clock().toISOString());
    this.users.set(userId, updated);
    this.logger.debug({ userId, fields: Object.keys(checked) }, "account updated");
    return { ...updated };
  }

  async deleteUser(userId: string): Promise<boolean> {
    this.open();
    if (!this.users.delete(userId)) return false;
    this.order.delete(userId);
    for (const [id, session] of this.sessions) if (session.userId === userId) this.sessions.delete(id);
    for (const [hash, key] of this.apiKeys) {
      if (key.userId === userId) {
        this.apiKeys.delete(hash);
        this.keyHashes.delete(key.keyId);
      }
    }
    this.logger.debug({ userId }, "account deleted");
    return true;
  }

  async createSession(session: SessionRecord): Promise<void> {
    this.open();
    const checked = checkSession(session);
    if (!this.users.has(checked.userId)) throw userNotFound(checked.userId);
    if (this.sessions.has(checked.sessionId)) throw sessionExists();
    this.sessions.set(checked.sessionId, checked);
  }

  async getSession(sessionId: string): Promise<SessionRecord | undefined> {
    this.open();
    const session = this.sessions.get(sessionId);
    if (!session || Date.parse(session.expiresAt) <= this.clock().getTime()) return undefined;
    return { ...session };
  }

  async deleteSession(sessionId: string): Promise<boolean> {
    this.open();
    return this.sessions.delete(sessionId);
  }

  async deleteUserSessions(userId: string, options: DeleteUserSessionsOptions = {}): Promise<number> {
    this.open();
    let count = 0;
    for (const [id, session] of this.sessions) {
      if (session.userId === userId && id !== options.exceptSessionId) {
        this.sessions.delete(id);
        count++;
      }
    }
    return count;
  }

  async deleteExpiredSessions(now?: Date): Promise<number> {
    this.open();
    const at = (now === undefined ? this.clock() : checkDate(now, "now")).getTime();
    let count = 0;
    for (const [id, session] of this.sessions) {
      if (Date.parse(session.expiresAt) <= at) {
        this.sessions.delete(id);
        count++;
      }
    }
    for (const [key, counter] of this.failures) if (at >= counter.resetAt) this.failures.delete(key);
    return count;
  }

  async createApiKey(key: ApiKeyRecord): Promise<void> {
    this.open();
    const checked = checkApiKey(key);
    if (!this.users.has(checked.userId)) throw userNotFound(checked.userId);
    if (this.apiKeys.has(checked.keyHash) || this.keyHashes.has(checked.keyId)) throw apiKeyExists(checked.keyId);
    this.apiKeys.set(checked.keyHash, checked);
    this.keyHashes.set(checked.keyId, checked.keyHash);
  }

  async findApiKey(keyHash: string): Promise<ApiKeyRecord | undefined> {
    this.open();
    const key = this.apiKeys.get(keyHash);
    return key && { ...key };
  }

  async listApiKeys(userId: string): Promise<ApiKeyRecord[]> {
    this.open();
    // Map order is insertion order, which breaks createdAt ties the way the SQL stores' rowid/serial does.
    return [...this.apiKeys.values()]
      .filter((key) => key.userId === userId)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
      .map((key) => ({ ...key }));
  }

  async revokeApiKey(userId: string, keyId: string): Promise<boolean> {
    this.open();
    const key = this.findKey(keyId);
    if (!key || key.userId !== userId || key.revokedAt !== null) return false;
    key.revokedAt = this.clock().toISOString();
    this.logger.debug({ userId, keyId }, "api key revoked");
    return true;
  }

  async touchApiKey(keyId: string, at: Date): Promise<void> {
    this.open();
    const when = checkDate(at, "at").toISOString();
    const key = this.findKey(keyId);
    if (key) key.lastUsedAt = when;
  }

  async registerLoginFailure(key: string, policy: LoginFailurePolicy, now?: Date): Promise<LoginFailureState> {
    this.open();
    const checkedKey = checkFailureKey(key);
    const checkedPolicy = checkPolicy(policy);
    const at = (now === undefined ? this.clock() : checkDate(now, "now")).getTime();
    const counter = nextFailureCounter(this.failures.get(checkedKey), checkedPolicy, at);
    this.failures.set(checkedKey, counter);
    return failureState(counter);
  }

  async loginLockedUntil(key: string, now?: Date): Promise<string | null> {
    this.open();
    const at = (now === undefined ? this.clock() : checkDate(now, "now")).getTime();
    return lockedUntilAt(this.failures.get(key), at);
  }

  async clearLoginFailures(key: string): Promise<void> {
    this.open();
    this.failures.delete(key);
  }

  /** Marks the store closed; later calls fail with `CLOSED`. */
  async close(): Promise<void> {
    this.closed = true;
  }

  private open(): void {
    if (this.closed) throw new RuntimeError("CLOSED", "MemoryAccountStore is closed");
  }

  private insertUser(user: CheckedNewUser): UserRecord {
    if (this.users.has(user.userId)) {
      throw new RuntimeError("INVALID_ARGUMENT", `User id ${user.userId} is already taken`, {
        details: { userId: user.userId },
      });
    }
    if (this.findByEmail(user.email)) throw emailExists();
    if (user.oauthProvider !== null && this.findByOAuth(user.oauthProvider, user.oauthSubject ?? "")) {
      throw oauthIdentityExists(user.oauthProvider);
    }
    const now = this.clock().toISOString();
    const record: UserRecord = { ...user, tokenVersion: 0, disabled: false, createdAt: now, updatedAt: now };
    this.users.set(user.userId, record);
    this.order.set(user.userId, this.seq++);
    this.logger.debug({ userId: user.userId, systemRole: user.systemRole }, "account created");
    return record;
  }

  private orderOf(user: UserRecord): number {
    return this.order.get(user.userId) ?? 0;
  }

  private findByEmail(email: string): UserRecord | undefined {
    for (const user of this.users.values()) if (user.email === email) return user;
    return undefined;
  }

  private findByOAuth(provider: string, subject: string): UserRecord | undefined {
    for (const user of this.users.values()) {
      if (user.oauthProvider === provider && user.oauthSubject === subject) return user;
    }
    return undefined;
  }

  private findKey(keyId: string): ApiKeyRecord | undefined {
    const hash = this.keyHashes.get(keyId);
    return hash === undefined ? undefined : this.apiKeys.get(hash);
  }
}
