/**
 * `@deerflow/runtime/postgres`: the PostgreSQL run store. Requires `pg` (an
 * optional peer dependency).
 *
 * @packageDocumentation
 */
export {
  PostgresRunStore,
  type PostgresRunStoreConnection,
  type PostgresRunStoreOptions,
} from "./runs/postgres/postgres-run-store.js";
export { PostgresGraphStore, type PostgresGraphStoreOptions } from "./graph-store/postgres-graph-store.js";
export {
  PostgresAccountStore,
  type PostgresAccountStoreConnection,
  type PostgresAccountStoreOptions,
} from "./accounts/postgres/postgres-account-store.js";
export { PostgresAssistantStore, type PostgresAssistantStoreOptions } from "./assistants/postgres-assistant-store.js";
