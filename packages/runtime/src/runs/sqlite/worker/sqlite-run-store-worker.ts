/**
 * The worker thread of `WorkerSqliteRunStore`: it opens a `SqliteRunStore` on
 * the file it is given and answers the batches of calls it receives, in the
 * order they were made. Its logger forwards to the caller's. Built as its own
 * entry (`dist/sqlite-run-store-worker.js`); never imported.
 */
import { parentPort, workerData } from "node:worker_threads";
import type { Logger } from "../../../logger.js";
import { SqliteRunStore } from "../sqlite-run-store.js";
import {
  RUN_STORE_METHODS,
  sendError,
  type FromWorker,
  type LogLevel,
  type LogRecord,
  type StoreCall,
  type StoreResult,
  type ToWorker,
  type WorkerStoreOptions,
} from "./run-store-messages.js";

const port = parentPort;
if (port === null) throw new Error("sqlite-run-store-worker runs in a worker thread started by WorkerSqliteRunStore");
const send = (message: FromWorker): void => port.postMessage(message);

/** The lines logged while a batch is answered: they travel with its results, not a message each. */
let batchLogs: LogRecord[] | undefined;

function forward(level: LogLevel) {
  return (obj: Record<string, unknown>, msg: string): void => {
    let record: LogRecord = { level, obj, msg };
    try {
      structuredClone(obj);
    } catch {
      // A field that cannot be cloned (a function, a socket) must not lose the line.
      record = { level, obj: { fields: "dropped: not cloneable" }, msg };
    }
    if (batchLogs === undefined) send({ type: "log", ...record });
    else batchLogs.push(record);
  };
}
const logger: Logger = {
  debug: forward("debug"),
  info: forward("info"),
  warn: forward("warn"),
  error: forward("error"),
};

const methods: ReadonlySet<string> = new Set(RUN_STORE_METHODS);

async function answer(store: SqliteRunStore, [id, method, args]: StoreCall): Promise<StoreResult> {
  try {
    if (!methods.has(method)) throw new TypeError(`WorkerSqliteRunStore has no method ${String(method)}`);
    const fn = store[method] as (...params: unknown[]) => Promise<unknown>;
    return [id, true, await fn.apply(store, [...args])];
  } catch (err) {
    return [id, false, sendError(err)];
  }
}

function open(): SqliteRunStore | undefined {
  const options = workerData as WorkerStoreOptions;
  try {
    const store = new SqliteRunStore({ ...options, logger });
    send({ type: "ready", path: store.path });
    return store;
  } catch (err) {
    send({ type: "open-failed", error: sendError(err) });
    return undefined;
  }
}

const store = open();
if (store === undefined) port.close();
else {
  // Each call is one synchronous transaction in the store; chaining the batches keeps their order
  // even if a method ever awaited something real.
  let turn: Promise<void> = Promise.resolve();
  port.on("message", (message: ToWorker) => {
    turn = turn.then(async () => {
      if (message.type === "close") {
        await store.close();
        send({ type: "closed" });
        port.close();
        return;
      }
      const results: StoreResult[] = [];
      batchLogs = [];
      for (const call of message.calls) results.push(await answer(store, call));
      const logs = batchLogs;
      batchLogs = undefined;
      postResults(results, logs);
    });
  });
}

/** Posts a batch's results; a value that cannot be cloned fails its own call only. */
function postResults(results: StoreResult[], logs: LogRecord[]): void {
  try {
    send({ type: "results", results, logs });
  } catch {
    send({
      type: "results",
      logs,
      results: results.map((result): StoreResult => {
        try {
          structuredClone(result);
          return result;
        } catch (err) {
          return [result[0], false, sendError(err)];
        }
      }),
    });
  }
}
