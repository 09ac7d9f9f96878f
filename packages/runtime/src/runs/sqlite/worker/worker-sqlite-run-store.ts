/**
 * `WorkerSqliteRunStore`: `SqliteRunStore` on a worker thread of its own, so
 * that its SQL, its JSON and SQLite's WAL checkpoints (an fsync every few
 * hundred writes) run beside the caller's event loop instead of on it.
 *
 * Every method keeps `SqliteRunStore`'s semantics, because it is one: the
 * worker answers calls one at a time, in the order they were made, each in
 * the store's own transaction. What changes is the cost on the caller's
 * thread (a structured clone of arguments and results instead of the
 * statements) and the latency of one call (a round trip between threads,
 * tens of microseconds). The calls travel through a `RunStoreChannel`.
 */
import { ComposedRunStore, type RunOperations, type ThreadOperations } from "../../composed-run-store.js";
import type { RunStoreChannel } from "./run-store-channel.js";
import { RUN_METHODS, THREAD_METHODS, type RunStoreMethod } from "./run-store-messages.js";
import { startStoreWorker, type WorkerSqliteRunStoreOptions } from "./start-store-worker.js";

export type { WorkerSqliteRunStoreOptions } from "./start-store-worker.js";

/** Methods that send their arguments to the worker's store and return what it answers. */
function forwarded<Part>(channel: RunStoreChannel, methods: readonly RunStoreMethod[]): Part {
  return Object.fromEntries(
    methods.map((method) => [method, (...args: unknown[]) => channel.call(method, args)]),
  ) as Part;
}

/**
 * A {@link RunStore} in one SQLite file whose statements run on a worker
 * thread: `SqliteRunStore`'s durability, atomicity and errors (same codes and
 * details), with the caller's event loop left free while SQLite works. For a
 * busy single-instance server; `SqliteRunStore` costs nothing to start and
 * takes a caller's connection or clock, which cannot cross a thread.
 *
 * The worker does not keep the process alive while no call is waiting;
 * {@link WorkerSqliteRunStore.close} ends it.
 *
 * @example
 * ```ts
 * const store = await WorkerSqliteRunStore.open({ path: "./data/runs.sqlite" });
 * const thread = await store.createThread({ threadId: crypto.randomUUID() });
 * await store.close();
 * ```
 */
export class WorkerSqliteRunStore extends ComposedRunStore {
  /** The database file (absolute), or `":memory:"`. */
  readonly path: string;

  private constructor(
    private readonly channel: RunStoreChannel,
    path: string,
  ) {
    super(forwarded<ThreadOperations>(channel, THREAD_METHODS), forwarded<RunOperations>(channel, RUN_METHODS));
    this.path = path;
  }

  /**
   * Starts the worker, which opens the database and creates or migrates the schema.
   *
   * @throws RuntimeError with `SqliteRunStore`'s codes: `CONFIG_INVALID` for malformed options,
   *   `STORE_UNAVAILABLE` naming the path when the file cannot be created, opened or migrated,
   *   or the worker cannot start.
   */
  static async open(options: WorkerSqliteRunStoreOptions): Promise<WorkerSqliteRunStore> {
    const { channel, path } = await startStoreWorker(options);
    // `this`, not the class's name: a class naming itself in its body is renamed by the bundler
    // (`_WorkerSqliteRunStore`), and the server logs `constructor.name`.
    return new this(channel, path);
  }

  /**
   * Brings the schema to the current version (already done by {@link WorkerSqliteRunStore.open};
   * idempotent), as `SqliteRunStore.setup` does.
   *
   * @throws RuntimeError `STORE_UNAVAILABLE` when the file cannot be migrated; `CLOSED` after close.
   */
  async setup(): Promise<void> {
    await this.channel.call("setup", []);
  }

  /**
   * Lets the calls already made finish, closes the database and ends the worker.
   * Idempotent; later calls fail with `CLOSED`.
   */
  close(): Promise<void> {
    return this.channel.close();
  }
}
