/**
 * Tables of `PostgresAssistantStore`, in the run store's schema, with their
 * own migration list (`assistant_schema_migrations`) so that the assistant
 * store and the run store version their tables independently. Migrations are
 * append-only: a released one is never edited, a change is a new version.
 */
import type { PoolClient } from "pg";
import type { Logger } from "../logger.js";
import { quoteSchema, SETUP_LOCK_KEY } from "../runs/postgres/schema.js";

interface Migration {
  version: number;
  name: string;
  /** Statements, given the quoted schema. */
  sql: (s: string) => string[];
}

const MIGRATIONS: readonly Migration[] = [
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

const SCHEMA_VERSION = MIGRATIONS.at(-1)?.version ?? 0;

/**
 * Creates the schema and applies missing migrations inside the caller's
 * transaction, under the run store's transaction-level advisory lock of the
 * schema, so that instances starting at once apply each migration exactly
 * once and never race the run store's own `CREATE SCHEMA`.
 *
 * @returns The versions applied by this call.
 */
export async function migrateAssistants(
  client: Pick<PoolClient, "query">,
  schema: string,
  logger: Logger,
): Promise<number[]> {
  const s = quoteSchema(schema);
  await client.query("SELECT pg_advisory_xact_lock($1, hashtext($2))", [SETUP_LOCK_KEY, schema]);
  await client.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
  await client.query(`CREATE TABLE IF NOT EXISTS ${s}.assistant_schema_migrations (
    version integer PRIMARY KEY,
    name text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`);
  const { rows } = await client.query<{ version: number | null }>(
    `SELECT max(version) AS version FROM ${s}.assistant_schema_migrations`,
  );
  const current = rows[0]?.version ?? 0;
  if (current > SCHEMA_VERSION) {
    logger.warn(
      { schema, current, known: SCHEMA_VERSION },
      "assistant store schema is newer than this code; leaving it unchanged",
    );
    return [];
  }
  const applied: number[] = [];
  for (const migration of MIGRATIONS) {
    if (migration.version <= current) continue;
    for (const statement of migration.sql(s)) await client.query(statement);
    await client.query(`INSERT INTO ${s}.assistant_schema_migrations (version, name) VALUES ($1, $2)`, [
      migration.version,
      migration.name,
    ]);
    applied.push(migration.version);
  }
  if (applied.length > 0) logger.info({ schema, applied }, "assistant store schema migrated");
  return applied;
}
