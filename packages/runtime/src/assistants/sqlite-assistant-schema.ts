/**
 * Tables of `SqliteAssistantStore`. They may live in the run store's file, so
 * their version is kept in a table of their own (`assistant_schema_migrations`)
 * rather than in SQLite's `user_version`, which the run store owns.
 * Migrations are append-only: a released one is never edited.
 */
import type Database from "better-sqlite3";
import type { Logger } from "../logger.js";

interface Migration {
  version: number;
  name: string;
  sql: string;
}

const MIGRATIONS: readonly Migration[] = [
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

const SCHEMA_VERSION = MIGRATIONS.at(-1)?.version ?? 0;

/**
 * Applies the missing migrations in one `BEGIN IMMEDIATE` transaction, so that
 * processes opening the same file at once migrate it exactly once.
 *
 * @returns The versions applied by this call.
 */
export function migrateSqliteAssistants(db: Database.Database, logger: Logger, path: string): number[] {
  const apply = db.transaction((): number[] => {
    db.exec(`CREATE TABLE IF NOT EXISTS assistant_schema_migrations (
      version INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      applied_at TEXT NOT NULL
    )`);
    const row = db.prepare("SELECT max(version) AS version FROM assistant_schema_migrations").get() as {
      version: number | null;
    };
    const current = row.version ?? 0;
    if (current > SCHEMA_VERSION) {
      logger.warn(
        { path, current, known: SCHEMA_VERSION },
        "assistant store schema is newer than this code; leaving it unchanged",
      );
      return [];
    }
    const applied: number[] = [];
    for (const migration of MIGRATIONS) {
      if (migration.version <= current) continue;
      db.exec(migration.sql);
      db.prepare("INSERT INTO assistant_schema_migrations (version, name, applied_at) VALUES (?, ?, ?)").run(
        migration.version,
        migration.name,
        new Date().toISOString(),
      );
      applied.push(migration.version);
    }
    return applied;
  });
  const applied = apply.immediate();
  if (applied.length > 0) logger.info({ path, applied }, "assistant store schema migrated");
  return applied;
}
