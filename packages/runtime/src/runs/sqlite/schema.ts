/**
 * Schema of `SqliteRunStore` and its migrations, versioned by SQLite's
 * `user_version` header field. Migrations are append-only: a released one is
 * never edited, a change is a new version.
 *
 * Columns mirror the PostgreSQL store so rows map through the same code:
 * timestamps are the ISO-8601 UTC strings the clock wrote (`toISOString`, so
 * text order is time order), JSON is stored as text.
 */
import type Database from "better-sqlite3";
import type { Logger } from "../../logger.js";
import type { SqliteMigration } from "../../internal/migrations/migration.js";
import { migrateSqlite } from "../../internal/migrations/sqlite-migrations.js";

/** Every migration in version order. */
const MIGRATIONS: readonly SqliteMigration[] = [
  {
    version: 1,
    name: "threads and runs",
    sql: `
      CREATE TABLE threads (
        thread_id TEXT PRIMARY KEY,
        status TEXT NOT NULL CHECK (status IN ('idle', 'busy', 'interrupted', 'error')),
        metadata TEXT NOT NULL DEFAULT '{}',
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX threads_created_at_idx ON threads (created_at);
      -- AUTOINCREMENT: seq is never reused, so it orders runs by creation whatever the clock says.
      CREATE TABLE runs (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        run_id TEXT NOT NULL UNIQUE,
        thread_id TEXT NOT NULL REFERENCES threads (thread_id) ON DELETE CASCADE,
        assistant_id TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending', 'running', 'success', 'error', 'timeout', 'interrupted')),
        multitask_strategy TEXT NOT NULL CHECK (multitask_strategy IN ('reject', 'interrupt', 'rollback', 'enqueue')),
        on_disconnect TEXT NOT NULL CHECK (on_disconnect IN ('cancel', 'continue')),
        metadata TEXT NOT NULL DEFAULT '{}',
        kwargs TEXT NOT NULL DEFAULT '{}',
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        started_at TEXT,
        ended_at TEXT,
        error TEXT,
        stop_reason TEXT,
        owner_id TEXT,
        cancel_action TEXT CHECK (cancel_action IN ('interrupt', 'rollback'))
      );
      CREATE INDEX runs_thread_seq_idx ON runs (thread_id, seq);
      CREATE INDEX runs_active_idx ON runs (seq) WHERE status IN ('pending', 'running');
      CREATE INDEX runs_ended_at_idx ON runs (ended_at) WHERE ended_at IS NOT NULL;
      -- Safety net under the write transactions: a bug can never run two runs of one thread at once.
      CREATE UNIQUE INDEX runs_one_running_per_thread ON runs (thread_id) WHERE status = 'running';
    `,
  },
];

/**
 * Applies the missing migrations (see `migrateSqlite`: one `BEGIN IMMEDIATE`
 * transaction that also writes the `user_version` header, so processes
 * opening the same file at once migrate it once and a failed migration leaves
 * the old version).
 *
 * @returns The versions applied by this call.
 */
export function migrate(db: Database.Database, logger: Logger, path: string): number[] {
  return migrateSqlite(
    db,
    { storeLabel: "run store", ledger: { header: "user_version" }, migrations: MIGRATIONS },
    logger,
    path,
  );
}
