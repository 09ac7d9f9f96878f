/**
 * Opens an MCP client session for one server spec over the SDK's transports
 * (stdio child process, SSE, streamable HTTP), bounded by a timeout that also
 * tears the transport down, so a hanging server leaves no child behind.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StdioClientTransport, getDefaultEnvironment } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { McpError } from "./errors.js";
import { OAuthTokenProvider } from "./oauth-token.js";
import type { McpServerSpec } from "./server-spec.js";

/** What {@link connectMcpServer} needs besides the spec. */
export interface ConnectOptions {
  /** Bound of spawn + `initialize`, in ms. */
  readonly timeoutMs: number;
  /** Token source of a server with `oauth` (shared by its sessions so refreshes are de-duplicated). */
  readonly oauth?: OAuthTokenProvider | undefined;
  /** Client name sent in `initialize`. */
  readonly clientName?: string;
  /** Aborting stops the connect and tears the transport down (a closing toolset leaves no child starting). */
  readonly signal?: AbortSignal;
}

/**
 * Builds the transport of a spec.
 *
 * @param name - the server's name (for messages)
 * @param spec - the entry
 * @param oauth - the token source, for `sse`/`http` with `oauth`
 * @returns an unstarted transport
 * @throws McpError `MCP_CONFIG_INVALID` for a missing `command`/`url` or an unknown type (DeerFlow's texts)
 */
function createMcpTransport(name: string, spec: McpServerSpec, oauth?: OAuthTokenProvider): Transport {
  const type = spec.type ?? "stdio";
  if (type === "stdio") {
    if (spec.command === undefined || spec.command === "")
      throw new McpError("MCP_CONFIG_INVALID", `MCP server '${name}' with stdio transport requires 'command' field`);
    return new StdioClientTransport({
      command: spec.command,
      args: [...(spec.args ?? [])],
      env: { ...getDefaultEnvironment(), ...spec.env },
      ...(spec.cwd === undefined ? {} : { cwd: spec.cwd }),
      // The server's own diagnostics must not mix into ours; a failing start shows as a closed connection.
      stderr: "ignore",
    });
  }
  if (type !== "sse" && type !== "http")
    throw new McpError("MCP_CONFIG_INVALID", `MCP server '${name}' has unsupported transport type: ${String(type)}`);
  if (spec.url === undefined || spec.url === "")
    throw new McpError("MCP_CONFIG_INVALID", `MCP server '${name}' with ${type} transport requires 'url' field`);
  const url = new URL(spec.url);
  const headers = { ...spec.headers };
  const authorizedFetch: typeof fetch | undefined =
    oauth === undefined
      ? undefined
      : async (input, init) => {
          const h = new Headers(init?.headers);
          h.set("authorization", await oauth.authorization());
          return fetch(input, { ...init, headers: h });
        };
  const common = {
    requestInit: { headers },
    ...(authorizedFetch === undefined ? {} : { fetch: authorizedFetch }),
  };
  return type === "sse" ? new SSEClientTransport(url, common) : new StreamableHTTPClientTransport(url, common);
}

/**
 * Connects to a server: starts the transport and runs `initialize` within the timeout.
 *
 * @param name - the server's name
 * @param spec - the entry
 * @param options - timeout, OAuth token source
 * @returns a connected client (close it with `client.close()`)
 * @throws McpError `MCP_TIMEOUT` after `timeoutMs`, `MCP_CONNECT_FAILED` when the server fails to start or answer
 */
export async function connectMcpServer(name: string, spec: McpServerSpec, options: ConnectOptions): Promise<Client> {
  const transport = createMcpTransport(name, spec, options.oauth);
  const client = new Client({ name: options.clientName ?? "deerflow", version: "0.1.0" });
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(new McpError("MCP_CLOSED", `connecting to MCP server '${name}' was cancelled`));
    if (options.signal?.aborted === true) onAbort();
    else options.signal?.addEventListener("abort", onAbort, { once: true });
  });
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new McpError("MCP_TIMEOUT", `MCP server '${name}' did not start within ${options.timeoutMs / 1000}s`, {
            details: { server: name },
          }),
        ),
      options.timeoutMs,
    );
  });
  try {
    await Promise.race([client.connect(transport, { timeout: options.timeoutMs }), timeout, aborted]);
    return client;
  } catch (err) {
    await client.close().catch(() => {});
    await transport.close().catch(() => {});
    if (McpError.isInstance(err)) throw err;
    throw new McpError("MCP_CONNECT_FAILED", `MCP server '${name}' failed to connect: ${(err as Error).message}`, {
      cause: err,
      details: { server: name },
    });
  } finally {
    clearTimeout(timer);
    if (onAbort !== undefined) options.signal?.removeEventListener("abort", onAbort);
  }
}
