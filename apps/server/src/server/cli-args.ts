/**
 * Command-line arguments of `deerflow-server`.
 */
import { ServerStartError } from "./errors.js";

/** Parsed arguments. */
export interface CliArgs {
  /** `--config <path>`: the config file (must exist). Default: `./config.yaml` when present, else embedded defaults. */
  readonly config?: string;
  /** `--port <n>`: overrides `server.port` (0 picks a free port). */
  readonly port?: number;
  /** `--host <h>`: overrides `server.host`. */
  readonly host?: string;
  readonly help: boolean;
}

/** The `--help` text. */
export const USAGE = `Usage: deerflow-server [--config <path>] [--port <n>] [--host <h>]

Starts the DeerFlow server.

  --config <path>  config file (default: ./config.yaml when present, else embedded defaults)
  --port <n>       listen port, overrides server.port (0 picks a free port)
  --host <h>       listen address, overrides server.host (0.0.0.0 for every interface)
  -h, --help       show this text

Environment: REDIS_URL and DATABASE_URL switch to shared Redis / PostgreSQL (many instances);
LOG_LEVEL, DEERFLOW_SHUTDOWN_TIMEOUT_SECONDS, DEERFLOW_RUN_LEASE_SECONDS,
DEERFLOW_COORDINATOR_TIMEOUT_SECONDS, DEERFLOW_REDIS_KEY_PREFIX, DEERFLOW_POSTGRES_SCHEMA,
DEERFLOW_SSE_HEARTBEAT_SECONDS, DEERFLOW_INSTANCE_ID tune the process.
`;

/**
 * Parses `deerflow-server` arguments (`--name value` or `--name=value`).
 *
 * @param argv - arguments after the script (`process.argv.slice(2)`)
 * @returns the parsed arguments
 * @throws ServerStartError `SERVER_USAGE` for unknown options, missing values and bad ports
 * @example
 * ```ts
 * parseCliArgs(["--port", "8080", "--config=prod.yaml"]); // { port: 8080, config: "prod.yaml", help: false }
 * ```
 */
export function parseCliArgs(argv: readonly string[]): CliArgs {
  const out: { config?: string; port?: number; host?: string; help: boolean } = { help: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "-h" || arg === "--help") {
      out.help = true;
      continue;
    }
    const eq = arg.indexOf("=");
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    if (name !== "--config" && name !== "--port" && name !== "--host") {
      throw new ServerStartError("SERVER_USAGE", `Unknown argument "${arg}"\n\n${USAGE}`);
    }
    let value: string | undefined;
    if (eq > 0) value = arg.slice(eq + 1);
    else {
      value = argv[i + 1];
      i++;
    }
    if (value === undefined || value === "" || (eq < 0 && value.startsWith("--"))) {
      throw new ServerStartError("SERVER_USAGE", `${name} needs a value\n\n${USAGE}`);
    }
    if (name === "--port") {
      const port = Number(value);
      if (!/^\d+$/.test(value) || port > 65535)
        throw new ServerStartError("SERVER_USAGE", `--port must be an integer from 0 to 65535, got "${value}"`);
      out.port = port;
    } else if (name === "--host") out.host = value;
    else out.config = value;
  }
  return out;
}
