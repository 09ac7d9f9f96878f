/**
 * Deployment settings that are not part of `config.yaml`: they tune how one
 * process behaves inside a deployment (shutdown budget, lease length, the
 * namespaces it shares in Redis and PostgreSQL, log level) and are read from
 * the environment, so every replica of one image can be tuned alike.
 */
import { ServerStartError } from "./errors.js";

/** Settings read by {@link readDeploymentSettings}. */
export interface DeploymentSettings {
  /** How long a shutdown lets running runs finish before interrupting them (`DEERFLOW_SHUTDOWN_TIMEOUT_SECONDS`, default 10). */
  readonly shutdownTimeoutMs: number;
  /** Run ownership lease (`DEERFLOW_RUN_LEASE_SECONDS`, default 30): how soon another instance recovers the runs of a dead one. */
  readonly leaseMs: number;
  /**
   * Longest wait for the run coordinator (`DEERFLOW_COORDINATOR_TIMEOUT_SECONDS`, default 5): while
   * Redis is down, a new run is answered 503 (with `Retry-After`) after this long.
   */
  readonly coordinatorTimeoutMs: number;
  /** Prefix of every Redis key and channel (`DEERFLOW_REDIS_KEY_PREFIX`, default `deerflow:`). */
  readonly redisKeyPrefix: string;
  /** PostgreSQL schema of the run store (`DEERFLOW_POSTGRES_SCHEMA`, default `deerflow`). */
  readonly postgresSchema: string;
  /**
   * PostgreSQL schema of the checkpointer when `runtime.checkpointer.schema` is not set:
   * `DEERFLOW_POSTGRES_SCHEMA` when given, else `public` (the saver's own default).
   */
  readonly checkpointerSchema: string | undefined;
  /** Interval of the SSE keep-alive comments (`DEERFLOW_SSE_HEARTBEAT_SECONDS`, default 15). */
  readonly heartbeatMs: number;
  /** pino level (`LOG_LEVEL`, default `info`). */
  readonly logLevel: LogLevel;
  /** Id of this instance in the coordinator (`DEERFLOW_INSTANCE_ID`); default hostname plus a random UUID. */
  readonly instanceId: string | undefined;
}

/** pino log levels accepted in `LOG_LEVEL`. */
export type LogLevel = "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";

const LEVELS: readonly LogLevel[] = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];
/** Plain lowercase SQL identifier (PostgresRunStore and PostgresSaver interpolate it). */
const SCHEMA_PATTERN = /^[a-z_][a-z0-9_]{0,62}$/;

/** Defaults of {@link DeploymentSettings}. */
export const DEPLOYMENT_DEFAULTS = Object.freeze({
  shutdownTimeoutSeconds: 10,
  leaseSeconds: 30,
  coordinatorTimeoutSeconds: 5,
  redisKeyPrefix: "deerflow:",
  postgresSchema: "deerflow",
  heartbeatSeconds: 15,
  logLevel: "info" as LogLevel,
});

function value(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v.trim() === "" ? undefined : v.trim();
}

function seconds(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = value(env, name);
  if (raw === undefined) return fallback * 1000;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min) {
    throw new ServerStartError("SERVER_ENV_INVALID", `${name} must be a number of seconds >= ${min}, got "${raw}"`);
  }
  return Math.round(n * 1000);
}

/**
 * Reads the deployment settings from the environment.
 *
 * @param env - environment (default `process.env`)
 * @returns the settings with defaults filled in
 * @throws ServerStartError `SERVER_ENV_INVALID` naming the variable and the rule it breaks
 * @example
 * ```ts
 * const deployment = readDeploymentSettings({ DEERFLOW_RUN_LEASE_SECONDS: "5" });
 * deployment.leaseMs; // 5000
 * ```
 */
export function readDeploymentSettings(env: NodeJS.ProcessEnv = process.env): DeploymentSettings {
  const level = (value(env, "LOG_LEVEL") ?? DEPLOYMENT_DEFAULTS.logLevel).toLowerCase();
  if (!LEVELS.includes(level as LogLevel)) {
    throw new ServerStartError("SERVER_ENV_INVALID", `LOG_LEVEL must be one of ${LEVELS.join(", ")}, got "${level}"`);
  }
  const schema = value(env, "DEERFLOW_POSTGRES_SCHEMA");
  if (schema !== undefined && !SCHEMA_PATTERN.test(schema)) {
    throw new ServerStartError(
      "SERVER_ENV_INVALID",
      `DEERFLOW_POSTGRES_SCHEMA must be a lowercase SQL identifier ([a-z_][a-z0-9_]*), got "${schema}"`,
    );
  }
  const instanceId = value(env, "DEERFLOW_INSTANCE_ID");
  return {
    shutdownTimeoutMs: seconds(env, "DEERFLOW_SHUTDOWN_TIMEOUT_SECONDS", DEPLOYMENT_DEFAULTS.shutdownTimeoutSeconds, 0),
    leaseMs: seconds(env, "DEERFLOW_RUN_LEASE_SECONDS", DEPLOYMENT_DEFAULTS.leaseSeconds, 1),
    coordinatorTimeoutMs: seconds(
      env,
      "DEERFLOW_COORDINATOR_TIMEOUT_SECONDS",
      DEPLOYMENT_DEFAULTS.coordinatorTimeoutSeconds,
      0.1,
    ),
    redisKeyPrefix: value(env, "DEERFLOW_REDIS_KEY_PREFIX") ?? DEPLOYMENT_DEFAULTS.redisKeyPrefix,
    postgresSchema: schema ?? DEPLOYMENT_DEFAULTS.postgresSchema,
    checkpointerSchema: schema,
    heartbeatMs: seconds(env, "DEERFLOW_SSE_HEARTBEAT_SECONDS", DEPLOYMENT_DEFAULTS.heartbeatSeconds, 1),
    logLevel: level as LogLevel,
    instanceId,
  };
}
