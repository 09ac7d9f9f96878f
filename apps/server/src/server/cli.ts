/**
 * `deerflow-server`: parses the arguments, loads the configuration, creates
 * the server, listens, and shuts down gracefully on SIGTERM / SIGINT.
 */
import { CONFIG_DEFAULTS } from "../config/defaults.js";
import { loadConfig } from "../config/load-config.js";
import { ServerConfigError } from "../config/errors.js";
import { PluginLoadError } from "../plugins/index.js";
import { parseCliArgs, USAGE } from "./cli-args.js";
import { createServer, type DeerFlowServer } from "./create-server.js";
import { readDeploymentSettings, type DeploymentSettings } from "./deployment.js";
import { ServerStartError } from "./errors.js";
import { firstFreePort } from "./port-fallback.js";
import { createServerLogger, type ServerLogger } from "./logger.js";

/** Options of {@link runCli} (tests and embedding; the CLI uses the process's own). */
export interface RunCliOptions {
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  readonly logger?: ServerLogger;
  /** Where `--help` goes. Default stdout. */
  readonly out?: NodeJS.WritableStream;
  /** Signals that start a graceful shutdown. Default SIGTERM and SIGINT. */
  readonly signals?: readonly NodeJS.Signals[];
  /** Called once the server listens. */
  readonly onListening?: (server: DeerFlowServer, url: string) => void;
}

/**
 * Runs the server until a shutdown signal.
 *
 * - exit code 0: `--help`, or a graceful shutdown after SIGTERM / SIGINT (a second signal
 *   during the shutdown exits at once with 1);
 * - 1: the server could not start (config, plugin, component or listen errors, logged with their code);
 * - 2: bad arguments.
 *
 * @param argv - arguments after the script
 * @param options - environment, working directory, logger
 * @returns the exit code, once the server has stopped (or failed to start)
 */
export async function runCli(argv: readonly string[], options: RunCliOptions = {}): Promise<number> {
  const env = options.env ?? process.env;
  let deployment: DeploymentSettings | undefined;
  let logger = options.logger;
  try {
    deployment = readDeploymentSettings(env);
  } catch (err) {
    logger ??= createServerLogger();
    logError(logger, err);
    return 1;
  }
  logger ??= createServerLogger({ level: deployment.logLevel });

  let args;
  try {
    args = parseCliArgs(argv);
  } catch (err) {
    logError(logger, err);
    return 2;
  }
  if (args.help) {
    (options.out ?? process.stdout).write(USAGE);
    return 0;
  }

  let server: DeerFlowServer;
  let port = args.port;
  try {
    const loaded = await loadConfig({
      env,
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      ...(args.config === undefined ? {} : { path: args.config }),
    });
    server = await createServer(loaded, {
      logger,
      env,
      deployment,
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    });
    const { host, port: configured } = loaded.config.server;
    if (port === undefined && configured === CONFIG_DEFAULTS.port) {
      port = await firstFreePort(args.host ?? host, configured);
      if (port !== configured)
        logger.warn(
          { event: "port", wanted: configured, port },
          `port ${configured} is in use; using ${port} instead (choose one with --port)`,
        );
    }
  } catch (err) {
    logError(logger, err);
    return 1;
  }

  let stoppedCleanup: (() => void) | undefined;
  const stopped = new Promise<number>((resolve) => {
    let received: NodeJS.Signals | undefined;
    const onSignal = (signal: NodeJS.Signals): void => {
      if (received !== undefined) {
        logger.warn({ event: "shutdown", signal }, `second ${signal} during shutdown: exiting now`);
        resolve(1);
        return;
      }
      received = signal;
      logger.info({ event: "shutdown", signal }, `${signal} received: shutting down gracefully`);
      void server.close().then(() => resolve(0));
    };
    for (const signal of options.signals ?? ["SIGTERM", "SIGINT"]) process.on(signal, onSignal);
    stoppedCleanup = () => {
      for (const signal of options.signals ?? ["SIGTERM", "SIGINT"]) process.off(signal, onSignal);
    };
  });

  try {
    const url = await server.listen({
      ...(port === undefined ? {} : { port }),
      ...(args.host === undefined ? {} : { host: args.host }),
    });
    options.onListening?.(server, url);
  } catch (err) {
    logError(logger, err);
    stoppedCleanup?.();
    await server.close({ drain: false });
    return 1;
  }
  const code = await stopped;
  stoppedCleanup?.();
  return code;
}

function logError(logger: ServerLogger, err: unknown): void {
  if (ServerConfigError.isInstance(err)) logger.error({ code: err.code, problems: err.problems }, err.message);
  else if (ServerStartError.isInstance(err) || PluginLoadError.isInstance(err))
    logger.error({ code: err.code }, err.message);
  else {
    const code = (err as { code?: unknown } | null)?.code;
    logger.error(
      { err, ...(typeof code === "string" ? { code } : {}) },
      `server failed to start: ${(err as Error).message ?? String(err)}`,
    );
  }
}
