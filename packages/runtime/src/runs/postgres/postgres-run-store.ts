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
import type { Logger } from "../../logger.js";
import { ComposedRunStore } from "../composed-run-store.js";
import type { PgDatabase } from "./pg-database.js";
import { PgRunOperations } from "./pg-run-operations.js";
import { openPgStore, type PostgresStoreConnection, type PostgresStoreOptions } from "./pg-store-options.js";
import { PgTables } from "./pg-tables.js";
import { PgThreadOperations } from "./pg-thread-operations.js";
import { migrate } from "./schema.js";

/** Where the store gets its connections. */
export type PostgresRunStoreConnection = PostgresStoreConnection;

/**
 * Options of {@link PostgresRunStore}. Creation order never depends on the
 * clock `now` (a database sequence orders runs).
 */
export type PostgresRunStoreOptions = PostgresStoreOptions;

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
    const { schema, logger, clock, db } = openPgStore(options, "PostgresRunStore");
    const parts = { db, tables: new PgTables(schema), logger, now: () => clock().toISOString() };
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
