/**
 * Tables of `PostgresAssistantStore`, in the run store's schema, with their
 * own migration list (`assistant_schema_migrations`) so that the assistant
 * store and the run store version their tables independently. Migrations are
 * append-only: a released one is never edited, a change is a new version.
 */
import type { PoolClient } from "pg";
import type { Logger } from "../logger.js";
import { quoteSchema } from "../runs/postgres/schema.js";
import type { PgMigration } from "../internal/migrations/migration.js";
import { migratePg } from "../internal/migrations/pg-migrations.js";

const MIGRATIONS: readonly PgMigration[] = [
  {
    version: 1,
    name: "assistants and their versions",
    sql: (s) => [
      `CREATE TABLE ${s}.assistants (
        assistant_id text PRIMARY KEY,
        owner text NOT NULL,
        graph_id text NOT NULL,
        name text NOT NULL,
        description text,
        config jsonb NOT NULL DEFAULT '{}'::jsonb,
        context jsonb NOT NULL DEFAULT '{}'::jsonb,
        metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
        version integer NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`,
      `CREATE INDEX assistants_owner_created_idx ON ${s}.assistants (owner, created_at)`,
      `CREATE INDEX assistants_metadata_idx ON ${s}.assistants USING gin (metadata jsonb_path_ops)`,
      `CREATE TABLE ${s}.assistant_versions (
        assistant_id text NOT NULL REFERENCES ${s}.assistants (assistant_id) ON DELETE CASCADE,
        version integer NOT NULL,
        graph_id text NOT NULL,
        name text NOT NULL,
        description text,
        config jsonb NOT NULL DEFAULT '{}'::jsonb,
        context jsonb NOT NULL DEFAULT '{}'::jsonb,
        metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (assistant_id, version)
      )`,
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
export async function migrateAssistants(
  client: Pick<PoolClient, "query">,
  schema: string,
  logger: Logger,
): Promise<number[]> {
  const plan = { storeLabel: "assistant store", table: "assistant_schema_migrations", migrations: MIGRATIONS };
  return migratePg(client, plan, schema, quoteSchema(schema), logger);
}
