/**
 * Starting a store's worker thread: where its code is, which of the caller's
 * flags it gets, and waiting until it has opened what it serves or failed to.
 */
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { RuntimeError } from "../../errors.js";
import type { Logger } from "../../logger.js";
import { logTo, WorkerChannel } from "./worker-channel.js";
import { receiveError, type FromWorker } from "./worker-messages.js";

/** How to start a worker: a file, or (from the package's sources) code that loads the TypeScript source. */
export interface WorkerEntry {
  readonly filename: string;
  readonly eval: boolean;
}

/**
 * How to start a worker whose code is `built` (the bundle beside the caller's, every entry and chunk
 * of the build being in `dist/`) or, when the caller runs from the package's sources (its own tests,
 * `tsx`: `callerUrl` ends in `.ts`), `source`, loaded through tsx (a dev dependency).
 */
export function workerEntry(callerUrl: string, built: URL, source: URL): WorkerEntry {
  if (!callerUrl.endsWith(".ts")) return { filename: fileURLToPath(built), eval: false };
  const file = JSON.stringify(source.href);
  const tsx = JSON.stringify(import.meta.resolve("tsx/esm/api"));
  return { filename: `import(${tsx}).then(({ tsImport }) => tsImport(${file}, ${file}))`, eval: true };
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

/** What {@link startWorker} starts. */
export interface StartWorkerOptions {
  readonly entry: WorkerEntry;
  /** What the worker opens (cloned to it). */
  readonly workerData: unknown;
  /** The store class, in errors and log lines. */
  readonly store: string;
  /** What is gone when the worker stops, e.g. `the run store`. */
  readonly role: string;
  /** What the worker opens, in errors before it answered. */
  readonly path: string;
  readonly logger: Logger;
}

/**
 * Starts the worker and waits until it has opened what it serves.
 *
 * @returns the channel to the worker and the path the worker opened (resolved by it).
 * @throws what the worker failed to open with (a `RuntimeError` keeps its code), or
 *   `STORE_UNAVAILABLE` when the worker cannot start.
 */
export async function startWorker<Method extends string>(
  options: StartWorkerOptions,
): Promise<{ channel: WorkerChannel<Method>; path: string }> {
  const { entry, store, logger } = options;
  let worker: Worker;
  try {
    worker = new Worker(entry.filename, {
      workerData: options.workerData,
      eval: entry.eval,
      execArgv: workerExecArgv(process.execArgv),
    });
  } catch (err) {
    throw new RuntimeError("STORE_UNAVAILABLE", `${store} could not start its worker: ${(err as Error).message}`, {
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
          new RuntimeError("STORE_UNAVAILABLE", `${store} worker failed to start: ${err.message}`, { cause: err }),
        ),
      );
    const onExit = (code: number): void =>
      settle(() =>
        reject(
          new RuntimeError(
            "STORE_UNAVAILABLE",
            `${store} worker exited with code ${code} before opening ${options.path}`,
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
  return { channel: new WorkerChannel<Method>(worker, { store, path, role: options.role }, logger), path };
}
