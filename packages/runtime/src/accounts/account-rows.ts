/**
 * Mapping of account rows (PostgreSQL and SQLite) to records. SQLite returns
 * booleans as 0/1 and timestamps as the ISO text it was given; PostgreSQL
 * returns `boolean` and `timestamptz` as `Date` (or strings, when a pool's
 * type parsers were changed globally), so both shapes are accepted.
 */
import { isoOrNull, isoTimestamp as iso } from "../runs/sql-rows.js";
import type { ApiKeyRecord, SessionRecord, SystemRole, UserRecord } from "./account-store.js";

type Timestamp = Date | string;

/** A `users` row. */
export interface UserRow {
  user_id: string;
  email: string;
  password_hash: string | null;
  system_role: string;
  needs_setup: boolean | number;
  token_version: number;
  oauth_provider: string | null;
  oauth_subject: string | null;
  disabled: boolean | number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A `user_sessions` row. */
export interface SessionRow {
  session_id: string;
  user_id: string;
  token_version: number;
  persistent: boolean | number;
  created_at: Timestamp;
  expires_at: Timestamp;
  user_agent: string | null;
  ip: string | null;
}

/** A `user_api_keys` row. */
export interface ApiKeyRow {
  key_id: string;
  user_id: string;
  name: string;
  prefix: string;
  key_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp | null;
  last_used_at: Timestamp | null;
  revoked_at: Timestamp | null;
}

/** Maps a `users` row. */
export function userFromRow(row: UserRow): UserRecord {
  return {
    userId: row.user_id,
    email: row.email,
    passwordHash: row.password_hash,
    systemRole: row.system_role as SystemRole,
    needsSetup: Boolean(row.needs_setup),
    tokenVersion: Number(row.token_version),
    oauthProvider: row.oauth_provider,
    oauthSubject: row.oauth_subject,
    disabled: Boolean(row.disabled),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

/** Maps a `user_sessions` row. */
export function sessionFromRow(row: SessionRow): SessionRecord {
  return {
    sessionId: row.session_id,
    userId: row.user_id,
    tokenVersion: Number(row.token_version),
    persistent: Boolean(row.persistent),
    createdAt: iso(row.created_at),
    expiresAt: iso(row.expires_at),
    userAgent: row.user_agent,
    ip: row.ip,
  };
}

/** Maps a `user_api_keys` row. */
export function apiKeyFromRow(row: ApiKeyRow): ApiKeyRecord {
  return {
    keyId: row.key_id,
    userId: row.user_id,
    name: row.name,
    prefix: row.prefix,
    keyHash: row.key_hash,
    createdAt: iso(row.created_at),
    expiresAt: isoOrNull(row.expires_at),
    lastUsedAt: isoOrNull(row.last_used_at),
    revokedAt: isoOrNull(row.revoked_at),
  };
}
