/**
 * Creates the long-term store (LangGraph's `BaseStore`) a deployment is
 * configured with: `memory` is LangGraph's `InMemoryStore` (tests, one
 * process); `file` is {@link SqliteStore} on one SQLite file (durable, one
 * instance); `postgres` is `PostgresStore` from
 * `@langchain/langgraph-checkpoint-postgres/store` (durable, shared by every
 * instance), as {@link PostgresGraphStore}. The durable stores need optional peer dependencies, imported only
 * when chosen, and their tables exist before the handle is returned.
 */
import { InMemoryStore, type BaseStore } from "@langchain/langgraph-checkpoint";
import { RuntimeError } from "../errors.js";

/** Which store to create. */
export type GraphStoreConfig =
  | { type: "memory" }
  | {
      type: "file";
      /** Path of the database file; its directory is created when missing. */
      path: string;
    }
  | {
      type: "postgres";
      connectionString: string;
      /** Schema holding the `store` tables (created when missing). Default `public`. */
      schema?: string;
    };

/** A created store and how to release it. */
export interface GraphStoreHandle {
  readonly store: BaseStore;
  /** Closes files and connection pools. Idempotent. */
  close(): Promise<void>;
}

function once(close: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => (closing ??= close());
}

/** `load` is a literal `import()`, so the bundler splits the store (and its peer dependency) into its own chunk. */
async function importOptional<T>(load: () => Promise<T>, type: string, packages: string): Promise<T> {
  try {
    return await load();
  } catch (cause) {
    throw new RuntimeError(
      "CONFIG_INVALID",
      `Store type "${type}" needs the optional packages ${packages}, which could not be loaded (${(cause as Error).message})`,
      { cause },
    );
  }
}

/**
 * Creates a store from its configuration.
 *
 * @param config - `memory`, `file` (a path) or `postgres` (a connection string, optional schema)
 * @returns the store and its `close()`
 * @throws RuntimeError `CONFIG_INVALID` for a bad config or a missing optional package;
 *   `STORE_UNAVAILABLE` when the file cannot be opened or PostgreSQL cannot be reached or set up.
 * @example
 * ```ts
 * const { store, close } = await createGraphStore({ type: "file", path: ".deerflow-data/store.sqlite" });
 * const graph = workflow.compile({ checkpointer, store });
 * // ... on shutdown
 * await close();
 * ```
 */
export async function createGraphStore(config: GraphStoreConfig): Promise<GraphStoreHandle> {
  switch (config?.type) {
    case "memory":
      return { store: new InMemoryStore(), close: async () => {} };
    case "file": {
      if (typeof config.path !== "string" || config.path.trim() === "") {
        throw new RuntimeError("CONFIG_INVALID", 'Store type "file" needs a non-empty "path"');
      }
      const { SqliteStore } = await importOptional(() => import("./sqlite-store.js"), "file", "better-sqlite3");
      const store = new SqliteStore({ path: config.path });
      return { store, close: once(async () => store.close()) };
    }
    case "postgres": {
      const { PostgresGraphStore } = await importOptional(
        () => import("./postgres-graph-store.js"),
        "postgres",
        "@langchain/langgraph-checkpoint-postgres and pg",
      );
      const store = new PostgresGraphStore({
        connectionString: config.connectionString,
        ...(config.schema === undefined ? {} : { schema: config.schema }),
      });
      try {
        await store.setup();
      } catch (cause) {
        await store.stop().catch(() => {});
        throw new RuntimeError("STORE_UNAVAILABLE", `Cannot set up the PostgreSQL store: ${(cause as Error).message}`, {
          cause,
        });
      }
      return { store, close: once(() => store.stop()) };
    }
    default:
      throw new RuntimeError(
        "CONFIG_INVALID",
        `Unknown store type ${JSON.stringify((config as { type?: unknown } | undefined)?.type) ?? "undefined"}; expected one of memory, file, postgres`,
      );
  }
}
