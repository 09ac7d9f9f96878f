/**
 * What a caller and the worker thread serving it say to each other (a store
 * on a worker, such as `WorkerSqliteRunStore`), and how an error
 * crosses between them. Calls travel in batches (every call made in one burst
 * of the caller's microtasks shares one message) and their results come back
 * the same way, with the lines the worker logged meanwhile.
 */
import { RuntimeError, type RuntimeErrorCode } from "../../errors.js";

/** One call: its id, the method and its arguments. */
export type WorkerCall = readonly [id: number, method: string, args: readonly unknown[]];

/** One result: its call's id, and the value or the error. */
export type WorkerResult =
  | readonly [id: number, ok: true, value: unknown]
  | readonly [id: number, ok: false, error: SentError];

/** Caller → worker. */
export type ToWorker = { readonly type: "calls"; readonly calls: readonly WorkerCall[] } | { readonly type: "close" };

/** Worker → caller. */
export type FromWorker =
  /** The worker opened what it serves (`path`: the file, as it resolved it). */
  | { readonly type: "ready"; readonly path: string }
  | { readonly type: "open-failed"; readonly error: SentError }
  /** A batch's results, and the lines logged while answering it (one message for both). */
  | { readonly type: "results"; readonly results: readonly WorkerResult[]; readonly logs: readonly LogRecord[] }
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
