/**
 * Starting `WorkerSqliteRunStore`'s worker thread: where its code is, and
 * waiting until it has opened (and migrated) its database or failed to.
 */
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { RuntimeError } from "../../../errors.js";
import { silentLogger, type Logger } from "../../../logger.js";
import { logTo, RunStoreChannel } from "./run-store-channel.js";
import { receiveError, STORE_NAME, type FromWorker, type WorkerStoreOptions } from "./run-store-messages.js";

/** Options of `WorkerSqliteRunStore.open`: those of `SqliteRunStore` that can cross a thread. */
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

/**
 * How to start the worker: its built code beside this module, or, when this module runs from the
 * package's sources (its own tests), the TypeScript source through tsx (a dev dependency).
 */
function workerEntry(): { filename: string; eval: boolean } {
  if (!import.meta.url.endsWith(".ts"))
    return { filename: fileURLToPath(new URL("./sqlite-run-store-worker.js", import.meta.url)), eval: false };
  const source = JSON.stringify(new URL("./sqlite-run-store-worker.ts", import.meta.url).href);
  const tsx = JSON.stringify(import.meta.resolve("tsx/esm/api"));
  return { filename: `import(${tsx}).then(({ tsImport }) => tsImport(${source}, ${source}))`, eval: true };
}

/** Flags of the caller's command line that name its own input and would make the worker fail to load its file. */
const INPUT_FLAGS = new Set(["-e", "--eval", "-p", "--print", "--input-type"]);

/**
 * The caller's `execArgv` for the worker (it inherits them by default: loaders and `--import` hooks
 * should apply to it too), without the flags about the caller's own input: under
 * `node --input-type=module -e …` a worker started from a file fails with `ERR_INPUT_TYPE_NOT_ALLOWED`.
 */
export function workerExecArgv(execArgv: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const flag = execArgv[i]!;
    const name = flag.split("=", 1)[0]!;
    if (!INPUT_FLAGS.has(name)) kept.push(flag);
    else if (name === flag) i++; // written without "=": its value is the next item
  }
  return kept;
}

/**
 * Starts the worker and waits until its store is open.
 *
 * @returns the channel to the worker and the database's absolute path.
 * @throws RuntimeError `CONFIG_INVALID` / `STORE_UNAVAILABLE` as `SqliteRunStore`'s constructor, or
 *   `STORE_UNAVAILABLE` when the worker cannot start.
 */
export async function startStoreWorker(
  options: WorkerSqliteRunStoreOptions,
): Promise<{ channel: RunStoreChannel; path: string }> {
  if (typeof options !== "object" || options === null || typeof options.path !== "string")
    throw new RuntimeError("CONFIG_INVALID", `${STORE_NAME} needs options with a path`);
  const data: WorkerStoreOptions = {
    path: options.path,
    ...(options.busyTimeoutMs === undefined ? {} : { busyTimeoutMs: options.busyTimeoutMs }),
    ...(options.synchronous === undefined ? {} : { synchronous: options.synchronous }),
  };
  const logger = options.logger ?? silentLogger;
  const entry = workerEntry();
  let worker: Worker;
  try {
    worker = new Worker(entry.filename, {
      workerData: data,
      eval: entry.eval,
      execArgv: workerExecArgv(process.execArgv),
    });
  } catch (err) {
    throw new RuntimeError("STORE_UNAVAILABLE", `${STORE_NAME} could not start its worker: ${(err as Error).message}`, {
      cause: err,
    });
  }
  const path = await new Promise<string>((resolve, reject) => {
    const onMessage = (message: FromWorker): void => {
      if (message.type === "log") logTo(logger, message);
      else if (message.type === "ready") settle(() => resolve(message.path));
      else if (message.type === "open-failed") settle(() => reject(receiveError(message.error)));
    };
    const onError = (err: Error): void =>
      settle(() =>
        reject(
          new RuntimeError("STORE_UNAVAILABLE", `${STORE_NAME} worker failed to start: ${err.message}`, {
            cause: err,
          }),
        ),
      );
    const onExit = (code: number): void =>
      settle(() =>
        reject(
          new RuntimeError(
            "STORE_UNAVAILABLE",
            `${STORE_NAME} worker exited with code ${code} before opening ${options.path}`,
          ),
        ),
      );
    const settle = (done: () => void): void => {
      worker.off("message", onMessage).off("error", onError).off("exit", onExit);
      done();
    };
    worker.on("message", onMessage).on("error", onError).on("exit", onExit);
  }).catch(async (err: unknown) => {
    await worker.terminate();
    throw err;
  });
  return { channel: new RunStoreChannel(worker, path, logger), path };
}
