/**
 * A fixture's gateway on a real listening socket, and a raw request helper.
 */
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { createFixture, type Fixture, type FixtureOptions } from "./fixture.js";

/** A listening fixture and its base URL. */
export interface SocketFixture {
  readonly fx: Fixture;
  readonly base: URL;
  /** @returns the absolute URL of `path` on the server. */
  url(path: string): URL;
}

/** Creates a fixture and listens on 127.0.0.1 (random port). Close it with `fx.close()`. */
export async function listenFixture(options: FixtureOptions = {}): Promise<SocketFixture> {
  const fx = await createFixture(options);
  await fx.app.listen({ host: "127.0.0.1", port: 0 });
  const base = new URL(`http://127.0.0.1:${(fx.app.server.address() as AddressInfo).port}`);
  return { fx, base, url: (path) => new URL(path, base) };
}

/** What {@link rawRequest} got back. */
export interface RawResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
  readonly text: string;
}

/** A request with the path sent byte for byte (fetch and URL would resolve dot segments). */
export function rawRequest(
  base: URL,
  rawPath: string,
  headers: Record<string, string> = {},
  method = "GET",
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: base.hostname, port: base.port, path: rawPath, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const body = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text: body.toString("utf8") });
      });
    });
    req.on("error", reject);
    req.end();
  });
}
