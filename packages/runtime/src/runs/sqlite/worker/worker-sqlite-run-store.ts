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
 * tens of microseconds). The calls travel through a `WorkerChannel`.
 */
import { RuntimeError } from "../../../errors.js";
import { startWorker, workerEntry } from "../../../internal/worker/start-worker.js";
import type { WorkerChannel } from "../../../internal/worker/worker-channel.js";
import { silentLogger, type Logger } from "../../../logger.js";
import { ComposedRunStore, type RunOperations, type ThreadOperations } from "../../composed-run-store.js";
import {
  RUN_METHODS,
  STORE_NAME,
  THREAD_METHODS,
  type RunStoreMethod,
  type WorkerStoreOptions,
} from "./run-store-methods.js";

/** Options of {@link WorkerSqliteRunStore.open}: those of `SqliteRunStore` that can cross a thread. */
export interface WorkerSqliteRunStoreOptions {
  /** The database file; its directory is created. `":memory:"` keeps everything in the worker. */
  path: string;
  /** Receives the store's log lines (forwarded from the worker). Default: silent. */
  logger?: Logger;
  /** As `SqliteRunStore`'s, but the wait blocks the worker, never the caller. Default 5000. */
  busyTimeoutMs?: number;
  /** As `SqliteRunStore`'s. Default `"normal"`. */
  synchronous?: "normal" | "full";
}

type Channel = WorkerChannel<RunStoreMethod>;

/** Methods that send their arguments to the worker's store and return what it answers. */
function forwarded<Part>(channel: Channel, methods: readonly RunStoreMethod[]): Part {
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
    private readonly channel: Channel,
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
    if (typeof options !== "object" || options === null || typeof options.path !== "string")
      throw new RuntimeError("CONFIG_INVALID", `${STORE_NAME} needs options with a path`);
    const workerData: WorkerStoreOptions = {
      path: options.path,
      ...(options.busyTimeoutMs === undefined ? {} : { busyTimeoutMs: options.busyTimeoutMs }),
      ...(options.synchronous === undefined ? {} : { synchronous: options.synchronous }),
    };
    const { channel, path } = await startWorker<RunStoreMethod>({
      entry: workerEntry(
        import.meta.url,
        new URL("./sqlite-run-store-worker.js", import.meta.url),
        new URL("./sqlite-run-store-worker.ts", import.meta.url),
      ),
      workerData,
      store: STORE_NAME,
      role: "the run store",
      path: options.path,
      logger: options.logger ?? silentLogger,
    });
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
