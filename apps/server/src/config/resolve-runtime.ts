/**
 * The `runtime:` section: which stream bridge, run store and checkpointer a
 * deployment uses. What the config does not choose comes from `REDIS_URL` /
 * `DATABASE_URL` (shared services for many instances), else the embedded
 * defaults (memory bridge, SQLite run store and checkpointer under the data dir).
 */
import path from "node:path";
import { isUseSpec } from "../plugins/index.js";
import { CONFIG_DEFAULTS as D, SCALE_OUT_ENV } from "./defaults.js";
import type { CheckpointerSettings, RunStoreSettings, RuntimeSettings, StreamBridgeSettings } from "./types.js";

type Doc = Record<string, unknown>;

/** What {@link resolveRuntime} needs from the surrounding resolution. */
export interface RuntimeResolveContext {
  readonly env: NodeJS.ProcessEnv;
  /** Makes a configured path absolute. */
  readonly abs: (p: string) => string;
  readonly dataDir: string;
  readonly problem: (keyPath: string, message: string) => void;
  /** Receives why each component was chosen. */
  readonly provenance: Record<string, string>;
}

const section = (doc: Doc, key: string): Doc => (doc[key] as Doc | undefined) ?? {};
const opt = <K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } =>
  value === undefined ? {} : ({ [key]: value } as { [P in K]: V });

/**
 * Resolves the runtime section.
 *
 * @param rt - the validated `runtime:` mapping (may be empty)
 * @param ctx - environment, path resolution, problem and provenance sinks
 * @returns the typed runtime settings
 */
export function resolveRuntime(rt: Doc, ctx: RuntimeResolveContext): RuntimeSettings {
  const { env, abs, dataDir, problem, provenance } = ctx;
  const redisEnv = nonEmptyEnv(env, SCALE_OUT_ENV.redisUrl);
  const databaseEnv = nonEmptyEnv(env, SCALE_OUT_ENV.databaseUrl);

  const sbr = section(rt, "stream_bridge");
  let streamBridge: StreamBridgeSettings;
  const maxEvents = opt("maxEventsPerRun", sbr["max_events_per_run"] as number | undefined);
  if (pluginChoice(sbr, "runtime.stream_bridge", problem)) {
    streamBridge = {
      type: "plugin",
      use: sbr["use"] as string,
      options: (sbr["options"] as Record<string, unknown> | undefined) ?? {},
    };
    provenance["runtime.stream_bridge"] = "config (plugin)";
  } else {
    const type = (sbr["type"] as "memory" | "redis" | undefined) ?? (redisEnv !== undefined ? "redis" : "memory");
    provenance["runtime.stream_bridge"] =
      sbr["type"] !== undefined
        ? "config"
        : type === "redis"
          ? `environment (${SCALE_OUT_ENV.redisUrl} is set)`
          : "embedded default (one instance)";
    if (type === "redis") {
      const redisUrl = (sbr["redis_url"] as string | undefined) ?? redisEnv;
      if (redisUrl === undefined) {
        problem("runtime.stream_bridge.redis_url", `is required for type redis (or set ${SCALE_OUT_ENV.redisUrl})`);
        streamBridge = { type: "memory", ...maxEvents };
      } else streamBridge = { type: "redis", redisUrl, ...maxEvents };
    } else streamBridge = { type: "memory", ...maxEvents };
  }

  const rs = section(rt, "run_store");
  let runStore: RunStoreSettings;
  if (pluginChoice(rs, "runtime.run_store", problem)) {
    runStore = {
      type: "plugin",
      use: rs["use"] as string,
      options: (rs["options"] as Record<string, unknown> | undefined) ?? {},
    };
    provenance["runtime.run_store"] = "config (plugin)";
  } else {
    const type =
      (rs["type"] as "memory" | "file" | "postgres" | undefined) ?? (databaseEnv !== undefined ? "postgres" : "file");
    provenance["runtime.run_store"] =
      rs["type"] !== undefined
        ? "config"
        : type === "postgres"
          ? `environment (${SCALE_OUT_ENV.databaseUrl} is set)`
          : "embedded default (one instance)";
    runStore = databaseChoice(
      type,
      rs,
      "runtime.run_store",
      databaseEnv,
      abs,
      path.join(dataDir, D.runStoreFile),
      problem,
    ) as RunStoreSettings;
  }

  const cp = section(rt, "checkpointer");
  let checkpointer: CheckpointerSettings;
  if (pluginChoice(cp, "runtime.checkpointer", problem)) {
    checkpointer = {
      type: "plugin",
      use: cp["use"] as string,
      options: (cp["options"] as Record<string, unknown> | undefined) ?? {},
    };
    provenance["runtime.checkpointer"] = "config (plugin)";
  } else {
    const type =
      (cp["type"] as "memory" | "file" | "postgres" | undefined) ?? (databaseEnv !== undefined ? "postgres" : "file");
    provenance["runtime.checkpointer"] =
      cp["type"] !== undefined
        ? "config"
        : type === "postgres"
          ? `environment (${SCALE_OUT_ENV.databaseUrl} is set)`
          : "embedded default (file under the data dir)";
    const chosen = databaseChoice(
      type,
      cp,
      "runtime.checkpointer",
      databaseEnv,
      abs,
      path.join(dataDir, D.checkpointFile),
      problem,
    );
    checkpointer =
      chosen.type === "postgres" && cp["schema"] !== undefined
        ? { ...chosen, schema: cp["schema"] as string }
        : (chosen as CheckpointerSettings);
  }

  const ret = section(rt, "retention");
  const runtime = {
    streamBridge,
    runStore,
    checkpointer,
    checkpointDurability: (cp["durability"] as RuntimeSettings["checkpointDurability"] | undefined) ?? "async",
    retention: {
      finishedRunsMs: ((ret["finished_runs_seconds"] as number | undefined) ?? D.finishedRunsSeconds) * 1000,
      streamReplayMs: ((ret["stream_replay_seconds"] as number | undefined) ?? D.streamReplaySeconds) * 1000,
    },
  };
  return runtime;
}

function nonEmptyEnv(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === "" ? undefined : value;
}

/** True when the section names a plugin; reports `use` + `type` together and malformed specs. */
function pluginChoice(sec: Doc, at: string, problem: (p: string, m: string) => void): boolean {
  const use = sec["use"] as string | undefined;
  if (use === undefined) return false;
  if (sec["type"] !== undefined) problem(`${at}.type`, "set either use (a plugin) or type (a built-in), not both");
  if (!isUseSpec(use)) {
    problem(`${at}.use`, `must be "<module>:<export>", got "${use}"`);
    return false;
  }
  return true;
}

function databaseChoice(
  type: "memory" | "file" | "postgres",
  sec: Doc,
  at: string,
  databaseEnv: string | undefined,
  abs: (p: string) => string,
  defaultFile: string,
  problem: (p: string, m: string) => void,
): { type: "memory" } | { type: "file"; path: string } | { type: "postgres"; databaseUrl: string } {
  if (type === "file") return { type, path: sec["path"] === undefined ? defaultFile : abs(sec["path"] as string) };
  if (type === "postgres") {
    const databaseUrl = (sec["database_url"] as string | undefined) ?? databaseEnv;
    if (databaseUrl === undefined) {
      problem(`${at}.database_url`, `is required for type postgres (or set ${SCALE_OUT_ENV.databaseUrl})`);
      return { type: "memory" };
    }
    return { type, databaseUrl };
  }
  return { type };
}
