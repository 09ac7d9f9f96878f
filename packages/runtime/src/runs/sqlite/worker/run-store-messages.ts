/**
 * What `WorkerSqliteRunStore` and its worker thread say to each other, and
 * how an error crosses between them. Calls travel in batches (every call made
 * in one burst of the caller's microtasks shares one message) and their
 * results come back the same way, so a busy server pays one message per
 * batch rather than per call.
 */
import { RuntimeError, type RuntimeErrorCode } from "../../../errors.js";
import type { RunOperations, ThreadOperations } from "../../composed-run-store.js";

/** The name errors and logs give the store. */
export const STORE_NAME = "WorkerSqliteRunStore";

/** The thread methods the worker answers. */
export const THREAD_METHODS = [
  "createThread",
  "getThread",
  "updateThread",
  "searchThreads",
  "countThreads",
  "deleteThread",
] as const satisfies readonly (keyof ThreadOperations)[];

/** The run methods the worker answers. */
export const RUN_METHODS = [
  "admitRun",
  "getRun",
  "listRuns",
  "listActiveRuns",
  "tryStartRun",
  "finishRun",
  "requestCancel",
  "setOwner",
  "deleteRun",
  "deleteFinishedRuns",
] as const satisfies readonly (keyof RunOperations)[];

/** Every method the worker answers: the store's but `close`, plus `setup`. */
export const RUN_STORE_METHODS = ["setup", ...THREAD_METHODS, ...RUN_METHODS] as const;

/** A method the worker answers. */
export type RunStoreMethod = (typeof RUN_STORE_METHODS)[number];

/** One call: its id, the method and its arguments. */
export type StoreCall = readonly [id: number, method: RunStoreMethod, args: readonly unknown[]];

/** One result: its call's id, and the value or the error. */
export type StoreResult =
  | readonly [id: number, ok: true, value: unknown]
  | readonly [id: number, ok: false, error: SentError];

/** The options the worker opens its store with (what can cross a thread: no logger, no clock, no connection). */
export interface WorkerStoreOptions {
  readonly path: string;
  readonly busyTimeoutMs?: number;
  readonly synchronous?: "normal" | "full";
}

/** Caller → worker. */
export type ToWorker = { readonly type: "calls"; readonly calls: readonly StoreCall[] } | { readonly type: "close" };

/** Worker → caller. */
export type FromWorker =
  | { readonly type: "ready"; readonly path: string }
  | { readonly type: "open-failed"; readonly error: SentError }
  /** A batch's results, and the lines the store logged while answering it (one message for both). */
  | { readonly type: "results"; readonly results: readonly StoreResult[]; readonly logs: readonly LogRecord[] }
  | ({ readonly type: "log" } & LogRecord)
  | { readonly type: "closed" };

/** A level of the injected logger. */
export type LogLevel = "debug" | "info" | "warn" | "error";

/** One line for the caller's logger. */
export interface LogRecord {
  readonly level: LogLevel;
  readonly obj: Record<string, unknown>;
  readonly msg: string;
}

/** An error as it crosses the thread: a `RuntimeError`'s code and details, or another error's name. */
export interface SentError {
  readonly name: string;
  readonly message: string;
  readonly code?: RuntimeErrorCode;
  readonly details?: Readonly<Record<string, unknown>>;
}

/** What of `err` crosses the thread. */
export function sendError(err: unknown): SentError {
  if (RuntimeError.isInstance(err)) {
    return err.details === undefined
      ? { name: err.name, message: err.message, code: err.code }
      : { name: err.name, message: err.message, code: err.code, details: err.details };
  }
  if (err instanceof Error) return { name: err.name, message: err.message };
  return { name: "Error", message: String(err) };
}

const NATIVE_ERRORS: Readonly<Record<string, ErrorConstructor>> = {
  TypeError,
  RangeError,
  SyntaxError,
  ReferenceError,
};

/** The error the caller throws for one the worker sent: a `RuntimeError` keeps its code and details. */
export function receiveError(sent: SentError): Error {
  if (sent.code !== undefined)
    return new RuntimeError(
      sent.code,
      sent.message,
      sent.details === undefined ? undefined : { details: sent.details },
    );
  const error = new (NATIVE_ERRORS[sent.name] ?? Error)(sent.message);
  if (error.name !== sent.name) error.name = sent.name;
  return error;
}
