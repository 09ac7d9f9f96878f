/**
 * The structured logger this package accepts: pino's call shape, shared by
 * every `@deerflow/*` package (one definition, in the kernel bundled into
 * this package's build).
 */
export { silentLogger, type Logger } from "@deerflow/kernel";
