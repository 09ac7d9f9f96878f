/**
 * Group commit for the SQLite checkpointer.
 *
 * `SqliteSaver` commits every checkpoint on its own (an autocommit `INSERT`)
 * and every `putWrites` in its own transaction: a run of the lead agent makes
 * five commits, and each appends its pages to the WAL and takes and drops the
 * write lock (a handful of system calls apiece). Under concurrent runs most of
 * that is repeated work on the same pages. Here the writes issued during one
 * turn of the event loop share one `BEGIN IMMEDIATE` transaction, committed by
 * a `setImmediate` after the turn; the saver's own transactions nest in it as
 * savepoints (better-sqlite3 does that when one is open).
 *
 * Nothing is acknowledged earlier than before: a write's `put`, `putWrites` or
 * `deleteThread` resolves only once its batch is committed, and rejects when
 * the batch is not (a failed `COMMIT`, or SQLite rolling the transaction back
 * after a failed statement: every write of the batch is then undone, so every
 * one of its callers is told). Reads on the connection see the batch's writes
 * at once. The transaction holds the file's write lock for at most one turn;
 * the checkpoint file belongs to one process. Two batched connections to one
 * file in this process take turns: one about to begin a batch first commits
 * the other's (a connection waiting on SQLite's busy timeout would block the
 * event loop that the other's commit needs).
 */
import path from "node:path";

/** The part of a better-sqlite3 `Statement` this needs. */
interface BatchedStatement {
  readonly reader: boolean;
  run(...params: unknown[]): unknown;
}

/** The part of a better-sqlite3 `Database` this needs. */
export interface BatchingDatabase {
  prepare(sql: string): unknown;
  transaction(fn: (...args: never[]) => unknown): unknown;
  exec(sql: string): unknown;
  readonly inTransaction: boolean;
  /** The file it opened (`:memory:` or `""` for none). */
  readonly name: string;
}

/** Commits of a {@link batchCommits} connection. */
export interface CommitBatches {
  /** Settles once the writes issued so far (in this turn) are committed; rejects with the reason they are not. */
  committed(): Promise<void>;
  /** Commits the open batch now. */
  flush(): void;
  /** Commits the open batch and stops counting the connection among its file's (before it closes). */
  close(): void;
}

interface Batch {
  readonly done: Promise<void>;
  resolve(): void;
  reject(err: Error): void;
}

const BATCHED = Symbol.for("@deerflow/runtime/sqlite-batched-commits");
// Taken at load: a test's fake timers must not hold back a database commit (the writers would hang).
const afterThisTurn = setImmediate;
/** The flushes of the batched connections of each file in this process. */
const flushesByFile = new Map<string, Set<() => void>>();

function newBatch(): Batch {
  let resolve!: () => void;
  let reject!: (err: Error) => void;
  const done = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // A batch nobody awaits (its writer failed on its own) must not be an unhandled rejection.
  done.catch(() => undefined);
  return { done, resolve, reject };
}

/**
 * Makes the connection's writes of one event-loop turn share one transaction.
 * Writes are the statements that are not readers and the functions made by
 * `db.transaction`; install after anything else that replaces `db.prepare`.
 * Idempotent per connection.
 *
 * @param db - a better-sqlite3 database used by one checkpointer
 * @returns the connection's commit signal, flush and close
 */
export function batchCommits(db: BatchingDatabase): CommitBatches {
  const marked = db as BatchingDatabase & { [BATCHED]?: CommitBatches };
  const existing = marked[BATCHED];
  if (existing !== undefined) return existing;
  let open: Batch | undefined;
  const file = db.name === "" || db.name === ":memory:" ? undefined : path.resolve(db.name);
  const peers = file === undefined ? new Set<() => void>() : (flushesByFile.get(file) ?? new Set<() => void>());
  if (file !== undefined) flushesByFile.set(file, peers);

  const commit = (): void => {
    const batch = open;
    if (batch === undefined) return;
    open = undefined;
    if (!db.inTransaction) {
      batch.reject(new Error("SQLite rolled the checkpoint batch's transaction back after a failed statement"));
      return;
    }
    try {
      db.exec("COMMIT");
      batch.resolve();
    } catch (err) {
      try {
        if (db.inTransaction) db.exec("ROLLBACK");
      } finally {
        batch.reject(err as Error);
      }
    }
  };
  const begin = (): void => {
    if (db.inTransaction) return; // the open batch, or (before any batch) the caller's own transaction
    // An open batch whose transaction is gone was rolled back by SQLite: its writers are told at once.
    if (open !== undefined) commit();
    for (const flush of peers) if (flush !== commit) flush();
    db.exec("BEGIN IMMEDIATE");
    open = newBatch();
    afterThisTurn(commit);
  };

  const prepare = db.prepare.bind(db);
  const wrapped = new WeakSet<object>();
  db.prepare = (sql: string) => {
    const statement = prepare(sql) as BatchedStatement;
    if (statement.reader || wrapped.has(statement)) return statement;
    const run = statement.run.bind(statement);
    statement.run = (...params: unknown[]) => {
      begin();
      return run(...params);
    };
    wrapped.add(statement);
    return statement;
  };
  const transaction = db.transaction.bind(db);
  db.transaction = (fn: (...args: never[]) => unknown) => {
    const inner = transaction(fn) as (...args: unknown[]) => unknown;
    return (...args: unknown[]) => {
      begin();
      return inner(...args);
    };
  };

  peers.add(commit);
  const batches: CommitBatches = {
    committed: () => open?.done ?? Promise.resolve(),
    flush: commit,
    close: () => {
      commit();
      peers.delete(commit);
      if (file !== undefined && peers.size === 0) flushesByFile.delete(file);
    },
  };
  marked[BATCHED] = batches;
  return batches;
}

/** The saver methods that write. */
const WRITES = ["put", "putWrites", "deleteThread"] as const;

/**
 * Makes the saver's writes resolve only once their batch is committed (see
 * {@link batchCommits}). Replaces the three methods on the instance.
 *
 * @param saver - the checkpointer whose connection batches its commits
 * @param batches - that connection's batches
 * @returns the same saver
 */
export function awaitCommits<T extends Record<(typeof WRITES)[number], (...args: never[]) => Promise<unknown>>>(
  saver: T,
  batches: CommitBatches,
): T {
  for (const name of WRITES) {
    const write = saver[name].bind(saver) as (...args: unknown[]) => Promise<unknown>;
    (saver as Record<string, unknown>)[name] = async (...args: unknown[]) => {
      const result = await write(...args);
      // Still the turn of the write (only microtasks ran since): its batch is the open one.
      await batches.committed();
      return result;
    };
  }
  return saver;
}
