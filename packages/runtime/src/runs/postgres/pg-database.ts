/**
 * The connection side of `PostgresRunStore`: its pool (the caller's, or one it
 * creates and closes), and running work against it with retries. A
 * transaction is retried after a deadlock or serialization failure, and after
 * a connection failure that happened before COMMIT was sent (the server then
 * rolled everything back); a read is retried after any connection failure.
 * What is not retried surfaces as `STORE_UNAVAILABLE`, or `CLOSED` once the
 * store is closed.
 */
import pg from "pg";
import type { Pool, PoolClient, PoolConfig, QueryResultRow } from "pg";
import { RuntimeError } from "../../errors.js";
import type { Logger } from "../../logger.js";
import { isConflict, isConnectionError, toStoreError } from "./pg-errors.js";

/** What a statement runs on: a pooled client inside a transaction. */
export type Queryable = Pick<PoolClient, "query">;

/** Where the store gets its connections (validated by the store). */
type PgConnection =
  | { pool: Pool }
  | { connectionString: string; poolConfig?: Omit<PoolConfig, "connectionString"> | undefined };

/** Options of {@link PgDatabase}. */
export interface PgDatabaseOptions {
  readonly connection: PgConnection;
  /** Attempts per operation (≥ 1). */
  readonly maxAttempts: number;
  readonly logger: Logger;
  /** The store's schema, named in the log of an idle connection's failure. */
  readonly schema: string;
  /** The store class named in errors and logs. Default `PostgresRunStore`. */
  readonly storeName?: string;
}

/** The pool of one `PostgresRunStore` (or another PostgreSQL store), with retries and the closed state. */
export class PgDatabase {
  private readonly pool: Pool;
  private readonly storeName: string;
  private readonly ownsPool: boolean;
  private readonly maxAttempts: number;
  private readonly logger: Logger;
  private closed = false;

  constructor(options: PgDatabaseOptions) {
    this.maxAttempts = options.maxAttempts;
    this.logger = options.logger;
    this.storeName = options.storeName ?? "PostgresRunStore";
    const { connection } = options;
    if ("pool" in connection) {
      this.pool = connection.pool;
      this.ownsPool = false;
    } else {
      this.pool = new pg.Pool({
        connectionTimeoutMillis: 10_000,
        ...connection.poolConfig,
        connectionString: connection.connectionString,
      });
      this.ownsPool = true;
      // An idle client whose server went away emits `error` on the pool; without a listener that would crash the process.
      this.pool.on("error", (err) =>
        this.logger.warn(
          { err: err.message, schema: options.schema, store: this.storeName },
          "idle PostgreSQL connection of the store failed",
        ),
      );
    }
  }

  /**
   * Runs `body` in a READ COMMITTED transaction. Retries deadlocks and
   * serialization failures, and connection failures that happened before
   * COMMIT was sent; a connection lost during COMMIT is not retried because
   * the outcome is unknown. A `RuntimeError` thrown by `body` rolls back and
   * is rethrown as it is.
   */
  async transaction<T>(operation: string, body: (c: Queryable) => Promise<T>): Promise<T> {
    this.open();
    for (let attempt = 1; ; attempt++) {
      let client: PoolClient;
      try {
        client = await this.pool.connect();
      } catch (err) {
        if (attempt < this.maxAttempts && isConnectionError(err)) {
          await this.backoff(operation, attempt, err);
          continue;
        }
        throw toStoreError(err, operation, this.storeName);
      }
      let committing = false;
      try {
        await client.query("BEGIN");
        const result = await body(client);
        committing = true;
        await client.query("COMMIT");
        client.release();
        return result;
      } catch (err) {
        const broken = isConnectionError(err);
        if (broken) client.release(err as Error);
        else if (committing) client.release(); // a failed COMMIT already ended the transaction
        else {
          try {
            await client.query("ROLLBACK");
            client.release();
          } catch (rollbackError) {
            client.release(rollbackError as Error);
          }
        }
        if (RuntimeError.isInstance(err)) throw err;
        if ((isConflict(err) || (broken && !committing)) && attempt < this.maxAttempts) {
          await this.backoff(operation, attempt, err);
          continue;
        }
        throw toStoreError(
          err,
          committing && broken ? `${operation} (connection lost during COMMIT: outcome unknown)` : operation,
          this.storeName,
        );
      }
    }
  }

  /** Runs one read-only statement; connection failures are retried (reading twice is harmless). */
  async read<R extends QueryResultRow>(operation: string, text: string, values: unknown[]): Promise<R[]> {
    this.open();
    for (let attempt = 1; ; attempt++) {
      try {
        return (await this.pool.query<R>(text, values)).rows;
      } catch (err) {
        if (attempt < this.maxAttempts && isConnectionError(err)) {
          await this.backoff(operation, attempt, err);
          continue;
        }
        throw toStoreError(err, operation, this.storeName);
      }
    }
  }

  /** Later operations fail with `CLOSED`; ends the pool when the store created it. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.ownsPool) await this.pool.end();
  }

  private open(): void {
    if (this.closed) throw new RuntimeError("CLOSED", `${this.storeName} is closed`);
  }

  private async backoff(operation: string, attempt: number, err: unknown): Promise<void> {
    const delay = Math.min(500, 20 * 2 ** (attempt - 1)) * (0.5 + Math.random());
    this.logger.warn(
      {
        operation,
        attempt,
        err: err instanceof Error ? err.message : String(err),
        code: (err as { code?: unknown }).code,
        store: this.storeName,
      },
      "store operation failed; retrying",
    );
    await new Promise((resolve) => setTimeout(resolve, delay));
    this.open();
  }
}

/** The first row of a statement, or undefined. */
export async function one<R extends QueryResultRow>(
  c: Queryable,
  text: string,
  values: unknown[],
): Promise<R | undefined> {
  return (await c.query<R>(text, values)).rows[0];
}
