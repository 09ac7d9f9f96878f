/**
 * The options every SQLite store takes (run, account and assistant stores:
 * they may share one file) and their checking, written once so the stores
 * accept and refuse exactly the same settings.
 */
import type Database from "better-sqlite3";
import { RuntimeError } from "../../errors.js";
import { silentLogger, type Logger } from "../../logger.js";
import { openDatabase } from "./open-database.js";
import { SqliteDatabase, type SqliteSchema } from "./sqlite-database.js";

/** Where a SQLite store keeps its data. */
export type SqliteStoreConnection =
  /**
   * A database file, opened (and closed) by the store; its directory is created.
   * The stores of one server may share the run store's file. `":memory:"` keeps
   * everything in this connection.
   */
  | { path: string; database?: never }
  /**
   * A connection owned by the caller: `close()` leaves it open, and its journal
   * mode, busy timeout and pragmas stay as the caller set them (WAL and a busy
   * timeout are recommended).
   */
  | { database: Database.Database; path?: never };

/** Options every SQLite store takes. */
export type SqliteStoreOptions = SqliteStoreConnection & {
  logger?: Logger;
  /** Clock for the timestamps the store writes (and, for accounts, expiry). Default: this process's clock. */
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

/** What a store needs from checked options. */
export interface OpenedSqliteStore {
  readonly db: SqliteDatabase;
  readonly logger: Logger;
  readonly clock: () => Date;
}

/**
 * Checks a store's options, opens (or adopts) the database and creates or
 * migrates the store's tables.
 *
 * @param schema - The store's name and migrations; default the run store's.
 * @throws RuntimeError `CONFIG_INVALID` for malformed options (both or neither of
 *   `path` / `database`, an empty path, a closed or read-only database, a bad
 *   `busyTimeoutMs` or `synchronous`); `STORE_UNAVAILABLE` naming the path when the
 *   directory cannot be created or the file is unreadable, corrupt, not SQLite,
 *   locked, or cannot be migrated.
 */
export function openSqliteStore(options: SqliteStoreOptions, schema?: SqliteSchema): OpenedSqliteStore {
  const storeName = schema?.storeName ?? "SqliteRunStore";
  if (typeof options !== "object" || options === null)
    throw new RuntimeError("CONFIG_INVALID", `${storeName} needs options with a path or a database`);
  const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
  if (!Number.isSafeInteger(busyTimeoutMs) || busyTimeoutMs < 0)
    throw new RuntimeError(
      "CONFIG_INVALID",
      `${storeName} busyTimeoutMs must be a non-negative integer, got ${String(busyTimeoutMs)}`,
    );
  const logger = options.logger ?? silentLogger;
  const clock = options.now ?? (() => new Date());
  const db = new SqliteDatabase(openDatabase(options, busyTimeoutMs, logger, storeName), busyTimeoutMs, logger, schema);
  return { db, logger, clock };
}
