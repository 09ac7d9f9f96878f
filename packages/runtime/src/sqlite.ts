/**
 * `@deerflow/runtime/sqlite`: the SQLite (file-backed) run store for a single
 * instance. Requires `better-sqlite3` (an optional peer dependency).
 *
 * @packageDocumentation
 */
export {
  SqliteRunStore,
  type SqliteRunStoreConnection,
  type SqliteRunStoreOptions,
} from "./runs/sqlite/sqlite-run-store.js";
export {
  WorkerSqliteRunStore,
  type WorkerSqliteRunStoreOptions,
} from "./runs/sqlite/worker/worker-sqlite-run-store.js";
export { SqliteStore, type SqliteStoreOptions } from "./graph-store/sqlite-store.js";
export {
  SqliteAccountStore,
  type SqliteAccountStoreConnection,
  type SqliteAccountStoreOptions,
} from "./accounts/sqlite/sqlite-account-store.js";
export { SqliteAssistantStore, type SqliteAssistantStoreOptions } from "./assistants/sqlite-assistant-store.js";
