/**
 * How failures of `better-sqlite3` surface: `STORE_UNAVAILABLE` naming the
 * file and the operation, with the original error as `cause`.
 */
import { RuntimeError } from "../../errors.js";

/** The SQLite result code of a `SqliteError` (e.g. `SQLITE_BUSY_SNAPSHOT`), if any. */
function sqliteCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("SQLITE_") ? code : undefined;
}

/** Another connection held the write lock for longer than the busy timeout. */
function isBusy(err: unknown): boolean {
  const code = sqliteCode(err);
  return code !== undefined && (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED"));
}

/** The file is not a SQLite database, or its pages are damaged. */
function isCorrupt(err: unknown): boolean {
  const code = sqliteCode(err);
  return code !== undefined && (code.startsWith("SQLITE_CORRUPT") || code.startsWith("SQLITE_NOTADB"));
}

/** Why a failure happened, in words an operator can act on. */
function hint(err: unknown, busyTimeoutMs: number): string {
  if (isBusy(err))
    return ` (another connection holds the database lock; gave up after waiting up to ${busyTimeoutMs} ms)`;
  if (isCorrupt(err)) return " (the file is not a SQLite database or is corrupt)";
  return "";
}

/**
 * Wraps a failure of the database in `STORE_UNAVAILABLE`; a {@link RuntimeError}
 * passes through unchanged.
 *
 * @param operation - the store method, e.g. `admitRun`, or `open`.
 * @param path - the database file (named in the message).
 * @param busyTimeoutMs - the configured wait for locks, named when it ran out.
 * @param storeName - the store class named in the message.
 */
export function toStoreError(
  err: unknown,
  operation: string,
  path: string,
  busyTimeoutMs: number,
  storeName = "SqliteRunStore",
): RuntimeError {
  if (RuntimeError.isInstance(err)) return err;
  const code = sqliteCode(err);
  const message = err instanceof Error ? err.message : String(err);
  return new RuntimeError(
    "STORE_UNAVAILABLE",
    `${storeName}.${operation} failed on ${path}: ${message}${code ? ` [${code}]` : ""}${hint(err, busyTimeoutMs)}`,
    {
      cause: err,
      details: { operation, path, ...(code ? { code } : {}) },
    },
  );
}
