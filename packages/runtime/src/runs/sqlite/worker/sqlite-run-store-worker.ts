/**
 * The worker thread of `WorkerSqliteRunStore`: a `SqliteRunStore` on the file
 * it is given, served to the thread that started it. Built as its own entry
 * (`dist/sqlite-run-store-worker.js`); never imported.
 */
import { workerData } from "node:worker_threads";
import { serveWorker } from "../../../internal/worker/serve-worker.js";
import { SqliteRunStore } from "../sqlite-run-store.js";
import { RUN_STORE_METHODS, STORE_NAME, type WorkerStoreOptions } from "./run-store-methods.js";

serveWorker<SqliteRunStore>({
  name: STORE_NAME,
  methods: RUN_STORE_METHODS,
  open(logger) {
    const store = new SqliteRunStore({ ...(workerData as WorkerStoreOptions), logger });
    return { store, path: store.path, close: () => store.close() };
  },
});
