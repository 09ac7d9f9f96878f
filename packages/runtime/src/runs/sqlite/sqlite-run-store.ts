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
import type Database from "better-sqlite3";
import { RuntimeError } from "../../errors.js";
import { silentLogger, type Logger } from "../../logger.js";
import { ComposedRunStore } from "../composed-run-store.js";
import { openDatabase } from "./open-database.js";
import { SqliteDatabase } from "./sqlite-database.js";
import { SqliteRunOperations } from "./sqlite-run-operations.js";
import { SqliteTables } from "./sqlite-tables.js";
import { SqliteThreadOperations } from "./sqlite-thread-operations.js";

/** Where the store keeps its data. */
export type SqliteRunStoreConnection =
  /**
   * A database file, opened (and closed) by the store; its directory is created.
   * `":memory:"` keeps everything in this process, like `MemoryRunStore`.
   */
  | { path: string; database?: never }
  /**
   * A connection owned by the caller: `close()` leaves it open, and its journal
   * mode, busy timeout and pragmas stay as the caller set them (WAL and a busy
   * timeout are recommended).
   */
  | { database: Database.Database; path?: never };

/** Options of {@link SqliteRunStore}. */
export type SqliteRunStoreOptions = SqliteRunStoreConnection & {
  logger?: Logger;
  /**
   * Clock for the timestamps the store writes. Default: this process's clock.
   * Creation order never depends on it (an autoincrement column orders runs).
   */
  now?: () => Date;
  /**
   * How long a write waits for another connection's lock before failing with
   * `STORE_UNAVAILABLE`, in ms (it blocks the event loop meanwhile). Default 5000.
   * Only applies to a file the store opens.
   */
  busyTimeoutMs?: number;
  /**
   * How a file the store opens is synced (SQLite's `synchronous` in WAL mode). `"normal"` (default): a
   * commit survives a crash of the process and the file never corrupts, but a power loss or OS crash may
   * undo the last commits; runs it leaves `running` are ended by orphan recovery at the next start. This
   * is the durability of LangGraph's SQLite checkpointer. `"full"`: every commit is fsynced (survives a
   * power loss) at the cost of a blocking sync per write. Ignored for a caller's `database`.
   */
  synchronous?: "normal" | "full";
};

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
    if (typeof options !== "object" || options === null)
      throw new RuntimeError("CONFIG_INVALID", "SqliteRunStore needs options with a path or a database");
    const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
    if (!Number.isSafeInteger(busyTimeoutMs) || busyTimeoutMs < 0) {
      throw new RuntimeError(
        "CONFIG_INVALID",
        `SqliteRunStore busyTimeoutMs must be a non-negative integer, got ${String(busyTimeoutMs)}`,
      );
    }
    const logger = options.logger ?? silentLogger;
    const clock = options.now ?? (() => new Date());
    const db = new SqliteDatabase(openDatabase(options, busyTimeoutMs, logger), busyTimeoutMs, logger);
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
