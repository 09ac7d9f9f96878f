/**
 * What `WorkerSqliteRunStore`'s worker answers: the store's methods, and the
 * options it opens the store with.
 */
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

/** The options the worker opens its store with (what can cross a thread: no logger, no clock, no connection). */
export interface WorkerStoreOptions {
  readonly path: string;
  readonly busyTimeoutMs?: number;
  readonly synchronous?: "normal" | "full";
}
