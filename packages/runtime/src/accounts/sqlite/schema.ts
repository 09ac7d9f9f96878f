/**
 * Schema of `SqliteAccountStore` and its migrations. The account tables may
 * live in the run store's file, whose `user_version` header belongs to the run
 * store, so the account schema keeps its version in a table of its own
 * (`account_schema_migrations`). Migrations are append-only: a released one is
 * never edited, a change is a new version.
 *
 * Timestamps are ISO-8601 UTC text (`toISOString`, so text order is time
 * order); login-failure times are epoch milliseconds, compared as numbers.
 */
import type Database from "better-sqlite3";
import type { Logger } from "../../logger.js";
import type { SqliteMigration } from "../../internal/migrations/migration.js";
import { migrateSqlite } from "../../internal/migrations/sqlite-migrations.js";

/** Every migration in version order. */
const MIGRATIONS: readonly SqliteMigration[] = [
  {
    version: 1,
    name: "users, sessions, api keys, login failures",
    sql: `
      -- seq orders users created within one millisecond (listUsers is by creation).
      CREATE TABLE users (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        user_id TEXT NOT NULL UNIQUE,
        -- Stored normalised (NFC, lowercase), so plain equality is case-insensitive.
        email TEXT NOT NULL UNIQUE,
        password_hash TEXT,
        system_role TEXT NOT NULL CHECK (system_role IN ('admin', 'user')),
        needs_setup INTEGER NOT NULL DEFAULT 0,
        token_version INTEGER NOT NULL DEFAULT 0,
        oauth_provider TEXT,
        oauth_subject TEXT,
        disabled INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        CHECK ((oauth_provider IS NULL) = (oauth_subject IS NULL))
      );
      CREATE UNIQUE INDEX users_oauth_identity ON users (oauth_provider, oauth_subject) WHERE oauth_provider IS NOT NULL;
      CREATE INDEX users_created_idx ON users (created_at, seq);
      CREATE TABLE user_sessions (
        session_id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
        token_version INTEGER NOT NULL,
        persistent INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        user_agent TEXT,
        ip TEXT
      );
      CREATE INDEX user_sessions_user_idx ON user_sessions (user_id);
      CREATE INDEX user_sessions_expires_idx ON user_sessions (expires_at);
      CREATE TABLE user_api_keys (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        key_id TEXT NOT NULL UNIQUE,
        user_id TEXT NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        prefix TEXT NOT NULL,
        key_hash TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL,
        expires_at TEXT,
        last_used_at TEXT,
        revoked_at TEXT
      );
      CREATE INDEX user_api_keys_user_idx ON user_api_keys (user_id, created_at, seq);
      CREATE TABLE login_failures (
        failure_key TEXT PRIMARY KEY,
        failures INTEGER NOT NULL,
        locked_until INTEGER,
        reset_at INTEGER NOT NULL
      );
      CREATE INDEX login_failures_reset_idx ON login_failures (reset_at);
    `,
  },
];

/**
 * Applies the missing migrations (see `migrateSqlite`: one `BEGIN IMMEDIATE`
 * transaction, so processes opening the same file at once migrate it once).
 *
 * @returns The versions applied by this call.
 */
export function migrateAccountSchema(db: Database.Database, logger: Logger, path: string): number[] {
  return migrateSqlite(
    db,
    { storeLabel: "account store", ledger: { table: "account_schema_migrations" }, migrations: MIGRATIONS },
    logger,
    path,
  );
}
