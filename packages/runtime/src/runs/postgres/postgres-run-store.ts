/**
 * `PostgresRunStore`: the run store shared by every instance of a deployment.
 *
 * Cross-process atomicity comes from one rule: every operation that changes
 * which runs of a thread are active, or starts one, first locks the thread row
 * (`SELECT ... FOR UPDATE`) and only then reads and writes that thread's runs.
 * Locks are always taken thread first, run second, so these transactions
 * cannot deadlock one another; PostgreSQL's own deadlock and serialization
 * aborts are retried anyway.
 *
 * The store is composed of `pg-database.ts` (the pool, transactions and
 * retries), `pg-tables.ts` (the tables and the locking statements),
 * `pg-thread-operations.ts` and `pg-run-operations.ts` (the SQL of each
 * operation).
 */
import type { Pool, PoolConfig } from "pg";
import { RuntimeError } from "../../errors.js";
import { silentLogger, type Logger } from "../../logger.js";
import { ComposedRunStore } from "../composed-run-store.js";
import { PgDatabase } from "./pg-database.js";
import { PgRunOperations } from "./pg-run-operations.js";
import { PgTables } from "./pg-tables.js";
import { PgThreadOperations } from "./pg-thread-operations.js";
import { DEFAULT_SCHEMA, migrate } from "./schema.js";

/** Where the store gets its connections. */
export type PostgresRunStoreConnection =
  /** A pool owned by the caller: `close()` leaves it open; attach your own `error` listener. */
  | { pool: Pool; connectionString?: never; poolConfig?: never }
  /** A pool created (and closed) by the store. */
  | { connectionString: string; pool?: never; poolConfig?: Omit<PoolConfig, "connectionString"> };

/** Options of {@link PostgresRunStore}. */
export type PostgresRunStoreOptions = PostgresRunStoreConnection & {
  /** Schema holding the tables; a lowercase identifier. Default `"deerflow"`. */
  schema?: string;
  logger?: Logger;
  /**
   * Clock for the timestamps the store writes. Default: this process's clock.
   * Creation order never depends on it (a database sequence orders runs).
   */
  now?: () => Date;
  /** Attempts per operation for deadlocks, serialization failures and dropped connections. Default 5. */
  maxAttempts?: number;
};

/**
 * A {@link RunStore} on PostgreSQL (`pg`), safe to share between many server
 * instances. Call {@link PostgresRunStore.setup} once per process before use.
 *
 * @example
 * ```ts
 * const store = new PostgresRunStore({ connectionString: process.env.DATABASE_URL!, schema: "deerflow" });
 * await store.setup();
 * const { run, superseded } = await store.admitRun({ ...input, multitaskStrategy: "interrupt" });
 * ```
 */
export class PostgresRunStore extends ComposedRunStore {
  /** The schema holding the tables. */
  readonly schema: string;
  private readonly logger: Logger;
  private readonly db: PgDatabase;

  /**
   * @param options - a pool or a connection string, plus schema, logger, clock.
   * @throws RuntimeError `CONFIG_INVALID` for an unsafe schema name, both or neither of
   *   `pool` / `connectionString`, or a bad `maxAttempts`.
   */
  constructor(options: PostgresRunStoreOptions) {
    if (typeof options !== "object" || options === null)
      throw new RuntimeError("CONFIG_INVALID", "PostgresRunStore needs options with a pool or a connectionString");
    const hasPool = options.pool !== undefined;
    const hasUrl = options.connectionString !== undefined;
    if (hasPool === hasUrl)
      throw new RuntimeError("CONFIG_INVALID", "PostgresRunStore needs exactly one of `pool` and `connectionString`");
    if (hasUrl && (typeof options.connectionString !== "string" || options.connectionString.length === 0)) {
      throw new RuntimeError("CONFIG_INVALID", "PostgresRunStore connectionString must be a non-empty string");
    }
    const schema = options.schema ?? DEFAULT_SCHEMA;
    const tables = new PgTables(schema);
    const maxAttempts = options.maxAttempts ?? 5;
    if (!Number.isInteger(maxAttempts) || maxAttempts < 1)
      throw new RuntimeError(
        "CONFIG_INVALID",
        `PostgresRunStore maxAttempts must be a positive integer, got ${String(maxAttempts)}`,
      );
    const logger = options.logger ?? silentLogger;
    const clock = options.now ?? (() => new Date());
    const connection =
      options.pool !== undefined
        ? { pool: options.pool }
        : { connectionString: options.connectionString, poolConfig: options.poolConfig };
    const db = new PgDatabase({ connection, maxAttempts, logger, schema });
    const parts = { db, tables, logger, now: () => clock().toISOString() };
    super(new PgThreadOperations(parts), new PgRunOperations(parts));
    this.schema = schema;
    this.logger = logger;
    this.db = db;
  }

  /**
   * Creates the schema and tables or migrates them to the current version.
   * Idempotent and safe to call from many processes at once.
   *
   * @throws RuntimeError `STORE_UNAVAILABLE` when the database cannot be reached or refuses the DDL.
   */
  async setup(): Promise<void> {
    await this.db.transaction("setup", (c) => migrate(c, this.schema, this.logger));
  }

  /** Closes the pool when the store created it; later calls fail with `CLOSED`. Idempotent. */
  async close(): Promise<void> {
    await this.db.close();
  }
}
