/**
 * Configuration of the `deerflow-sandbox-server` process, from flags and
 * environment variables (flags win). Keys are read from the environment
 * only, so they never show in `ps`.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import type { ResourceLimits } from "../../exec/command-runner.js";
import type { ClientKey } from "./auth.js";
import { KeyConfigError, readKeyConfig } from "./client-keys-config.js";

/** A bad command line; the process prints it and exits 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

/** Log levels of the process's stderr logger. */
export type LogLevel = "debug" | "info" | "warn" | "error";

/**
 * Limits of every command when `--limits` does not override them: the service
 * runs untrusted commands, so nothing is unbounded by default.
 */
export const DEFAULT_SERVER_LIMITS: Readonly<Required<ResourceLimits>> = {
  cpuSeconds: 600,
  memoryBytes: 2 * 1024 ** 3,
  fileSizeBytes: 1024 ** 3,
  processes: 256,
  openFiles: 1024,
  tmpBytes: 256 * 1024 ** 2,
  cpuWeight: 100,
  diskBytes: 10 * 1024 ** 3,
  diskFiles: 1_000_000,
};

/** Everything the server process needs. */
export interface ServerConfig {
  readonly host: string;
  /** 0 picks a free port (printed in the `listening on` line). */
  readonly port: number;
  /** Per-thread folders live under this directory. */
  readonly baseDir: string;
  readonly skillsDir: string | undefined;
  /** `SANDBOX_API_KEY` (client `default`) and `SANDBOX_CLIENT_KEYS`; each owns the sandboxes it creates. */
  readonly clients: readonly ClientKey[];
  /** `SANDBOX_ADMIN_KEY`: lists every client's sandboxes and may stop any. */
  readonly adminKey: string | undefined;
  /** Run commands on the host when bubblewrap is unavailable (trusted environments only). */
  readonly allowHostBash: boolean;
  /** Give commands network access. */
  readonly network: boolean;
  /** Resource limits of every command. */
  readonly limits: ResourceLimits;
  readonly publicUrl: string | undefined;
  readonly bodyLimit: number | undefined;
  readonly logLevel: LogLevel;
}

/** `--help` text. */
export const USAGE = `Usage: deerflow-sandbox-server [options]

Serves sandboxes over HTTP (the all-in-one sandbox API subset DeerFlow uses).

Options (environment variable in brackets):
  --host <host>          bind address, default 127.0.0.1 [SANDBOX_HOST]
  --port <port>          port, default 8080; 0 picks a free one [SANDBOX_PORT]
  --base-dir <dir>       per-thread data directory, default ./.deer-flow [SANDBOX_BASE_DIR]
  --skills-dir <dir>     skills directory mounted read-only at /mnt/skills [SANDBOX_SKILLS_DIR]
  --allow-host-bash      run commands on the host when bubblewrap is unavailable [SANDBOX_ALLOW_HOST_BASH=1]
  --network              give commands network access [SANDBOX_NETWORK=1]
  --limits <json>        per-command limits over the defaults, e.g. '{"fileSizeBytes":1073741824}';
                         keys cpuSeconds memoryBytes fileSizeBytes processes openFiles tmpBytes
                         cpuWeight diskBytes diskFiles, 0 removes a limit [SANDBOX_LIMITS]
  --public-url <url>     base of the sandbox_url values handed out [SANDBOX_PUBLIC_URL]
  --body-limit <bytes>   largest request body, default 64 MiB [SANDBOX_BODY_LIMIT]
  --log-level <level>    debug | info | warn | error, default info [SANDBOX_LOG_LEVEL]
  --allow-no-auth        serve a non-loopback address without any key
  -h, --help             print this help

Keys (environment only; every request but GET /healthz carries one in X-API-Key):
  SANDBOX_API_KEY        one client key (client "default")
  SANDBOX_CLIENT_KEYS    several client keys, a JSON object of client id to key,
                         e.g. '{"agents-eu":"<key>","agents-us":"<key>"}' (keys of 16+ characters)
  SANDBOX_ADMIN_KEY      the operator's key: lists every client's sandboxes, stops any
A client sees and reaches only the sandboxes it created; any other answers 404.
Prints "listening on http://<host>:<port>" on stdout when ready; SIGTERM/SIGINT stop it gracefully.
`;

const LEVELS: readonly LogLevel[] = ["debug", "info", "warn", "error"];

function isTrue(value: string | undefined): boolean {
  return value !== undefined && /^(1|true|yes|on)$/i.test(value);
}

function integer(name: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max)
    throw new UsageError(`${name} must be an integer between ${min} and ${max}: ${text}`);
  return value;
}

/**
 * Parses `--limits`: a JSON object of {@link ResourceLimits} keys over
 * {@link DEFAULT_SERVER_LIMITS}; 0 removes a limit.
 *
 * @param text - The JSON, or undefined for the defaults.
 * @returns The limits.
 * @throws UsageError on bad JSON, unknown keys or non-integers.
 */
export function parseLimits(text: string | undefined): ResourceLimits {
  const merged: Record<string, number> = { ...DEFAULT_SERVER_LIMITS };
  if (text === undefined) return merged;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError(`--limits is not JSON: ${text}`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw new UsageError("--limits must be a JSON object");
  for (const [key, value] of Object.entries(parsed)) {
    if (!(key in DEFAULT_SERVER_LIMITS)) throw new UsageError(`--limits: unknown limit ${key}`);
    if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0)
      throw new UsageError(`--limits: ${key} must be a non-negative integer`);
    if (value === 0) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

/**
 * True for addresses only this machine can reach.
 *
 * @param host - A bind address.
 * @returns Whether it is loopback.
 */
export function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || host.startsWith("127.");
}

/**
 * Parses flags and environment.
 *
 * @param argv - Arguments after the script name.
 * @param env - The environment.
 * @param cwd - Base of relative directories.
 * @returns The configuration, or `"help"` for `--help`.
 * @throws UsageError on unknown flags, bad values, or a public bind without a key.
 */
export function parseServerConfig(argv: readonly string[], env: NodeJS.ProcessEnv, cwd: string): ServerConfig | "help" {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        host: { type: "string" },
        port: { type: "string" },
        "base-dir": { type: "string" },
        "skills-dir": { type: "string" },
        "allow-host-bash": { type: "boolean" },
        network: { type: "boolean" },
        limits: { type: "string" },
        "public-url": { type: "string" },
        "body-limit": { type: "string" },
        "log-level": { type: "string" },
        "allow-no-auth": { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  if (values.help === true) return "help";
  const host = values.host ?? env.SANDBOX_HOST ?? "127.0.0.1";
  let keys;
  try {
    keys = readKeyConfig(env);
  } catch (err) {
    if (err instanceof KeyConfigError) throw new UsageError(err.message);
    throw err;
  }
  if (
    keys.clients.length === 0 &&
    keys.adminKey === undefined &&
    !isLoopback(host) &&
    values["allow-no-auth"] !== true
  ) {
    throw new UsageError(
      `refusing to serve ${host} without SANDBOX_API_KEY or SANDBOX_CLIENT_KEYS (pass --allow-no-auth to insist)`,
    );
  }
  const logLevel = values["log-level"] ?? env.SANDBOX_LOG_LEVEL ?? "info";
  if (!LEVELS.includes(logLevel as LogLevel))
    throw new UsageError(`--log-level must be one of ${LEVELS.join(", ")}: ${logLevel}`);
  const bodyLimit = values["body-limit"] ?? env.SANDBOX_BODY_LIMIT;
  const skillsDir = values["skills-dir"] ?? env.SANDBOX_SKILLS_DIR;
  return {
    host,
    port: integer("--port", values.port ?? env.SANDBOX_PORT ?? "8080", 0, 65_535),
    baseDir: path.resolve(cwd, values["base-dir"] ?? env.SANDBOX_BASE_DIR ?? ".deer-flow"),
    skillsDir: skillsDir === undefined || skillsDir === "" ? undefined : path.resolve(cwd, skillsDir),
    clients: keys.clients,
    adminKey: keys.adminKey,
    allowHostBash: values["allow-host-bash"] === true || isTrue(env.SANDBOX_ALLOW_HOST_BASH),
    network: values.network === true || isTrue(env.SANDBOX_NETWORK),
    limits: parseLimits(values.limits ?? env.SANDBOX_LIMITS),
    publicUrl: values["public-url"] ?? env.SANDBOX_PUBLIC_URL,
    bodyLimit: bodyLimit === undefined ? undefined : integer("--body-limit", bodyLimit, 1024, 2 ** 31),
    logLevel: logLevel as LogLevel,
  };
}
