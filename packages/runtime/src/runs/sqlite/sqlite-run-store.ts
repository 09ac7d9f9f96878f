/**
 * `SqliteRunStore`: the durable run store of a single server instance, in one
 * SQLite file (`better-sqlite3`).
 *
 * Atomicity: every operation that reads and then writes runs in one
 * synchronous `BEGIN IMMEDIATE` transaction. Within the process nothing can
 * interleave with it (better-sqlite3 never yields to the event loop); across
 * processes sharing the file, IMMEDIATE takes the write lock before the first
 * read, so a second writer waits (up to the busy timeout) instead of acting on
 * a stale snapshot.
 *
 * The store is a composition: `sqlite-database.ts` (the connection, prepared
 * statements and transactions), `sqlite-tables.ts` (the statements several
 * operations share), `sqlite-thread-operations.ts` and
 * `sqlite-run-operations.ts` (the SQL of each operation).
 */
import { ComposedRunStore } from "../composed-run-store.js";
import type { SqliteDatabase } from "./sqlite-database.js";
import { SqliteRunOperations } from "./sqlite-run-operations.js";
import { SqliteTables } from "./sqlite-tables.js";
import { openSqliteStore, type SqliteStoreConnection, type SqliteStoreOptions } from "./sqlite-store-options.js";
import { SqliteThreadOperations } from "./sqlite-thread-operations.js";

/** Where the store keeps its data (`":memory:"` keeps everything in this process, like `MemoryRunStore`). */
export type SqliteRunStoreConnection = SqliteStoreConnection;

/**
 * Options of {@link SqliteRunStore}. Creation order never depends on the clock
 * `now` (an autoincrement column orders runs).
 */
export type SqliteRunStoreOptions = SqliteStoreOptions;

/**
 * A {@link RunStore} in one SQLite file, for a single server instance: durable
 * across restarts, and safe (serialised) when a second process opens the same
 * file, but not meant to be shared by a fleet (use `PostgresRunStore`). The
 * schema is created or migrated on construction; {@link SqliteRunStore.setup}
 * exists so that callers can treat it like `PostgresRunStore`.
 *
 * @example
 * ```ts
 * const store = new SqliteRunStore({ path: "./data/runs.sqlite" });
 * await store.setup(); // optional here, required for PostgresRunStore
 * const { run } = await store.admitRun({ ...input, multitaskStrategy: "enqueue" });
 * ```
 */
export class SqliteRunStore extends ComposedRunStore {
  /** The database file (absolute), `":memory:"`, or the caller's `database.name`. */
  readonly path: string;
  private readonly db: SqliteDatabase;

  /**
   * Opens the database and creates or migrates the schema.
   *
   * @param options - a file path or a caller's connection, plus logger, clock and busy timeout.
   * @throws RuntimeError `CONFIG_INVALID` for malformed options (both or neither of
   *   `path` / `database`, an empty path, a closed or read-only database, a bad
   *   `busyTimeoutMs`); `STORE_UNAVAILABLE` naming the path when the directory
   *   cannot be created or the file is unreadable, corrupt, not SQLite, or locked.
   */
  constructor(options: SqliteRunStoreOptions) {
    const { db, logger, clock } = openSqliteStore(options);
    const parts = { db, tables: new SqliteTables(db), logger, now: () => clock().toISOString() };
    super(new SqliteThreadOperations(parts), new SqliteRunOperations(parts));
    this.db = db;
    this.path = db.path;
  }

  /**
   * Brings the schema to the current version (already done by the constructor;
   * idempotent). Present so that callers can treat this store like `PostgresRunStore`.
   *
   * @throws RuntimeError `STORE_UNAVAILABLE` when the file cannot be migrated; `CLOSED` after close.
   */
  async setup(): Promise<void> {
    this.db.migrate();
  }

  /** Closes the database when the store opened it; later calls fail with `CLOSED`. Idempotent. */
  async close(): Promise<void> {
    this.db.close();
  }
}
