/**
 * The one migration runner of the SQLite stores (runs, accounts, assistants).
 * The run store versions its file with SQLite's `user_version` header; the
 * account and assistant tables may share that file, so each keeps its version
 * in a table of its own instead.
 */
import type Database from "better-sqlite3";
import type { Logger } from "../../logger.js";
import { newestVersion, type SqliteMigration } from "./migration.js";

/** Where a store records the version its tables are at. */
type SqliteVersionLedger = { readonly header: "user_version" } | { readonly table: string };

/** What {@link migrateSqlite} migrates. */
export interface SqliteMigrationPlan {
  /** Named in log lines ("run store", "account store"...). */
  readonly storeLabel: string;
  readonly ledger: SqliteVersionLedger;
  readonly migrations: readonly SqliteMigration[];
}

/**
 * Applies the missing migrations in one `BEGIN IMMEDIATE` transaction, so that
 * processes opening the same file at once migrate it exactly once, and a
 * failed migration leaves the old version. A schema newer than this code is
 * left unchanged (with a warning).
 *
 * @returns The versions applied by this call.
 */
export function migrateSqlite(
  db: Database.Database,
  plan: SqliteMigrationPlan,
  logger: Logger,
  path: string,
): number[] {
  const known = newestVersion(plan.migrations);
  const { ledger } = plan;
  const apply = db.transaction((): number[] => {
    let current: number;
    if ("header" in ledger) {
      current = db.pragma("user_version", { simple: true }) as number;
    } else {
      db.exec(`CREATE TABLE IF NOT EXISTS ${ledger.table} (
        version INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        applied_at TEXT NOT NULL
      )`);
      const row = db.prepare(`SELECT max(version) AS version FROM ${ledger.table}`).get() as {
        version: number | null;
      };
      current = row.version ?? 0;
    }
    if (current > known) {
      logger.warn({ path, current, known }, `${plan.storeLabel} schema is newer than this code; leaving it unchanged`);
      return [];
    }
    const applied: number[] = [];
    for (const migration of plan.migrations) {
      if (migration.version <= current) continue;
      db.exec(migration.sql);
      if (!("header" in ledger)) {
        db.prepare(`INSERT INTO ${ledger.table} (version, name, applied_at) VALUES (?, ?, ?)`).run(
          migration.version,
          migration.name,
          new Date().toISOString(),
        );
      }
      applied.push(migration.version);
    }
    if ("header" in ledger && applied.length > 0) db.pragma(`user_version = ${known}`);
    return applied;
  });
  const applied = apply.immediate();
  if (applied.length > 0) logger.info({ path, applied }, `${plan.storeLabel} schema migrated`);
  return applied;
}
