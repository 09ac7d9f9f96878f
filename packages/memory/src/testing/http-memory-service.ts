/**
 * A local memory service speaking `HttpMemoryBackend`'s API (see its
 * TSDoc), kept by a `StoreMemoryBackend` over an `InMemoryStore`, on a real
 * loopback socket: the "remote service" the plugin example is tested against,
 * here and in deployments that select it (the server's
 * `memory.manager_class: "<module>:<export>"`).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { InMemoryStore } from "@langchain/langgraph";
import { StoreMemoryBackend } from "../backend/store-memory-backend.js";
import { MemoryError } from "../errors.js";
import type { MemoryScope } from "../types.js";

/** A running {@link startHttpMemoryService} service. */
export interface HttpMemoryService {
  /** Its API's base URL (`http://127.0.0.1:<port>/v1`), for `new HttpMemoryBackend({ baseUrl })`. */
  readonly baseUrl: string;
  /** Authorization headers received, in order. */
  readonly authorizations: (string | undefined)[];
  close(): Promise<void>;
}

const STATUS: Record<string, number> = {
  FACT_DUPLICATE: 409,
  FACT_EVICTED: 409,
  FACT_NOT_FOUND: 404,
  INVALID_INPUT: 400,
  CORRUPTED: 500,
};

async function body(req: http.IncomingMessage): Promise<unknown> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  const text = Buffer.concat(parts).toString("utf8");
  return text === "" ? undefined : JSON.parse(text);
}

/**
 * Starts the service on a free loopback port.
 *
 * @returns the running service; `close()` stops it
 * @example
 * ```ts
 * const service = await startHttpMemoryService();
 * const backend = new HttpMemoryBackend({ baseUrl: service.baseUrl });
 * await service.close();
 * ```
 */
export async function startHttpMemoryService(): Promise<HttpMemoryService> {
  const backend = new StoreMemoryBackend({ store: new InMemoryStore() });
  const authorizations: (string | undefined)[] = [];
  const server = http.createServer((req, res) => {
    authorizations.push(req.headers.authorization);
    const send = (status: number, value?: unknown): void => {
      res.writeHead(status, value === undefined ? {} : { "content-type": "application/json" });
      res.end(value === undefined ? undefined : JSON.stringify(value));
    };
    const m = /^\/v1\/memories\/([^/]+)\/([^/]+)(\/summaries|\/search|\/facts(?:\/([^/]+))?)?$/.exec(
      (req.url ?? "").split("?")[0] ?? "",
    );
    if (m === null) return send(404, { error: { code: "NOT_ROUTED", message: "no such route" } });
    const agent = decodeURIComponent(m[2] as string);
    const scope: MemoryScope = {
      userId: decodeURIComponent(m[1] as string),
      ...(agent === "__default__" ? {} : { agentName: agent }),
    };
    const rest = m[3];
    const id = m[4] === undefined ? undefined : decodeURIComponent(m[4]);
    const route = `${req.method} ${rest === undefined ? "" : rest.startsWith("/facts/") ? "/facts/:id" : rest}`;
    void (async () => {
      try {
        const input = (await body(req)) as never;
        switch (route) {
          case "GET ":
            return send(200, await backend.get(scope));
          case "PUT ":
            return send(200, await backend.importMemory(scope, input));
          case "DELETE ":
            return send(200, await backend.clear(scope));
          case "PUT /summaries":
            await backend.updateSummaries(scope, input);
            return send(204);
          case "POST /facts":
            return send(201, await backend.addFact(scope, input));
          case "PATCH /facts/:id":
            return send(200, await backend.updateFact(scope, id as string, input));
          case "DELETE /facts/:id":
            await backend.deleteFact(scope, id as string);
            return send(204);
          case "POST /search": {
            const { query, limit } = input as { query: string; limit: number };
            return send(200, { facts: await backend.search(scope, query, { limit }) });
          }
          default:
            return send(405, { error: { code: "UNSUPPORTED", message: `no route ${route}` } });
        }
      } catch (err) {
        if (MemoryError.isInstance(err))
          return send(STATUS[err.code] ?? 500, { error: { code: err.code, message: err.message } });
        return send(500, { error: { code: "INTERNAL", message: (err as Error).message } });
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    authorizations,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
