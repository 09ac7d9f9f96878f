/**
 * The real `@modelcontextprotocol/server-everything` (a devDependency) as an
 * `mcpServers` entry run over stdio by this Node: what the server's MCP
 * end-to-end tests connect to.
 */
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);

/** The package's stdio entry script. */
const EVERYTHING_SERVER = path.join(
  path.dirname(require.resolve("@modelcontextprotocol/server-everything/package.json")),
  "dist/index.js",
);

/**
 * @param extra - more keys of the entry (e.g. `env`)
 * @returns an `mcpServers` entry starting server-everything over stdio
 */
export function everythingStdioEntry(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { type: "stdio", command: process.execPath, args: [EVERYTHING_SERVER, "stdio"], ...extra };
}
