/**
 * One step of a store's schema, shared by the SQLite and PostgreSQL runners.
 * Lists of them are append-only: a released migration is never edited, a
 * change is a new version.
 */
export interface Migration<Sql> {
  /** 1, 2, 3... in list order. */
  readonly version: number;
  /** Recorded beside the version in the store's migrations table. */
  readonly name: string;
  /** The statements (SQLite: one script; PostgreSQL: a list, given the quoted schema). */
  readonly sql: Sql;
}

/** A SQLite migration: one script run with `exec`. */
export type SqliteMigration = Migration<string>;

/** A PostgreSQL migration: statements run one by one, given the quoted schema. */
export type PgMigration = Migration<(quotedSchema: string) => string[]>;

/** Newest version of a migration list (0 for an empty one). */
export function newestVersion(migrations: readonly Migration<unknown>[]): number {
  return migrations.at(-1)?.version ?? 0;
}
