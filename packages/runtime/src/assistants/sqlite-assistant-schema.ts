/**
 * Tables of `SqliteAssistantStore`. They may live in the run store's file, so
 * their version is kept in a table of their own (`assistant_schema_migrations`)
 * rather than in SQLite's `user_version`, which the run store owns.
 * Migrations are append-only: a released one is never edited.
 */
import type Database from "better-sqlite3";
import type { Logger } from "../logger.js";
import type { SqliteMigration } from "../internal/migrations/migration.js";
import { migrateSqlite } from "../internal/migrations/sqlite-migrations.js";

const MIGRATIONS: readonly SqliteMigration[] = [
  {
    version: 1,
    name: "assistants and their versions",
    sql: `
      CREATE TABLE assistants (
        assistant_id TEXT PRIMARY KEY,
        owner TEXT NOT NULL,
        graph_id TEXT NOT NULL,
        name TEXT NOT NULL,
        description TEXT,
        config TEXT NOT NULL DEFAULT '{}',
        context TEXT NOT NULL DEFAULT '{}',
        metadata TEXT NOT NULL DEFAULT '{}',
        version INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX assistants_owner_created_idx ON assistants (owner, created_at);
      CREATE TABLE assistant_versions (
        assistant_id TEXT NOT NULL REFERENCES assistants (assistant_id) ON DELETE CASCADE,
        version INTEGER NOT NULL,
        graph_id TEXT NOT NULL,
        name TEXT NOT NULL,
        description TEXT,
        config TEXT NOT NULL DEFAULT '{}',
        context TEXT NOT NULL DEFAULT '{}',
        metadata TEXT NOT NULL DEFAULT '{}',
        created_at TEXT NOT NULL,
        PRIMARY KEY (assistant_id, version)
      );
    `,
  },
];

/**
 * Applies the missing migrations (see `migrateSqlite`: one `BEGIN IMMEDIATE`
 * transaction, so processes opening the same file at once migrate it once).
 *
 * @returns The versions applied by this call.
 */
export function migrateSqliteAssistants(db: Database.Database, logger: Logger, path: string): number[] {
  return migrateSqlite(
    db,
    { storeLabel: "assistant store", ledger: { table: "assistant_schema_migrations" }, migrations: MIGRATIONS },
    logger,
    path,
  );
}
