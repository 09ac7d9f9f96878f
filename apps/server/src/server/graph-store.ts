/**
 * The server's long-term store (LangGraph's `BaseStore`): where it lives and
 * how it is opened. It sits with the checkpoints: in PostgreSQL when the
 * checkpointer is (the same database and schema, `DATABASE_URL` by default),
 * in the SQLite file `store.sqlite` under the data dir for the embedded
 * default, in memory with a memory checkpointer. A checkpointer plugin leaves
 * the choice to `DATABASE_URL` (PostgreSQL when set, else the SQLite file).
 *
 * The one instance is `RuntimeComponents.graphStore` (`runtime-components.ts`):
 * the run manager hands it to every run (`getStore()` in graph nodes), the lead
 * agent is compiled with it, the gateway serves it as the store API
 * (`/api/store/...`, each user's items under `["user-store", <user>]`), and any
 * other part of the server that keeps long-lived data (memory) uses it
 * from there rather than opening a second one.
 */
import path from "node:path";
import type { GraphStoreConfig } from "@deerflow/runtime";
import type { ServerConfig } from "../config/types.js";
import { SCALE_OUT_ENV } from "../config/defaults.js";
import type { DeploymentSettings } from "./deployment.js";

/** File name of the SQLite store under the data dir. */
const GRAPH_STORE_FILE = "store.sqlite";

/**
 * Chooses the store from the configuration (see the file header).
 *
 * @param config - the resolved configuration
 * @param deployment - the deployment settings (the checkpointer's default PostgreSQL schema)
 * @param env - the environment (`DATABASE_URL` with a checkpointer plugin)
 */
export function graphStoreConfigOf(
  config: Pick<ServerConfig, "runtime" | "storage">,
  deployment: Pick<DeploymentSettings, "checkpointerSchema">,
  env: NodeJS.ProcessEnv,
): GraphStoreConfig {
  const cp = config.runtime.checkpointer;
  const file: GraphStoreConfig = { type: "file", path: path.join(config.storage.dataDir, GRAPH_STORE_FILE) };
  const postgres = (connectionString: string, schema = deployment.checkpointerSchema): GraphStoreConfig => ({
    type: "postgres",
    connectionString,
    ...(schema === undefined ? {} : { schema }),
  });
  switch (cp.type) {
    case "memory":
      return { type: "memory" };
    case "file":
      return file;
    case "postgres":
      return postgres(cp.databaseUrl, cp.schema ?? deployment.checkpointerSchema);
    case "plugin": {
      const url = env[SCALE_OUT_ENV.databaseUrl];
      return url === undefined || url.trim() === "" ? file : postgres(url);
    }
  }
}
