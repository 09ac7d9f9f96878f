/**
 * Typed errors of the MCP part of `@deerflow/tools`.
 */
import { DeerflowError } from "@deerflow/kernel";

/**
 * - `MCP_CONFIG_INVALID`: an `mcpServers` entry cannot be used (missing `command`/`url`, bad transport, bad name).
 * - `MCP_CONNECT_FAILED`: a server did not start or did not answer `initialize`.
 * - `MCP_TIMEOUT`: connect (session init) or a call took longer than its bound.
 * - `MCP_CALL_FAILED`: a call failed, or the tool answered with `isError`.
 * - `MCP_CLOSED`: the toolset was closed.
 * - `MCP_OAUTH_FAILED`: the OAuth token endpoint refused or answered without a token.
 */
export type McpErrorCode =
  | "MCP_CONFIG_INVALID"
  | "MCP_CONNECT_FAILED"
  | "MCP_TIMEOUT"
  | "MCP_CALL_FAILED"
  | "MCP_CLOSED"
  | "MCP_OAUTH_FAILED";

/** An MCP failure with a stable {@link McpErrorCode}. */
export class McpError extends DeerflowError<McpErrorCode> {
  static override readonly brand: symbol = Symbol.for("@deerflow/tools/mcp-error");
  override name = "McpError";
}
