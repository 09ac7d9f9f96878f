/**
 * The server's composition root, CLI and deployment settings.
 *
 * @packageDocumentation
 */
export {
  createServer,
  LEAD_AGENT_ASSISTANT_ID,
  type CreateServerOptions,
  type DeerFlowServer,
} from "./create-server.js";
export type { CloseServerOptions } from "./shutdown.js";
export {
  createRuntimeComponents,
  type HealthCheck,
  type RuntimeComponents,
  type RuntimeComponentsOptions,
} from "./runtime-components.js";
export { leadAgentGraphFactory } from "./lead-agent-graph.js";
export { DEPLOYMENT_DEFAULTS, readDeploymentSettings, type DeploymentSettings, type LogLevel } from "./deployment.js";
export { createServerLogger, type ServerLogger, type ServerLoggerOptions } from "./logger.js";
export { parseCliArgs, USAGE, type CliArgs } from "./cli-args.js";
export { runCli, type RunCliOptions } from "./cli.js";
export { ServerStartError, type ServerStartErrorCode } from "./errors.js";
export {
  consoleInfo,
  consoleRoutes,
  isConsoleRequest,
  resolveConsoleDir,
  CONSOLE_CSP,
  CONSOLE_NOT_BUILT_MESSAGE,
  INFO_PATH,
  type ConsoleInfo,
  type ConsoleRoutesOptions,
} from "./static-console.js";
