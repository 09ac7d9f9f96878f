#!/usr/bin/env node
/**
 * CLI entry of the DeerFlow server:
 * `deerflow-server [--config path] [--port n] [--host h]`.
 * Logs are JSON lines on stdout (pino).
 */
import { createServerLogger } from "./server/logger.js";
import { runCli } from "./server/cli.js";

const fatal = createServerLogger();
process.on("uncaughtException", (err) => {
  fatal.fatal({ err }, "uncaught exception");
  process.exit(1);
});
process.on("unhandledRejection", (reason) => {
  fatal.fatal({ err: reason }, "unhandled promise rejection");
  process.exit(1);
});

// Exit explicitly: sandbox children, keep-alive sockets or timers of plugins must not keep a stopped server alive.
process.exit(await runCli(process.argv.slice(2)));
