/**
 * Reuse of the SQLite checkpointer's prepared statements.
 *
 * `SqliteSaver` calls `db.prepare(sql)` on every `put`, `putWrites` and
 * `list`: SQLite compiles the same few statements again for each checkpoint
 * write of every step. Its connection's `prepare` is replaced by one that
 * returns the statement compiled the first time for the same text. That is
 * safe for this saver: it runs its statements with `run`, `get` and `all` only
 * (never `iterate`, which would keep a statement busy), and binds every
 * parameter on each call. `list` builds its SQL from the filter keys and
 * limit, so the cache is bounded (oldest evicted).
 */

/** The part of a better-sqlite3 `Database` this needs. */
interface PreparingDatabase {
  prepare(sql: string): unknown;
}

const CACHED = Symbol.for("@deerflow/runtime/sqlite-statement-cache");
const MAX_STATEMENTS = 64;

/** Makes `db.prepare` return one compiled statement per SQL text (at most 64 kept). Idempotent. */
export function cachePreparedStatements(db: PreparingDatabase): void {
  const marked = db as PreparingDatabase & { [CACHED]?: true };
  if (marked[CACHED]) return;
  const prepare = db.prepare.bind(db);
  const statements = new Map<string, unknown>();
  db.prepare = (sql: string) => {
    let statement = statements.get(sql);
    if (statement === undefined) {
      statement = prepare(sql);
      if (statements.size >= MAX_STATEMENTS) statements.delete(statements.keys().next().value as string);
      statements.set(sql, statement);
    }
    return statement;
  };
  marked[CACHED] = true;
}
