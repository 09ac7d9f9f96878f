/**
 * Classification of `pg` failures: which ones a retry may fix, and how the
 * rest surface (`STORE_UNAVAILABLE` with the original error as `cause`).
 */
import { RuntimeError } from "../../errors.js";

/** SQLSTATEs of transactions PostgreSQL aborted to resolve a conflict: retrying is safe. */
const CONFLICT_CODES: ReadonlySet<string> = new Set(["40001", "40P01"]);

/** Socket-level error codes of a broken or unreachable connection. */
const SOCKET_CODES: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENETDOWN",
]);

/** Messages `pg` uses for connection failures that carry no code. */
const CONNECTION_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection closed|not queryable/i;

function codeOf(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/** A serialization failure or deadlock: the transaction was rolled back and can be retried. */
export function isConflict(err: unknown): boolean {
  const code = codeOf(err);
  return code !== undefined && CONFLICT_CODES.has(code);
}

/**
 * A failure of the connection rather than of the statement: unreachable server,
 * dropped socket, server shutdown or restart, too many connections.
 */
export function isConnectionError(err: unknown): boolean {
  const code = codeOf(err);
  if (code !== undefined) {
    if (SOCKET_CODES.has(code) || code.startsWith("08")) return true;
    // admin_shutdown, crash_shutdown, cannot_connect_now, too_many_connections
    if (code === "57P01" || code === "57P02" || code === "57P03" || code === "53300") return true;
  }
  if (err instanceof AggregateError) return err.errors.some(isConnectionError);
  return err instanceof Error && CONNECTION_MESSAGES.test(err.message);
}

/** True for a unique violation of the named constraint or index. */
export function isUniqueViolation(err: unknown, constraint: string): boolean {
  return codeOf(err) === "23505" && (err as { constraint?: unknown }).constraint === constraint;
}

/**
 * Wraps a failure of the database in `STORE_UNAVAILABLE`, keeping the cause and
 * naming the operation (and the store, default `PostgresRunStore`); a
 * {@link RuntimeError} passes through unchanged.
 */
export function toStoreError(err: unknown, operation: string, storeName = "PostgresRunStore"): RuntimeError {
  if (RuntimeError.isInstance(err)) return err;
  const code = codeOf(err);
  const message = err instanceof Error ? err.message : String(err);
  const hint = code === "42P01" || code === "3F000" ? " (did you call setup()?)" : "";
  return new RuntimeError(
    "STORE_UNAVAILABLE",
    `${storeName}.${operation} failed: ${message}${code ? ` [${code}]` : ""}${hint}`,
    {
      cause: err,
      details: { operation, ...(code ? { code } : {}) },
    },
  );
}
