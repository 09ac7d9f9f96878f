/**
 * The worker side of a store on a worker thread: it opens the store it is
 * given and answers the batches of calls it receives. A batch's calls start
 * at once, in the order they were made (each runs synchronously up to its
 * first real wait, so their statements run in that order), and its results go
 * back in one message once all of them settled; a later batch does not wait
 * for an earlier one. The store's log lines travel with the next results (or
 * on their own after a turn without any). `close` waits for every call
 * started, then closes the store.
 */
import { parentPort } from "node:worker_threads";
import type { Logger } from "../../logger.js";
import {
  sendError,
  type FromWorker,
  type LogLevel,
  type LogRecord,
  type ToWorker,
  type WorkerCall,
  type WorkerResult,
} from "./worker-messages.js";

/** What a worker serves: the store, and the path it opened (resolved). */
interface Served<Store> {
  readonly store: Store;
  readonly path: string;
  close(): Promise<void> | void;
}

/** What {@link serveWorker} serves. */
export interface ServeWorkerOptions<Store> {
  /** The store class, in errors. */
  readonly name: string;
  /** The methods callers may call; anything else fails with a `TypeError`. */
  readonly methods: readonly string[];
  /** Opens the store; what it throws is sent to the caller, and the worker ends. */
  open(logger: Logger): Served<Store> | Promise<Served<Store>>;
}

/** Serves a store to the thread that started this worker. */
export function serveWorker<Store extends object>(options: ServeWorkerOptions<Store>): void {
  const port = parentPort;
  if (port === null) throw new Error(`${options.name}'s worker runs in a worker thread, started by ${options.name}`);
  const send = (message: FromWorker): void => port.postMessage(message);

  let pendingLogs: LogRecord[] = [];
  let logFlush: NodeJS.Immediate | undefined;
  const takeLogs = (): LogRecord[] => {
    const logs = pendingLogs;
    pendingLogs = [];
    if (logFlush !== undefined) clearImmediate(logFlush);
    logFlush = undefined;
    return logs;
  };
  const sendLogs = (logs: readonly LogRecord[]): void => {
    for (const record of logs) {
      try {
        send({ type: "log", ...record });
      } catch {
        send({ type: "log", ...cloneableLog(record) });
      }
    }
  };
  const forward =
    (level: LogLevel) =>
    (obj: Record<string, unknown>, msg: string): void => {
      pendingLogs.push({ level, obj, msg });
      logFlush ??= setImmediate(() => sendLogs(takeLogs()));
    };
  const logger: Logger = {
    debug: forward("debug"),
    info: forward("info"),
    warn: forward("warn"),
    error: forward("error"),
  };

  const allowed: ReadonlySet<string> = new Set(options.methods);
  const answer = async (store: Store, [id, method, args]: WorkerCall): Promise<WorkerResult> => {
    try {
      if (!allowed.has(method)) throw new TypeError(`${options.name} has no method ${method}`);
      const fn = (store as Record<string, unknown>)[method] as (...params: unknown[]) => Promise<unknown>;
      return [id, true, await fn.apply(store, [...args])];
    } catch (err) {
      return [id, false, sendError(err)];
    }
  };
  /**
   * Posts a batch's results. Only when the message cannot be cloned are its parts checked one by one:
   * a value that cannot be cloned fails its own call, a log line keeps its message without its fields.
   */
  const postResults = (results: WorkerResult[]): void => {
    const logs = takeLogs();
    try {
      send({ type: "results", results, logs });
    } catch {
      const cloneable = results.map((result): WorkerResult => {
        try {
          structuredClone(result);
          return result;
        } catch (err) {
          return [result[0], false, sendError(err)];
        }
      });
      send({ type: "results", results: cloneable, logs: logs.map(cloneableLog) });
    }
  };

  const serve = (served: Served<Store>): void => {
    const inFlight = new Set<Promise<void>>();
    port.on("message", (message: ToWorker) => {
      if (message.type === "close") {
        void Promise.allSettled([...inFlight]).then(async () => {
          await served.close();
          sendLogs(takeLogs());
          send({ type: "closed" });
          port.close();
        });
        return;
      }
      const batch = Promise.all(message.calls.map((call) => answer(served.store, call))).then(postResults);
      inFlight.add(batch);
      void batch.finally(() => inFlight.delete(batch));
    });
  };

  void (async () => {
    try {
      const served = await options.open(logger);
      send({ type: "ready", path: served.path });
      serve(served);
    } catch (err) {
      send({ type: "open-failed", error: sendError(err) });
      sendLogs(takeLogs());
      port.close();
    }
  })();
}

/** The line itself, or (when a field cannot be cloned: a function, a socket) its message without its fields. */
function cloneableLog(record: LogRecord): LogRecord {
  try {
    structuredClone(record.obj);
    return record;
  } catch {
    return { level: record.level, obj: { fields: "dropped: not cloneable" }, msg: record.msg };
  }
}
