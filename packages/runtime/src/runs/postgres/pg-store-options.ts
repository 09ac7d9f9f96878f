/**
 * The options every PostgreSQL store takes (run, account and assistant
 * stores: they share one database and schema) and their checking, written
 * once so the stores accept and refuse exactly the same settings.
 */
import type { Pool, PoolConfig } from "pg";
import { RuntimeError } from "../../errors.js";
import { silentLogger, type Logger } from "../../logger.js";
import { PgDatabase } from "./pg-database.js";
import { DEFAULT_SCHEMA, quoteSchema } from "./schema.js";

/** Where a PostgreSQL store gets its connections. */
export type PostgresStoreConnection =
  /** A pool owned by the caller (e.g. the run store's): `close()` leaves it open; attach your own `error` listener. */
  | { pool: Pool; connectionString?: never; poolConfig?: never }
  /** A pool created (and closed) by the store. */
  | { connectionString: string; pool?: never; poolConfig?: Omit<PoolConfig, "connectionString"> };

/** Options every PostgreSQL store takes. */
export type PostgresStoreOptions = PostgresStoreConnection & {
  /** Schema holding the tables (the stores of a deployment share one); a lowercase identifier. Default `"deerflow"`. */
  schema?: string;
  logger?: Logger;
  /** Clock for the timestamps the store writes (and, for accounts, expiry). Default: this process's clock. */
  now?: () => Date;
  /** Attempts per operation for deadlocks, serialization failures and dropped connections. Default 5. */
  maxAttempts?: number;
};

/** What a store needs from checked options. */
export interface OpenedPgStore {
  readonly schema: string;
  /** The schema, double-quoted for SQL. */
  readonly quotedSchema: string;
  readonly logger: Logger;
  readonly clock: () => Date;
  readonly db: PgDatabase;
}

/**
 * Checks a store's options and creates its {@link PgDatabase} (no connection
 * is made yet).
 *
 * @param storeName - The store class named in errors and logs.
 * @throws RuntimeError `CONFIG_INVALID` for non-object options, both or neither of
 *   `pool` / `connectionString`, an empty connection string, an unsafe schema
 *   name, or a `maxAttempts` that is not a positive integer.
 */
export function openPgStore(options: PostgresStoreOptions, storeName: string): OpenedPgStore {
  if (typeof options !== "object" || options === null)
    throw new RuntimeError("CONFIG_INVALID", `${storeName} needs options with a pool or a connectionString`);
  const hasPool = options.pool !== undefined;
  const hasUrl = options.connectionString !== undefined;
  if (hasPool === hasUrl)
    throw new RuntimeError("CONFIG_INVALID", `${storeName} needs exactly one of \`pool\` and \`connectionString\``);
  if (hasUrl && (typeof options.connectionString !== "string" || options.connectionString.length === 0))
    throw new RuntimeError("CONFIG_INVALID", `${storeName} connectionString must be a non-empty string`);
  const schema = options.schema ?? DEFAULT_SCHEMA;
  const quotedSchema = quoteSchema(schema, storeName);
  const maxAttempts = options.maxAttempts ?? 5;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1)
    throw new RuntimeError(
      "CONFIG_INVALID",
      `${storeName} maxAttempts must be a positive integer, got ${String(maxAttempts)}`,
    );
  const logger = options.logger ?? silentLogger;
  const clock = options.now ?? (() => new Date());
  const connection =
    options.pool !== undefined
      ? { pool: options.pool }
      : { connectionString: options.connectionString, poolConfig: options.poolConfig };
  const db = new PgDatabase({ connection, maxAttempts, logger, schema, storeName });
  return { schema, quotedSchema, logger, clock, db };
}
