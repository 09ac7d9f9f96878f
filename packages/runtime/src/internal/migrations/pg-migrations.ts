/**
 * The one migration runner of the PostgreSQL stores (runs, accounts,
 * assistants). They share one schema, each versioning its own tables in a
 * migrations table of its own, under one advisory lock per schema.
 */
import type { PoolClient } from "pg";
import type { Logger } from "../../logger.js";
import { newestVersion, type PgMigration } from "./migration.js";

/**
 * First key of the advisory lock that serialises every store's setup; the
 * second is the schema's hash. Every store migrating tables in the schema
 * takes it, so their `CREATE SCHEMA IF NOT EXISTS` never race.
 */
const SETUP_LOCK_KEY = 0x64666c77; // "dflw"

/** What {@link migratePg} migrates. */
export interface PgMigrationPlan {
  /** Named in log lines ("run store", "account store"...). */
  readonly storeLabel: string;
  /** The store's own migrations table in the schema (unquoted, a fixed identifier). */
  readonly table: string;
  readonly migrations: readonly PgMigration[];
}

/**
 * Creates the schema and applies missing migrations inside the caller's
 * transaction, after taking the setup lock of the schema, so that instances
 * starting at once (and the other stores migrating the same schema) apply
 * each migration exactly once. A schema newer than this code is left
 * unchanged (with a warning).
 *
 * @param quotedSchema - The schema, already checked and quoted (`quoteSchema`).
 * @param schema - The schema as configured (lock key and logs).
 * @returns The versions applied by this call.
 */
export async function migratePg(
  client: Pick<PoolClient, "query">,
  plan: PgMigrationPlan,
  schema: string,
  quotedSchema: string,
  logger: Logger,
): Promise<number[]> {
  const s = quotedSchema;
  const known = newestVersion(plan.migrations);
  await client.query("SELECT pg_advisory_xact_lock($1, hashtext($2))", [SETUP_LOCK_KEY, schema]);
  await client.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
  await client.query(`CREATE TABLE IF NOT EXISTS ${s}.${plan.table} (
    version integer PRIMARY KEY,
    name text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`);
  const { rows } = await client.query<{ version: number | null }>(
    `SELECT max(version) AS version FROM ${s}.${plan.table}`,
  );
  const current = rows[0]?.version ?? 0;
  if (current > known) {
    logger.warn({ schema, current, known }, `${plan.storeLabel} schema is newer than this code; leaving it unchanged`);
    return [];
  }
  const applied: number[] = [];
  for (const migration of plan.migrations) {
    if (migration.version <= current) continue;
    for (const statement of migration.sql(s)) await client.query(statement);
    await client.query(`INSERT INTO ${s}.${plan.table} (version, name) VALUES ($1, $2)`, [
      migration.version,
      migration.name,
    ]);
    applied.push(migration.version);
  }
  if (applied.length > 0) logger.info({ schema, applied }, `${plan.storeLabel} schema migrated`);
  return applied;
}
