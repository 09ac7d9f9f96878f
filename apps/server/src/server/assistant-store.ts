/**
 * The server's assistant store (users' own LangGraph assistants), built next
 * to the run store so that assistants live in its database: the memory run
 * store gets a `MemoryAssistantStore`, the SQLite run store a
 * `SqliteAssistantStore` on the same file (its own connection and tables),
 * the PostgreSQL run store a `PostgresAssistantStore` on the same pool and
 * schema (so every instance serves the same assistants). A plugin run store
 * has no database the server knows, so assistants go to `assistants.sqlite`
 * in the data folder, per instance.
 */
import { join } from "node:path";
import { MemoryAssistantStore, type AssistantStore } from "@deerflow/runtime";
import type pg from "pg";
import type { RunStoreSettings } from "../config/types.js";
import { maskUrl } from "../config/mask.js";
import type { Logger } from "../logger.js";
import { ServerStartError } from "./errors.js";

/** Options of {@link createAssistantStore}. */
export interface AssistantStoreFactoryOptions {
  /** `config.runtime.runStore`: where the run store keeps its data. */
  readonly runStore: RunStoreSettings;
  /** The run store's pool; without it a PostgreSQL run store's URL gets a pool of the assistant store's own. */
  readonly postgresPool?: pg.Pool | undefined;
  /** The run store's schema (`deployment.postgresSchema`). */
  readonly postgresSchema: string;
  /** `config.storage.dataDir`: home of `assistants.sqlite` beside a plugin run store. */
  readonly dataDir: string;
  readonly logger: Logger;
}

function assistantStoreFailed(what: string, err: unknown, where: string): ServerStartError {
  return new ServerStartError(
    "SERVER_COMPONENT_FAILED",
    `${what} (${where}) could not be started: ${(err as Error).message ?? String(err)}`,
    { cause: err },
  );
}

/**
 * Builds the assistant store beside the configured run store, with its tables
 * set up. Its `close()` releases what this factory opened (never the run store's pool).
 *
 * @throws ServerStartError `SERVER_COMPONENT_FAILED` when the SQLite file or PostgreSQL cannot be opened or migrated.
 * @example
 * ```ts
 * const assistants = await createAssistantStore({
 *   runStore: config.runtime.runStore,
 *   postgresPool: components.postgresPool,
 *   postgresSchema: deployment.postgresSchema,
 *   dataDir: config.storage.dataDir,
 *   logger,
 * });
 * ```
 */
export async function createAssistantStore(options: AssistantStoreFactoryOptions): Promise<AssistantStore> {
  const { runStore, logger } = options;
  switch (runStore.type) {
    case "memory":
      return new MemoryAssistantStore();
    case "file":
      return openSqliteAssistantStore(runStore.path, logger);
    case "postgres": {
      const { PostgresAssistantStore } = await import("@deerflow/runtime/postgres");
      const schema = options.postgresSchema;
      const store =
        options.postgresPool === undefined
          ? new PostgresAssistantStore({ connectionString: runStore.databaseUrl, schema, logger })
          : new PostgresAssistantStore({ pool: options.postgresPool, schema, logger });
      try {
        await store.setup();
      } catch (err) {
        await store.close().catch(() => {});
        throw assistantStoreFailed("PostgreSQL assistant store", err, maskUrl(runStore.databaseUrl));
      }
      return store;
    }
    case "plugin": {
      const path = join(options.dataDir, "assistants.sqlite");
      logger.warn(
        { path, runStore: runStore.use },
        "the run store is a plugin: assistants are kept in a SQLite file of this instance, not shared with others",
      );
      return openSqliteAssistantStore(path, logger);
    }
  }
}

/** `SqliteAssistantStore` of `@deerflow/runtime/sqlite` (better-sqlite3 is an optional peer, loaded only when chosen). */
async function openSqliteAssistantStore(path: string, logger: Logger): Promise<AssistantStore> {
  try {
    const { SqliteAssistantStore } = await import("@deerflow/runtime/sqlite");
    return new SqliteAssistantStore({ path, logger });
  } catch (err) {
    throw assistantStoreFailed("SQLite assistant store", err, path);
  }
}
