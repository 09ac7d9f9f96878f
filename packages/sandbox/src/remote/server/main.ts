#!/usr/bin/env node
/**
 * `deerflow-sandbox-server`: serves a `LocalSandboxProvider` over HTTP. See
 * `USAGE` in `server-config.ts` for flags; prints `listening on http://host:port`
 * on stdout when ready and stops gracefully on SIGTERM/SIGINT (a second signal
 * exits at once).
 */
import { mkdir } from "node:fs/promises";
import { createDefaultRunner } from "../../exec/default-runner.js";
import { LocalSandboxProvider } from "../../local/local-sandbox-provider.js";
import { createSandboxServer } from "./create-sandbox-server.js";
import { parseServerConfig, UsageError, USAGE, type ServerConfig } from "./server-config.js";
import { createStderrLogger } from "./stderr-logger.js";

function urlHost(host: string): string {
  return host.includes(":") ? `[${host}]` : host;
}

function waitForStopSignal(onSignal: (signal: NodeJS.Signals) => void): Promise<void> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals): void => {
      process.off("SIGTERM", stop);
      process.off("SIGINT", stop);
      const force = (): never => process.exit(1);
      process.once("SIGTERM", force);
      process.once("SIGINT", force);
      onSignal(signal);
      resolve();
    };
    process.on("SIGTERM", stop);
    process.on("SIGINT", stop);
  });
}

async function serve(config: ServerConfig): Promise<number> {
  const logger = createStderrLogger(config.logLevel);
  await mkdir(config.baseDir, { recursive: true });
  const runner = await createDefaultRunner({ allowHostBash: config.allowHostBash, logger });
  const provider = new LocalSandboxProvider({
    baseDir: config.baseDir,
    logger,
    limits: config.limits,
    network: config.network,
    ...(config.skillsDir === undefined ? {} : { skillsDir: config.skillsDir }),
    runner,
  });
  const app = createSandboxServer({
    provider,
    logger,
    clients: config.clients,
    ...(config.adminKey === undefined ? {} : { adminKey: config.adminKey }),
    ...(config.bodyLimit === undefined ? {} : { bodyLimit: config.bodyLimit }),
    ...(config.publicUrl === undefined ? {} : { publicUrl: config.publicUrl }),
  });
  const stopped = waitForStopSignal((signal) => logger.info({ signal }, "shutting down"));
  await app.listen({ host: config.host, port: config.port });
  const address = app.server.address();
  const port = typeof address === "object" && address !== null ? address.port : config.port;
  process.stdout.write(`listening on http://${urlHost(config.host)}:${port}\n`);
  logger.info(
    {
      host: config.host,
      port,
      runner: runner.kind,
      isolated: runner.isolated,
      clients: config.clients.map((client) => client.id),
      admin: config.adminKey !== undefined,
    },
    "sandbox server started",
  );
  await stopped;
  await app.close();
  await provider.shutdown();
  logger.info({}, "stopped");
  return 0;
}

async function main(): Promise<number> {
  let config: ServerConfig | "help";
  try {
    config = parseServerConfig(process.argv.slice(2), process.env, process.cwd());
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`deerflow-sandbox-server: ${err.message}\n\n${USAGE}`);
    return 2;
  }
  if (config === "help") {
    process.stdout.write(USAGE);
    return 0;
  }
  return serve(config);
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(
      `deerflow-sandbox-server: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    process.exitCode = 1;
  },
);
