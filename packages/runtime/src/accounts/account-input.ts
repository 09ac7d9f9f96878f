/**
 * Input checks and normalisation shared by every account store, so that the
 * memory, SQLite and PostgreSQL stores accept, reject and normalise exactly
 * the same values. Everything here is pure.
 */
import { randomUUID } from "node:crypto";
import { RuntimeError } from "../errors.js";
import type {
  ApiKeyRecord,
  CountUsersQuery,
  ListUsersQuery,
  LoginFailurePolicy,
  NewUser,
  SessionRecord,
  SystemRole,
  UserPatch,
  UserRecord,
} from "./account-store.js";

/** Longest accepted email (RFC 5321's path limit), in UTF-16 code units after normalisation. */
const MAX_EMAIL_LENGTH = 320;
/** Longest stored user agent; longer ones are cut (a header is the client's to choose). */
const MAX_USER_AGENT_LENGTH = 512;
const MAX_TEXT_LENGTH = 1024;
const MAX_NAME_LENGTH = 200;
const DEFAULT_LIST_LIMIT = 100;
const MAX_LIST_LIMIT = 1000;

/** User and key ids name folders: letters, digits, `-` and `_`, starting with a letter or digit. */
const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;
/** C0/C1 controls (NUL included) and lone surrogates, which PostgreSQL cannot store as text. */
const UNSTORABLE = /[\p{Cc}]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/u;
const ROLES: ReadonlySet<string> = new Set<SystemRole>(["admin", "user"]);

function invalid(field: string, message: string): RuntimeError {
  return new RuntimeError("INVALID_ARGUMENT", `${field} ${message}`, { details: { field } });
}

/** A non-empty string of at most `max` code units with no control character or lone surrogate. */
function checkText(value: unknown, field: string, max = MAX_TEXT_LENGTH): string {
  if (typeof value !== "string" || value.length === 0) throw invalid(field, "must be a non-empty string");
  if (value.length > max) throw invalid(field, `must be at most ${max} characters, got ${value.length}`);
  if (UNSTORABLE.test(value)) throw invalid(field, "must not contain control characters or lone surrogates");
  return value;
}

function checkNullableText(value: unknown, field: string, max = MAX_TEXT_LENGTH): string | null {
  return value === null || value === undefined ? null : checkText(value, field, max);
}

/**
 * True when `value` is a string a store could hold: lookups of anything else (a NUL character,
 * which PostgreSQL refuses in text, a lone surrogate, which it would read as U+FFFD) find nothing.
 */
export function isLookupValue(value: unknown): value is string {
  return typeof value === "string" && !UNSTORABLE.test(value);
}

/**
 * @returns a user or key id that is also a safe folder name.
 * @throws RuntimeError `INVALID_ARGUMENT` otherwise.
 */
function checkAccountId(value: unknown, field: string): string {
  if (typeof value !== "string" || !ID_PATTERN.test(value)) {
    throw invalid(field, "must be 1-128 letters, digits, '-' or '_', starting with a letter or digit");
  }
  return value;
}

/** @returns `value` if it is lowercase SHA-256 hex. */
function checkSha256Hex(value: unknown, field: string): string {
  if (typeof value !== "string" || !SHA256_HEX.test(value)) throw invalid(field, "must be lowercase SHA-256 hex");
  return value;
}

/**
 * The stored form of an email: Unicode NFC, lowercase (locale-independent), so
 * lookups are case-insensitive in every store whatever its collation.
 *
 * @throws RuntimeError `INVALID_ARGUMENT` for an empty, overlong or control-character email.
 */
function normalizeEmail(value: unknown): string {
  if (typeof value !== "string") throw invalid("email", "must be a string");
  return checkText(value.normalize("NFC").toLowerCase(), "email", MAX_EMAIL_LENGTH);
}

/** The email to look up, or `undefined` when no stored email could equal it. */
export function lookupEmail(value: unknown): string | undefined {
  try {
    return normalizeEmail(value);
  } catch {
    return undefined;
  }
}

/** 9999-12-31T23:59:59.999Z: later instants have six-digit years, whose text no longer sorts as time. */
const LATEST_TIME = 253_402_300_799_999;

/** @returns an ISO-8601 UTC string of the same instant (years 1970 to 9999, so text order is time order). */
function checkTimestamp(value: unknown, field: string): string {
  const time = typeof value === "string" ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(time)) throw invalid(field, "must be an ISO-8601 timestamp");
  if (time < 0 || time > LATEST_TIME) throw invalid(field, "must be between 1970 and 9999");
  return new Date(time).toISOString();
}

function checkNullableTimestamp(value: unknown, field: string): string | null {
  return value === null || value === undefined ? null : checkTimestamp(value, field);
}

/** @returns `at` if it is a valid date. */
export function checkDate(at: unknown, field: string): Date {
  if (!(at instanceof Date) || Number.isNaN(at.getTime())) throw invalid(field, "must be a valid Date");
  if (at.getTime() < 0 || at.getTime() > LATEST_TIME) throw invalid(field, "must be between 1970 and 9999");
  return at;
}

function checkRole(value: unknown): SystemRole {
  if (typeof value !== "string" || !ROLES.has(value)) throw invalid("systemRole", "must be 'admin' or 'user'");
  return value as SystemRole;
}

function checkBoolean(value: unknown, field: string): boolean {
  if (typeof value !== "boolean") throw invalid(field, "must be a boolean");
  return value;
}

/** A {@link NewUser} as every store writes it. */
export interface CheckedNewUser {
  userId: string;
  email: string;
  passwordHash: string | null;
  systemRole: SystemRole;
  needsSetup: boolean;
  oauthProvider: string | null;
  oauthSubject: string | null;
}

/** Checks and normalises a new user; fills a random UUID when no id is given. */
export function checkNewUser(user: NewUser): CheckedNewUser {
  if (typeof user !== "object" || user === null) throw invalid("user", "must be an object");
  const oauthProvider = checkNullableText(user.oauthProvider, "oauthProvider", MAX_NAME_LENGTH);
  const oauthSubject = checkNullableText(user.oauthSubject, "oauthSubject");
  if ((oauthProvider === null) !== (oauthSubject === null)) {
    throw invalid("oauthProvider", "and oauthSubject must be given together");
  }
  return {
    userId: user.userId === undefined ? randomUUID() : checkAccountId(user.userId, "userId"),
    email: normalizeEmail(user.email),
    passwordHash: checkNullableText(user.passwordHash, "passwordHash"),
    systemRole: checkRole(user.systemRole),
    needsSetup: user.needsSetup === undefined ? false : checkBoolean(user.needsSetup, "needsSetup"),
    oauthProvider,
    oauthSubject,
  };
}

/** A {@link UserPatch} after {@link checkUserPatch}: only the fields to change, the email normalised. */
export interface CheckedUserPatch {
  email?: string;
  passwordHash?: string | null;
  systemRole?: SystemRole;
  needsSetup?: boolean;
  disabled?: boolean;
  bumpTokenVersion?: boolean;
}

/** Checks a patch; the email comes back normalised, absent and `undefined` fields are left out. */
export function checkUserPatch(patch: UserPatch): CheckedUserPatch {
  if (typeof patch !== "object" || patch === null) throw invalid("patch", "must be an object");
  const checked: CheckedUserPatch = {};
  if (patch.email !== undefined) checked.email = normalizeEmail(patch.email);
  if (patch.passwordHash !== undefined) checked.passwordHash = checkNullableText(patch.passwordHash, "passwordHash");
  if (patch.systemRole !== undefined) checked.systemRole = checkRole(patch.systemRole);
  if (patch.needsSetup !== undefined) checked.needsSetup = checkBoolean(patch.needsSetup, "needsSetup");
  if (patch.disabled !== undefined) checked.disabled = checkBoolean(patch.disabled, "disabled");
  if (patch.bumpTokenVersion !== undefined)
    checked.bumpTokenVersion = checkBoolean(patch.bumpTokenVersion, "bumpTokenVersion");
  return checked;
}

/** The user after `patch` at `now`, as every store writes it. */
export function patchedUser(user: UserRecord, patch: CheckedUserPatch, now: string): UserRecord {
  const { bumpTokenVersion, ...fields } = patch;
  return {
    ...user,
    ...fields,
    tokenVersion: bumpTokenVersion === true ? user.tokenVersion + 1 : user.tokenVersion,
    updatedAt: now,
  };
}

function checkTokenVersion(value: unknown): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0 || value > 2_147_483_647) {
    throw invalid("tokenVersion", "must be a non-negative 32-bit integer");
  }
  return value;
}

/** Checks a session; timestamps come back as UTC ISO strings, a long user agent cut. */
export function checkSession(session: SessionRecord): SessionRecord {
  if (typeof session !== "object" || session === null) throw invalid("session", "must be an object");
  const userAgent =
    typeof session.userAgent === "string" ? session.userAgent.slice(0, MAX_USER_AGENT_LENGTH) : session.userAgent;
  return {
    sessionId: checkSha256Hex(session.sessionId, "sessionId"),
    userId: checkAccountId(session.userId, "userId"),
    tokenVersion: checkTokenVersion(session.tokenVersion),
    persistent: checkBoolean(session.persistent, "persistent"),
    createdAt: checkTimestamp(session.createdAt, "createdAt"),
    expiresAt: checkTimestamp(session.expiresAt, "expiresAt"),
    userAgent: checkNullableText(userAgent, "userAgent", MAX_USER_AGENT_LENGTH),
    ip: checkNullableText(session.ip, "ip", 64),
  };
}

/** Checks an API key; timestamps come back as UTC ISO strings. */
export function checkApiKey(key: ApiKeyRecord): ApiKeyRecord {
  if (typeof key !== "object" || key === null) throw invalid("key", "must be an object");
  return {
    keyId: checkAccountId(key.keyId, "keyId"),
    userId: checkAccountId(key.userId, "userId"),
    name: checkText(key.name, "name", MAX_NAME_LENGTH),
    prefix: checkText(key.prefix, "prefix", 32),
    keyHash: checkSha256Hex(key.keyHash, "keyHash"),
    createdAt: checkTimestamp(key.createdAt, "createdAt"),
    expiresAt: checkNullableTimestamp(key.expiresAt, "expiresAt"),
    lastUsedAt: checkNullableTimestamp(key.lastUsedAt, "lastUsedAt"),
    revokedAt: checkNullableTimestamp(key.revokedAt, "revokedAt"),
  };
}

/** Checks a login-failure counter key (an IP, an email…). */
export function checkFailureKey(key: unknown): string {
  return checkText(key, "key", MAX_TEXT_LENGTH);
}

/** Checks a lockout policy: positive integer failures, positive finite durations. */
export function checkPolicy(policy: LoginFailurePolicy): LoginFailurePolicy {
  if (typeof policy !== "object" || policy === null) throw invalid("policy", "must be an object");
  const { maxFailures, windowMs, lockMs } = policy;
  if (!Number.isSafeInteger(maxFailures) || maxFailures < 1)
    throw invalid("policy.maxFailures", "must be a positive integer");
  for (const [field, value] of [
    ["policy.windowMs", windowMs],
    ["policy.lockMs", lockMs],
  ] as const) {
    if (typeof value !== "number" || !Number.isFinite(value) || value <= 0 || value > 366 * 86_400_000) {
      throw invalid(field, "must be a positive number of milliseconds (at most a year)");
    }
  }
  return { maxFailures, windowMs: Math.ceil(windowMs), lockMs: Math.ceil(lockMs) };
}

/** `limit` and `offset` of a user list with their defaults. */
export function checkListUsers(query: ListUsersQuery = {}): { limit: number; offset: number } {
  const limit = query.limit ?? DEFAULT_LIST_LIMIT;
  const offset = query.offset ?? 0;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_LIST_LIMIT) {
    throw invalid("limit", `must be an integer from 1 to ${MAX_LIST_LIMIT}`);
  }
  if (!Number.isSafeInteger(offset) || offset < 0) throw invalid("offset", "must be a non-negative integer");
  return { limit, offset };
}

/** The role filter of a count, checked. */
export function checkCountUsers(query: CountUsersQuery = {}): SystemRole | undefined {
  return query.systemRole === undefined ? undefined : checkRole(query.systemRole);
}
