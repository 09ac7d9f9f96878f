/**
 * `@deerflow/server` (private): configuration, models, the lead agent and the
 * `use:` plugin loader of the self-hostable DeerFlow server, and `createServer`,
 * the composition root wiring runtime and gateway (the `deerflow-server` CLI is `src/main.ts`).
 *
 * @packageDocumentation
 */
export { silentLogger, type Logger } from "./logger.js";
export * from "./config/index.js";
export * from "./plugins/index.js";
export * from "./models/index.js";
export * from "./agent/index.js";
export * from "./server/index.js";
