/**
 * Opening the database of `SqliteRunStore` (and of the other SQLite stores
 * that may share its file): checks the options, creates the parent directory,
 * opens the file and sets the connection up for a durable,
 * shareable file (WAL, busy timeout, foreign keys, and the chosen fsync level).
 */
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import Database from "better-sqlite3";
import { RuntimeError } from "../../errors.js";
import type { Logger } from "../../logger.js";
import { toStoreError } from "./sqlite-errors.js";

/** An open connection and who owns it. */
export interface OpenedDatabase {
  readonly db: Database.Database;
  /** True when the store opened it (and so closes it). */
  readonly owned: boolean;
  /** Absolute file path, `:memory:`, or the caller's `database.name`. */
  readonly path: string;
}

/** The SQLite name of a private in-memory database. */
const MEMORY_PATH = ":memory:";

function configInvalid(message: string): RuntimeError {
  return new RuntimeError("CONFIG_INVALID", message);
}

/**
 * Opens (or adopts) the store's connection.
 *
 * @throws RuntimeError `CONFIG_INVALID` for malformed options; `STORE_UNAVAILABLE`
 *   naming the path when the directory cannot be created or the file cannot be
 *   opened as a SQLite database (unreadable, a directory, corrupt, not SQLite).
 */
export function openDatabase(
  options: { path?: unknown; database?: unknown; synchronous?: unknown },
  busyTimeoutMs: number,
  logger: Logger,
  storeName = "SqliteRunStore",
): OpenedDatabase {
  const synchronous = options.synchronous ?? "normal";
  if (synchronous !== "normal" && synchronous !== "full")
    throw configInvalid(
      `${storeName} synchronous must be "normal" or "full", got ${JSON.stringify(synchronous) ?? String(synchronous)}`,
    );
  const hasPath = options.path !== undefined;
  if (hasPath === (options.database !== undefined))
    throw configInvalid(`${storeName} needs exactly one of \`path\` and \`database\``);
  if (!hasPath) return adopt(options.database, storeName);

  const given = options.path;
  if (typeof given !== "string" || given.length === 0 || given.includes("\u0000")) {
    throw configInvalid(
      `${storeName} path must be a non-empty file path or ":memory:", got ${JSON.stringify(given) ?? String(given)}`,
    );
  }
  const path = given === MEMORY_PATH ? MEMORY_PATH : resolve(given);
  if (path !== MEMORY_PATH) {
    try {
      mkdirSync(dirname(path), { recursive: true });
    } catch (cause) {
      throw new RuntimeError(
        "STORE_UNAVAILABLE",
        `Cannot create the directory ${dirname(path)} of ${storeName} file ${path}: ${(cause as Error).message}`,
        {
          cause,
          details: { operation: "open", path },
        },
      );
    }
  }
  let db: Database.Database;
  try {
    db = new Database(path);
  } catch (err) {
    throw toStoreError(err, "open", path, busyTimeoutMs, storeName);
  }
  try {
    // busy_timeout first: switching to WAL may have to wait for another process's lock.
    db.pragma(`busy_timeout = ${busyTimeoutMs}`);
    const mode = db.pragma("journal_mode = WAL", { simple: true });
    if (path !== MEMORY_PATH && mode !== "wal")
      logger.warn(
        { path, journalMode: mode },
        `SQLite refused WAL mode for ${storeName}; using its current journal mode`,
      );
    // NORMAL (WAL): a commit is not fsynced, so a crash of this process loses nothing and the file stays
    // consistent, but a power loss or OS crash may undo the last commits (SQLite syncs at WAL checkpoints).
    // That is the durability of the LangGraph SQLite checkpointer beside it (better-sqlite3's WAL default);
    // FULL fsyncs every commit, which blocks the event loop for the sync (~20% of a busy server's time).
    db.pragma(`synchronous = ${synchronous === "full" ? "FULL" : "NORMAL"}`);
    db.pragma("foreign_keys = ON");
  } catch (err) {
    db.close();
    throw toStoreError(err, "open", path, busyTimeoutMs, storeName);
  }
  return { db, owned: true, path };
}

/** Accepts a caller's connection as it is configured (journal mode, timeouts and pragmas stay theirs). */
function adopt(database: unknown, storeName: string): OpenedDatabase {
  const db = database as Partial<Database.Database> | null;
  if (
    typeof db !== "object" ||
    db === null ||
    typeof db.prepare !== "function" ||
    typeof db.transaction !== "function"
  ) {
    throw configInvalid(`${storeName} database must be a better-sqlite3 Database`);
  }
  if (db.open !== true) throw configInvalid(`${storeName} database ${String(db.name)} is not open`);
  if (db.readonly === true) throw configInvalid(`${storeName} database ${String(db.name)} is read-only`);
  return { db: db as Database.Database, owned: false, path: String(db.name) };
}
