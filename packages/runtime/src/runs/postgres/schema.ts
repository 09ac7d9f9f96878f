/**
 * Schema of `PostgresRunStore` and its migrations. Migrations are append-only:
 * a released one is never edited, a change is a new version.
 */
import type { PoolClient } from "pg";
import { RuntimeError } from "../../errors.js";
import type { Logger } from "../../logger.js";
import type { PgMigration } from "../../internal/migrations/migration.js";
import { migratePg } from "../../internal/migrations/pg-migrations.js";

/** Schema used when none is configured. */
export const DEFAULT_SCHEMA = "deerflow";

/** Lowercase unquoted identifiers only, so the schema is typed the same in psql and here. */
const SAFE_IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Checks a schema name and returns it double-quoted for SQL.
 *
 * @throws RuntimeError `CONFIG_INVALID` unless the name is a lowercase identifier
 *   (`[a-z_][a-z0-9_]*`, at most 63 characters).
 */
export function quoteSchema(schema: unknown, storeName = "PostgresRunStore"): string {
  if (typeof schema !== "string" || !SAFE_IDENTIFIER.test(schema)) {
    throw new RuntimeError(
      "CONFIG_INVALID",
      `${storeName} schema must match ${SAFE_IDENTIFIER.source}, got ${JSON.stringify(schema) ?? String(schema)}`,
      {
        details: { schema },
      },
    );
  }
  return `"${schema}"`;
}

const ACTIVE = "('pending', 'running')";

/** Every migration in version order. */
const MIGRATIONS: readonly PgMigration[] = [
  {
    version: 1,
    name: "threads and runs",
    sql: (s) => [
      `CREATE TABLE ${s}.threads (
        thread_id text PRIMARY KEY,
        status text NOT NULL CHECK (status IN ('idle', 'busy', 'interrupted', 'error')),
        metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`,
      `CREATE INDEX threads_metadata_idx ON ${s}.threads USING gin (metadata jsonb_path_ops)`,
      `CREATE INDEX threads_created_at_idx ON ${s}.threads (created_at)`,
      `CREATE TABLE ${s}.runs (
        run_id text PRIMARY KEY,
        thread_id text NOT NULL REFERENCES ${s}.threads (thread_id) ON DELETE CASCADE,
        seq bigserial NOT NULL UNIQUE,
        assistant_id text NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'running', 'success', 'error', 'timeout', 'interrupted')),
        multitask_strategy text NOT NULL CHECK (multitask_strategy IN ('reject', 'interrupt', 'rollback', 'enqueue')),
        on_disconnect text NOT NULL CHECK (on_disconnect IN ('cancel', 'continue')),
        metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
        kwargs jsonb NOT NULL DEFAULT '{}'::jsonb,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        started_at timestamptz,
        ended_at timestamptz,
        error text,
        stop_reason text,
        owner_id text,
        cancel_action text CHECK (cancel_action IN ('interrupt', 'rollback'))
      )`,
      `CREATE INDEX runs_thread_seq_idx ON ${s}.runs (thread_id, seq)`,
      `CREATE INDEX runs_active_idx ON ${s}.runs (seq) WHERE status IN ${ACTIVE}`,
      `CREATE INDEX runs_ended_at_idx ON ${s}.runs (ended_at) WHERE ended_at IS NOT NULL`,
      // Safety net under the thread-row locking: a bug can never run two runs of one thread at once.
      `CREATE UNIQUE INDEX runs_one_running_per_thread ON ${s}.runs (thread_id) WHERE status = 'running'`,
    ],
  },
];

/**
 * Creates the schema and applies missing migrations inside the caller's
 * transaction, under the setup lock every store of the schema takes (see
 * `migratePg`), so that concurrent `setup()` calls (several instances starting
 * at once) apply each migration exactly once.
 *
 * @returns The versions applied by this call.
 */
export async function migrate(client: Pick<PoolClient, "query">, schema: string, logger: Logger): Promise<number[]> {
  const plan = { storeLabel: "run store", table: "schema_migrations", migrations: MIGRATIONS };
  return migratePg(client, plan, schema, quoteSchema(schema), logger);
}
