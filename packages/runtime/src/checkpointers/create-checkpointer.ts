/**
 * Creates the LangGraph checkpointer a deployment is configured with.
 *
 * `memory` is LangGraph's `MemorySaver` (one process, lost on restart); `file`
 * is `SqliteSaver` on one SQLite file (durable, one instance);
 * `postgres` is `PostgresSaver` (durable, shared by many instances). The SQLite
 * and PostgreSQL savers are optional peer dependencies, imported only when
 * chosen. Every saver is wrapped with `withRunMetadata`, so checkpoints record
 * the run's `run_id` and metadata.
 *
 * The durable savers are set up (their tables created) before the handle is
 * returned: the savers create them lazily on their first read or write only,
 * and `deleteThread` is not among those, so deleting a thread on a fresh
 * database would fail with "no such table".
 */
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { MemorySaver, type BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { RuntimeError } from "../errors.js";
import { silentLogger, type Logger } from "../logger.js";
import { withRunMetadata } from "./run-metadata.js";
import { awaitCommits, batchCommits, type BatchingDatabase, type CommitBatches } from "./sqlite-batched-commits.js";
import { cachePreparedStatements } from "./sqlite-statement-cache.js";

/** In-process checkpoints, lost when the process exits. */
export interface MemoryCheckpointerConfig {
  type: "memory";
}

/** Checkpoints in one SQLite file (`@langchain/langgraph-checkpoint-sqlite`); for a single instance. */
export interface FileCheckpointerConfig {
  type: "file";
  /** Path of the database file; its directory is created when missing. */
  path: string;
}

/** Checkpoints in PostgreSQL (`@langchain/langgraph-checkpoint-postgres`); shared by every instance. */
export interface PostgresCheckpointerConfig {
  type: "postgres";
  connectionString: string;
  /** Schema holding the checkpoint tables (created when missing). Default `public`. */
  schema?: string;
}

/** Which checkpointer to create. */
export type CheckpointerConfig = MemoryCheckpointerConfig | FileCheckpointerConfig | PostgresCheckpointerConfig;

/** A created checkpointer and how to release it. */
export interface CheckpointerHandle {
  checkpointer: BaseCheckpointSaver;
  /** Closes files and connection pools. Idempotent. */
  close(): Promise<void>;
}

/** Options of {@link createCheckpointer}. */
export interface CreateCheckpointerOptions {
  logger?: Logger;
  /** Module loader, for tests of a missing optional package. Default: dynamic `import()`. */
  importModule?: (specifier: string) => Promise<unknown>;
}

const SQLITE_PACKAGE = "@langchain/langgraph-checkpoint-sqlite";
const POSTGRES_PACKAGE = "@langchain/langgraph-checkpoint-postgres";
const CHECKPOINTER_TYPES = ["memory", "file", "postgres"] as const;
/** The saver interpolates the schema into SQL, so only plain identifiers are accepted. */
const SCHEMA_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

function isModuleNotFound(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND";
}

async function importOptional(
  importModule: (specifier: string) => Promise<unknown>,
  specifier: string,
  packageName: string,
  type: string,
): Promise<Record<string, unknown>> {
  try {
    return (await importModule(specifier)) as Record<string, unknown>;
  } catch (cause) {
    if (isModuleNotFound(cause)) {
      throw new RuntimeError(
        "CONFIG_INVALID",
        `Checkpointer type "${type}" needs the optional package ${packageName}, which could not be loaded (${(cause as Error).message}). Install it: pnpm add ${packageName}`,
        { cause, details: { package: packageName } },
      );
    }
    throw new RuntimeError(
      "CONFIG_INVALID",
      `Checkpointer type "${type}": loading ${specifier} failed: ${(cause as Error).message}`,
      { cause },
    );
  }
}

/**
 * Validates a checkpointer configuration.
 *
 * @throws RuntimeError `CONFIG_INVALID` naming the bad field or unknown type.
 */
export function validateCheckpointerConfig(config: unknown): CheckpointerConfig {
  if (typeof config !== "object" || config === null || Array.isArray(config)) {
    throw new RuntimeError(
      "CONFIG_INVALID",
      `Checkpointer config must be an object, got ${JSON.stringify(config) ?? String(config)}`,
    );
  }
  const c = config as Record<string, unknown>;
  const type = c["type"];
  switch (type) {
    case "memory":
      return { type };
    case "file": {
      const file = c["path"];
      if (typeof file !== "string" || file.trim() === "") {
        throw new RuntimeError(
          "CONFIG_INVALID",
          `Checkpointer type "file" needs a non-empty "path", got ${JSON.stringify(file) ?? "undefined"}`,
        );
      }
      return { type, path: file };
    }
    case "postgres": {
      const connectionString = c["connectionString"];
      if (typeof connectionString !== "string" || connectionString.trim() === "") {
        throw new RuntimeError("CONFIG_INVALID", `Checkpointer type "postgres" needs a non-empty "connectionString"`);
      }
      const schema = c["schema"];
      if (schema === undefined) return { type, connectionString };
      if (typeof schema !== "string" || !SCHEMA_PATTERN.test(schema)) {
        throw new RuntimeError(
          "CONFIG_INVALID",
          `Checkpointer "schema" must be a plain SQL identifier, got ${JSON.stringify(schema) ?? "undefined"}`,
        );
      }
      return { type, connectionString, schema };
    }
    default:
      throw new RuntimeError(
        "CONFIG_INVALID",
        `Unknown checkpointer type ${JSON.stringify(type) ?? "undefined"}; expected one of ${CHECKPOINTER_TYPES.join(", ")}`,
      );
  }
}

function once(close: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => (closing ??= close());
}

/** `setup()` is protected in the saver's typings but idempotent (`CREATE TABLE IF NOT EXISTS`) and safe to call. */
interface SqliteSaverModule {
  SqliteSaver: {
    fromConnString(pathOrConn: string): BaseCheckpointSaver & {
      db: BatchingDatabase & { close(): void; pragma(source: string): unknown };
      setup(): void;
    };
  };
}

interface PgPoolClient {
  query(text: string, values?: unknown[]): Promise<unknown>;
  release(): void;
}

interface PgPool {
  on(event: "error", listener: (err: Error) => void): unknown;
  connect(): Promise<PgPoolClient>;
  end(): Promise<void>;
}

interface PostgresSaverModule {
  PostgresSaver: new (
    pool: PgPool,
    serde?: undefined,
    options?: { schema?: string },
  ) => BaseCheckpointSaver & { setup(): Promise<void> };
}

interface PgModule {
  default?: { Pool: new (config: { connectionString: string }) => PgPool };
  Pool?: new (config: { connectionString: string }) => PgPool;
}

/**
 * Creates a checkpointer from its configuration. The SQLite and PostgreSQL
 * savers' tables are created (`setup()`) before this resolves, so every
 * operation (`deleteThread` included) works before the first checkpoint is
 * written. Setting up again is harmless: an existing file or schema is kept.
 *
 * @throws RuntimeError `CONFIG_INVALID` for a bad config or a missing optional
 *   package (the message names the package to install) or a checkpoint file
 *   that cannot be opened or set up; `STORE_UNAVAILABLE` when PostgreSQL cannot
 *   be reached or set up.
 * @example
 * ```ts
 * const { checkpointer, close } = await createCheckpointer({ type: "file", path: ".deer-flow/checkpoints.db" });
 * const graph = workflow.compile({ checkpointer });
 * // ... on shutdown
 * await close();
 * ```
 */
export async function createCheckpointer(
  config: CheckpointerConfig,
  options: CreateCheckpointerOptions = {},
): Promise<CheckpointerHandle> {
  const valid = validateCheckpointerConfig(config);
  const importModule = options.importModule ?? ((specifier: string) => import(specifier));
  const logger = options.logger ?? silentLogger;
  switch (valid.type) {
    case "memory":
      return { checkpointer: withRunMetadata(new MemorySaver()), close: async () => {} };
    case "file": {
      const mod = (await importOptional(
        importModule,
        SQLITE_PACKAGE,
        SQLITE_PACKAGE,
        "file",
      )) as unknown as SqliteSaverModule;
      const file = path.resolve(valid.path);
      try {
        await mkdir(path.dirname(file), { recursive: true });
      } catch (cause) {
        throw new RuntimeError(
          "CONFIG_INVALID",
          `Cannot create the directory of checkpoint file ${file}: ${(cause as Error).message}`,
          { cause },
        );
      }
      let saver: ReturnType<SqliteSaverModule["SqliteSaver"]["fromConnString"]>;
      let batches: CommitBatches;
      try {
        saver = mod.SqliteSaver.fromConnString(file);
      } catch (cause) {
        throw new RuntimeError("CONFIG_INVALID", `Cannot open checkpoint file ${file}: ${(cause as Error).message}`, {
          cause,
        });
      }
      try {
        // One process owns the file; another opening it at the same time waits on SQLite's busy timeout.
        saver.setup();
        // WAL (set by setup) with NORMAL sync: a commit is not fsynced, so a crash of this process loses
        // nothing and the file stays consistent; a power loss may undo the last checkpoints. better-sqlite3
        // builds with this default; it is set here so that the durability does not hang on a build flag.
        saver.db.pragma("synchronous = NORMAL");
        cachePreparedStatements(saver.db);
        batches = batchCommits(saver.db);
      } catch (cause) {
        saver.db.close();
        throw new RuntimeError("CONFIG_INVALID", `Cannot set up checkpoint file ${file}: ${(cause as Error).message}`, {
          cause,
        });
      }
      const close = once(async () => {
        batches.close();
        saver.db.close();
      });
      return { checkpointer: withRunMetadata(awaitCommits(saver, batches)), close };
    }
    case "postgres": {
      const mod = (await importOptional(
        importModule,
        POSTGRES_PACKAGE,
        POSTGRES_PACKAGE,
        "postgres",
      )) as unknown as PostgresSaverModule;
      const pg = (await importOptional(importModule, "pg", "pg", "postgres")) as PgModule;
      const Pool = pg.default?.Pool ?? pg.Pool;
      if (!Pool)
        throw new RuntimeError("CONFIG_INVALID", `Checkpointer type "postgres": the "pg" module has no Pool export`);
      const pool = new Pool({ connectionString: valid.connectionString });
      // An idle client's error (e.g. the server restarted) must not crash the process; the next query reconnects.
      pool.on("error", (err) => logger.warn({ err: err.message }, "idle PostgreSQL checkpointer connection failed"));
      const saver = new mod.PostgresSaver(pool, undefined, valid.schema === undefined ? {} : { schema: valid.schema });
      try {
        await setupExclusively(pool, valid.schema ?? "public", () => saver.setup());
      } catch (cause) {
        await pool.end().catch(() => {});
        throw new RuntimeError(
          "STORE_UNAVAILABLE",
          `Cannot set up the PostgreSQL checkpointer: ${(cause as Error).message}`,
          { cause },
        );
      }
      return { checkpointer: withRunMetadata(saver), close: once(() => pool.end()) };
    }
  }
}

/**
 * Runs the saver's migrations under a session advisory lock: instances starting
 * together on a fresh schema would otherwise race on its migration table
 * ("duplicate key" errors).
 */
async function setupExclusively(pool: PgPool, schema: string, setup: () => Promise<void>): Promise<void> {
  const client = await pool.connect();
  const lockKey = `deerflow:checkpointer-setup:${schema}`;
  try {
    await client.query("SELECT pg_advisory_lock(hashtext($1))", [lockKey]);
    try {
      await setup();
    } finally {
      await client.query("SELECT pg_advisory_unlock(hashtext($1))", [lockKey]).catch(() => {});
    }
  } finally {
    client.release();
  }
}
