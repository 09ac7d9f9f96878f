/**
 * One MCP server as `extensions_config.json` declares it (`mcpServers.<name>`),
 * in camelCase, after `$VAR` substitution.
 */

/** OAuth token settings of an `sse`/`http` server (DeerFlow's `oauth` block). */
export interface McpOAuthSpec {
  /** Default true. */
  readonly enabled?: boolean;
  readonly tokenUrl: string;
  /** Default `client_credentials`. */
  readonly grantType?: "client_credentials" | "refresh_token";
  readonly clientId?: string;
  readonly clientSecret?: string;
  readonly refreshToken?: string;
  readonly scope?: string;
  readonly audience?: string;
  /** Field of the token answer holding the token. Default `access_token`. */
  readonly tokenField?: string;
  /** Default `token_type`. */
  readonly tokenTypeField?: string;
  /** Default `expires_in`. */
  readonly expiresInField?: string;
  /** Default `Bearer`. */
  readonly defaultTokenType?: string;
  /** Refresh this long before expiry. Default 60. */
  readonly refreshSkewSeconds?: number;
  readonly extraTokenParams?: Readonly<Record<string, string>>;
}

/** Transport of a server: `stdio` (a child process), `sse` or `http` (streamable HTTP). */
export type McpTransportType = "stdio" | "sse" | "http";

/** One server entry. */
export interface McpServerSpec {
  /** Default true. */
  readonly enabled?: boolean;
  /** Default `stdio`. */
  readonly type?: McpTransportType;
  readonly command?: string;
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  /** Working directory of a stdio server. */
  readonly cwd?: string;
  readonly url?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly oauth?: McpOAuthSpec;
  readonly description?: string;
  /** Prefix discovered tool names with `<server>_`. Default true. */
  readonly toolNamePrefix?: boolean;
  /** Per-call bound in seconds (DeerFlow's `tool_call_timeout`); default: the toolset's. */
  readonly toolCallTimeout?: number;
  /** Bound of spawn + initialize + tools/list in seconds (`session_init_timeout`); default: the toolset's. */
  readonly sessionInitTimeout?: number;
}

/** Names the model may call (DeerFlow drops the others with a warning). */
export const MCP_TOOL_NAME_PATTERN = /^[A-Za-z0-9_-]+$/;

/**
 * The name a discovered tool gets.
 *
 * @param server - the server's name in `mcpServers`
 * @param tool - the tool's name on the server
 * @param prefix - DeerFlow's `tool_name_prefix` (default true)
 * @returns `<server>_<tool>`, or `tool` without the prefix
 */
export function mcpToolName(server: string, tool: string, prefix = true): string {
  return prefix ? `${server}_${tool}` : tool;
}
