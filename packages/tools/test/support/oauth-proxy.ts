/**
 * An OAuth client-credentials token endpoint in front of an MCP HTTP server:
 * `POST /token` issues a token for the right client, `/mcp` forwards to the
 * server only with `Authorization: Bearer <token>` (401 otherwise). It counts
 * token requests and refused calls, so a test can see the token was fetched
 * once and sent on every request.
 */
import http from "node:http";
import { once } from "node:events";
import type net from "node:net";

/** A running proxy. */
export interface OAuthProxy {
  readonly tokenUrl: string;
  readonly mcpUrl: string;
  readonly tokenRequests: URLSearchParams[];
  refused: number;
  close(): Promise<void>;
}

/**
 * @param upstream - the MCP server's `/mcp` URL
 * @param client - the accepted client id and secret
 * @returns the proxy
 */
export async function startOAuthProxy(upstream: string, client: { id: string; secret: string }): Promise<OAuthProxy> {
  const token = "tok-123";
  const target = new URL(upstream);
  const state: OAuthProxy = {
    tokenUrl: "",
    mcpUrl: "",
    tokenRequests: [],
    refused: 0,
    close: async () => {},
  };
  const server = http.createServer((req, res) => {
    if (req.url === "/token" && req.method === "POST") {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        const form = new URLSearchParams(body);
        state.tokenRequests.push(form);
        const ok =
          form.get("grant_type") === "client_credentials" &&
          form.get("client_id") === client.id &&
          form.get("client_secret") === client.secret;
        res.writeHead(ok ? 200 : 401, { "content-type": "application/json" });
        res.end(
          JSON.stringify(
            ok ? { access_token: token, token_type: "Bearer", expires_in: 3600 } : { error: "invalid_client" },
          ),
        );
      });
      return;
    }
    if (req.headers.authorization !== `Bearer ${token}`) {
      state.refused += 1;
      res.writeHead(401).end();
      return;
    }
    const forward = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: req.method,
        headers: { ...req.headers, host: target.host },
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    forward.on("error", () => res.destroy());
    req.pipe(forward);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const port = (server.address() as net.AddressInfo).port;
  return Object.assign(state, {
    tokenUrl: `http://127.0.0.1:${port}/token`,
    mcpUrl: `http://127.0.0.1:${port}/mcp`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  });
}
