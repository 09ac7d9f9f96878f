/**
 * The connection side of `SqliteRunStore`: its open database, a cache of
 * prepared statements, and running work on it. Every operation that reads and
 * then writes runs in one synchronous `BEGIN IMMEDIATE` transaction; database
 * failures surface as `STORE_UNAVAILABLE` naming the file, and every call
 * after `close` fails with `CLOSED`. Other SQLite stores that share the run
 * store's file (the account store) use it with their own schema and name.
 */
import type Database from "better-sqlite3";
import { RuntimeError } from "../../errors.js";
import type { Logger } from "../../logger.js";
import type { OpenedDatabase } from "./open-database.js";
import { migrate as migrateRunSchema } from "./schema.js";
import { toStoreError } from "./sqlite-errors.js";

/** The schema of the store using a {@link SqliteDatabase}, and its name in messages. */
export interface SqliteSchema {
  /** The store class named in errors, e.g. `SqliteRunStore`. */
  readonly storeName: string;
  /** Creates or migrates the store's tables (idempotent, safe when processes open the file at once). */
  migrate(db: Database.Database, logger: Logger, path: string): unknown;
}

const RUN_STORE_SCHEMA: SqliteSchema = { storeName: "SqliteRunStore", migrate: migrateRunSchema };

/** The database of one `SqliteRunStore` (or another SQLite store, by its {@link SqliteSchema}). */
export class SqliteDatabase {
  /** The database file (absolute), `":memory:"`, or the caller's `database.name`. */
  readonly path: string;
  private readonly db: Database.Database;
  private readonly ownsDatabase: boolean;
  /** How long a write waits for another connection's lock, ms (named in busy errors). */
  private readonly busyTimeoutMs: number;
  private readonly statements = new Map<string, Database.Statement>();
  private closed = false;

  /**
   * Adopts the opened database and creates or migrates its schema.
   *
   * @param busyTimeoutMs - the timeout the store set on a database it opened.
   * @param schema - the store's schema; default the run store's.
   * @throws RuntimeError `STORE_UNAVAILABLE` naming the path when the schema cannot be migrated
   *   (the database is closed again when the store opened it).
   */
  constructor(
    opened: OpenedDatabase,
    busyTimeoutMs: number,
    private readonly logger: Logger,
    private readonly schema: SqliteSchema = RUN_STORE_SCHEMA,
  ) {
    this.db = opened.db;
    this.ownsDatabase = opened.owned;
    this.path = opened.path;
    this.busyTimeoutMs = opened.owned ? busyTimeoutMs : (this.db.pragma("busy_timeout", { simple: true }) as number);
    try {
      schema.migrate(this.db, logger, this.path);
    } catch (err) {
      if (this.ownsDatabase) this.db.close();
      throw toStoreError(err, "open", this.path, this.busyTimeoutMs, schema.storeName);
    }
  }

  /** Brings the schema to the current version (idempotent). */
  migrate(): void {
    this.call("setup", () => this.schema.migrate(this.db, this.logger, this.path));
  }

  /** Throws `CLOSED` after {@link SqliteDatabase.close}. */
  open(): void {
    if (this.closed) throw new RuntimeError("CLOSED", `${this.schema.storeName} is closed`);
  }

  /** Runs `body` in one `BEGIN IMMEDIATE` transaction (rolled back when it throws). */
  transaction<T>(operation: string, body: () => T): T {
    return this.call(operation, () => this.db.transaction(body).immediate());
  }

  /** Runs `body` (one statement, or a transaction) and maps database failures to `STORE_UNAVAILABLE`. */
  call<T>(operation: string, body: () => T): T {
    this.open();
    try {
      return body();
    } catch (err) {
      throw toStoreError(err, operation, this.path, this.busyTimeoutMs, this.schema.storeName);
    }
  }

  /** A cached prepared statement; the SQL texts are a fixed set. */
  prepare(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** The first row of a statement, or undefined. */
  get<R>(sql: string, ...params: unknown[]): R | undefined {
    return this.prepare(sql).get(...params) as R | undefined;
  }

  /** Every row of a statement. */
  all<R>(sql: string, ...params: unknown[]): R[] {
    return this.prepare(sql).all(...params) as R[];
  }

  /** Runs a statement that returns no rows. */
  run(sql: string, ...params: unknown[]): Database.RunResult {
    return this.prepare(sql).run(...params);
  }

  /** Later calls fail with `CLOSED`; closes the database when the store opened it. Idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.statements.clear();
    if (this.ownsDatabase) this.db.close();
  }
}
