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

interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Every migration in version order. */
const MIGRATIONS: readonly Migration[] = [
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

/** Newest schema version this code knows. */
const SCHEMA_VERSION = MIGRATIONS.at(-1)?.version ?? 0;

/**
 * Applies the missing migrations in one `BEGIN IMMEDIATE` transaction, so that
 * processes opening the same file at once migrate it exactly once. A file
 * whose version is newer than this code is left unchanged (with a warning).
 *
 * @returns The versions applied by this call.
 */
export function migrate(db: Database.Database, logger: Logger, path: string): number[] {
  const apply = db.transaction((): number[] => {
    const current = db.pragma("user_version", { simple: true }) as number;
    if (current > SCHEMA_VERSION) {
      logger.warn(
        { path, current, known: SCHEMA_VERSION },
        "run store schema is newer than this code; leaving it unchanged",
      );
      return [];
    }
    const applied: number[] = [];
    for (const migration of MIGRATIONS) {
      if (migration.version <= current) continue;
      db.exec(migration.sql);
      applied.push(migration.version);
    }
    // The header field is written by the same transaction, so a failed migration leaves the old version.
    if (applied.length > 0) db.pragma(`user_version = ${SCHEMA_VERSION}`);
    return applied;
  });
  const applied = apply.immediate();
  if (applied.length > 0) logger.info({ path, applied }, "run store schema migrated");
  return applied;
}
