/**
 * The server's account store, built next to the run store so that users and
 * sessions live in the run store's database: the memory run store gets a
 * `MemoryAccountStore`, the SQLite run store a `SqliteAccountStore` on the
 * same file (its own connection and tables), the PostgreSQL run store a
 * `PostgresAccountStore` on the same pool and schema (so every instance shares
 * users and sessions). A plugin run store has no database the server knows,
 * so accounts go to `accounts.sqlite` in the data folder, per instance.
 *
 * The store is swept periodically: expired sessions and lapsed login-failure
 * counters are deleted, so neither grows without bound (a stream of failed
 * logins from many addresses would otherwise fill the counters).
 */
import { join } from "node:path";
import { MemoryAccountStore, type AccountStore } from "@deerflow/runtime";
import type pg from "pg";
import type { RunStoreSettings } from "../config/types.js";
import { maskUrl } from "../config/mask.js";
import type { Logger } from "../logger.js";
import { ServerStartError } from "./errors.js";

/** Default period of the sweep of expired sessions and lapsed counters: ten minutes. */
const ACCOUNT_SWEEP_INTERVAL_MS = 600_000;

/** Options of {@link createAccountStore}. */
export interface AccountStoreFactoryOptions {
  /** `config.runtime.runStore`: where the run store keeps its data. */
  readonly runStore: RunStoreSettings;
  /** The run store's pool (`RuntimeComponents.postgresPool`); without it a PostgreSQL run store's URL gets a pool of its own. */
  readonly postgresPool?: pg.Pool | undefined;
  /** The run store's schema (`deployment.postgresSchema`). */
  readonly postgresSchema: string;
  /** `config.storage.dataDir`: home of `accounts.sqlite` beside a plugin run store. */
  readonly dataDir: string;
  readonly logger: Logger;
  /** Period of the sweep in ms; 0 turns it off. Default ten minutes. */
  readonly sweepIntervalMs?: number;
}

function accountStoreFailed(what: string, err: unknown, where: string): ServerStartError {
  return new ServerStartError(
    "SERVER_COMPONENT_FAILED",
    `${what} (${where}) could not be started: ${(err as Error).message ?? String(err)}`,
    { cause: err },
  );
}

/**
 * Builds the account store beside the configured run store, with its schema
 * set up and its sweep started. Closing the store stops the sweep; the
 * run store's pool is left to the run store.
 *
 * @param options - the run store's settings and pool, schema, data folder, logger, sweep period.
 * @returns the account store; `close()` releases what this factory opened.
 * @throws ServerStartError `SERVER_COMPONENT_FAILED` when the SQLite file or PostgreSQL cannot be opened or migrated.
 * @example
 * ```ts
 * const accounts = await createAccountStore({
 *   runStore: config.runtime.runStore,
 *   postgresPool: components.postgresPool,
 *   postgresSchema: deployment.postgresSchema,
 *   dataDir: config.storage.dataDir,
 *   logger,
 * });
 * ```
 */
export async function createAccountStore(options: AccountStoreFactoryOptions): Promise<AccountStore> {
  const store = await openAccountStore(options);
  startSweep(store, options.sweepIntervalMs ?? ACCOUNT_SWEEP_INTERVAL_MS, options.logger);
  return store;
}

async function openAccountStore(options: AccountStoreFactoryOptions): Promise<AccountStore> {
  const { runStore, logger } = options;
  switch (runStore.type) {
    case "memory":
      return new MemoryAccountStore({ logger });
    case "file":
      return openSqliteAccountStore(runStore.path, logger);
    case "postgres": {
      const { PostgresAccountStore } = await import("@deerflow/runtime/postgres");
      const schema = options.postgresSchema;
      const store =
        options.postgresPool === undefined
          ? new PostgresAccountStore({ connectionString: runStore.databaseUrl, schema, logger })
          : new PostgresAccountStore({ pool: options.postgresPool, schema, logger });
      try {
        await store.setup();
      } catch (err) {
        await store.close().catch(() => {});
        throw accountStoreFailed("PostgreSQL account store", err, maskUrl(runStore.databaseUrl));
      }
      return store;
    }
    case "plugin": {
      const path = join(options.dataDir, "accounts.sqlite");
      logger.warn(
        { path, runStore: runStore.use },
        "the run store is a plugin: accounts are kept in a SQLite file of this instance, not shared with others",
      );
      return openSqliteAccountStore(path, logger);
    }
  }
}

/** `SqliteAccountStore` of `@deerflow/runtime/sqlite` (better-sqlite3 is an optional peer, loaded only when chosen). */
async function openSqliteAccountStore(path: string, logger: Logger): Promise<AccountStore> {
  try {
    const { SqliteAccountStore } = await import("@deerflow/runtime/sqlite");
    return new SqliteAccountStore({ path, logger });
  } catch (err) {
    throw accountStoreFailed("SQLite account store", err, path);
  }
}

/**
 * Deletes expired sessions and lapsed counters every `intervalMs`. The timer
 * never keeps the process alive and ends with the store: its `close()` is
 * wrapped to clear it.
 */
function startSweep(store: AccountStore, intervalMs: number, logger: Logger): void {
  if (!Number.isFinite(intervalMs) || intervalMs <= 0) return;
  let sweeping = false;
  const timer = setInterval(() => {
    if (sweeping) return;
    sweeping = true;
    store
      .deleteExpiredSessions()
      .then((deleted) => {
        if (deleted > 0) logger.debug({ deleted }, "expired sessions deleted");
      })
      .catch((err: unknown) => logger.warn({ err: (err as Error).message }, "sweeping expired sessions failed"))
      .finally(() => {
        sweeping = false;
      });
  }, intervalMs);
  timer.unref();
  const close = store.close.bind(store);
  store.close = async () => {
    clearInterval(timer);
    await close();
  };
}
