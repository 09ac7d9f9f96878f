/**
 * Schema of `PostgresAccountStore` and its migrations, in the run store's
 * schema beside its tables. The run store's `schema_migrations` table is its
 * own, so the account tables keep their versions in
 * `account_schema_migrations`. Migrations are append-only: a released one is
 * never edited, a change is a new version.
 */
import type { PoolClient } from "pg";
import type { Logger } from "../../logger.js";
import { quoteSchema } from "../../runs/postgres/schema.js";
import type { PgMigration } from "../../internal/migrations/migration.js";
import { migratePg } from "../../internal/migrations/pg-migrations.js";

/** Every migration in version order. */
const MIGRATIONS: readonly PgMigration[] = [
  {
    version: 1,
    name: "users, sessions, api keys, login failures",
    sql: (s) => [
      `CREATE TABLE ${s}.users (
        user_id text PRIMARY KEY,
        -- Orders users created within one clock tick (listUsers is by creation).
        seq bigserial NOT NULL UNIQUE,
        email text NOT NULL,
        password_hash text,
        system_role text NOT NULL CHECK (system_role IN ('admin', 'user')),
        needs_setup boolean NOT NULL DEFAULT false,
        token_version integer NOT NULL DEFAULT 0,
        oauth_provider text,
        oauth_subject text,
        disabled boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CHECK ((oauth_provider IS NULL) = (oauth_subject IS NULL))
      )`,
      // Emails are stored lowercase already; the index on lower() keeps them unique even if a row is written by hand.
      `CREATE UNIQUE INDEX users_email_key ON ${s}.users (lower(email))`,
      `CREATE UNIQUE INDEX users_oauth_identity ON ${s}.users (oauth_provider, oauth_subject) WHERE oauth_provider IS NOT NULL`,
      `CREATE INDEX users_created_idx ON ${s}.users (created_at, seq)`,
      `CREATE TABLE ${s}.user_sessions (
        session_id text PRIMARY KEY,
        user_id text NOT NULL REFERENCES ${s}.users (user_id) ON DELETE CASCADE,
        token_version integer NOT NULL,
        persistent boolean NOT NULL,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        user_agent text,
        ip text
      )`,
      `CREATE INDEX user_sessions_user_idx ON ${s}.user_sessions (user_id)`,
      `CREATE INDEX user_sessions_expires_idx ON ${s}.user_sessions (expires_at)`,
      `CREATE TABLE ${s}.user_api_keys (
        key_id text PRIMARY KEY,
        seq bigserial NOT NULL UNIQUE,
        user_id text NOT NULL REFERENCES ${s}.users (user_id) ON DELETE CASCADE,
        name text NOT NULL,
        prefix text NOT NULL,
        key_hash text NOT NULL,
        created_at timestamptz NOT NULL,
        expires_at timestamptz,
        last_used_at timestamptz,
        revoked_at timestamptz
      )`,
      `CREATE UNIQUE INDEX user_api_keys_hash_key ON ${s}.user_api_keys (key_hash)`,
      `CREATE INDEX user_api_keys_user_idx ON ${s}.user_api_keys (user_id, created_at, seq)`,
      `CREATE TABLE ${s}.login_failures (
        failure_key text PRIMARY KEY,
        failures integer NOT NULL,
        locked_until timestamptz,
        reset_at timestamptz NOT NULL
      )`,
      `CREATE INDEX login_failures_reset_idx ON ${s}.login_failures (reset_at)`,
    ],
  },
];

/**
 * Creates the schema and applies missing migrations inside the caller's
 * transaction, under the setup lock every store of the schema takes (see
 * `migratePg`).
 *
 * @returns The versions applied by this call.
 */
export async function migrateAccountSchema(
  client: Pick<PoolClient, "query">,
  schema: string,
  logger: Logger,
): Promise<number[]> {
  const plan = { storeLabel: "account store", table: "account_schema_migrations", migrations: MIGRATIONS };
  return migratePg(client, plan, schema, quoteSchema(schema, "PostgresAccountStore"), logger);
}
