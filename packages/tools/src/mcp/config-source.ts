/**
 * Where a toolset's servers come from. The toolset asks for a signature before
 * every use and reloads when it changes, so a source decides what "changed"
 * means (the file source: DeerFlow's mtime, size and content hash).
 */
import type { McpServerSpec } from "./server-spec.js";

/** A source of `mcpServers`. */
export interface McpConfigSource {
  /**
   * A value that differs whenever the servers may differ. `undefined` means
   * "cannot tell now" (e.g. the file was deleted): the last loaded servers stay.
   */
  signature(): Promise<string | undefined>;
  /** The servers by name (enabled or not), read fresh. */
  load(): Promise<Readonly<Record<string, McpServerSpec>>>;
}

/**
 * A fixed set of servers (for embedding the toolset without a file).
 *
 * @param servers - the servers by name
 * @returns a source whose signature never changes
 * @example
 * ```ts
 * const toolset = new McpToolset({ source: staticMcpSource({ fs: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"] } }) });
 * ```
 */
export function staticMcpSource(servers: Readonly<Record<string, McpServerSpec>>): McpConfigSource {
  return { signature: async () => "static", load: async () => servers };
}
