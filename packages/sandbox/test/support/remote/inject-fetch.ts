/**
 * A `fetch` that answers through `app.inject`, so client code can be tested
 * against the real server routes without a socket.
 */
import type { FastifyInstance } from "fastify";

/** Options of {@link injectFetch}. */
export interface InjectFetchOptions {
  /** Called with each request before it is injected (method, path with query, headers). */
  readonly onRequest?: (request: { method: string; url: string; headers: Record<string, string> }) => void;
}

/**
 * @param app - The server under test.
 * @param options - Hooks.
 * @returns A `fetch` for `http://<anything>/...` URLs.
 */
export function injectFetch(app: FastifyInstance, options: InjectFetchOptions = {}): typeof fetch {
  return async (input, init = {}) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    init.signal?.throwIfAborted();
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, key) => {
      headers[key] = value;
    });
    headers.host = url.host;
    const method = (init.method ?? "GET").toUpperCase();
    options.onRequest?.({ method, url: url.pathname + url.search, headers });
    const injected = app.inject({
      method: method as "GET",
      url: url.pathname + url.search,
      headers,
      ...(typeof init.body === "string" ? { payload: init.body } : {}),
    });
    const aborted = new Promise<never>((_, reject) => {
      init.signal?.addEventListener("abort", () => reject(init.signal?.reason), { once: true });
    });
    const res = await Promise.race([injected, aborted]);
    const responseHeaders = new Headers();
    for (const [key, value] of Object.entries(res.headers)) {
      if (typeof value === "string") responseHeaders.set(key, value);
      else if (typeof value === "number") responseHeaders.set(key, String(value));
    }
    const status = res.statusCode;
    return new Response(status === 204 ? null : res.rawPayload, { status, headers: responseHeaders });
  };
}

/**
 * A `fetch` that always fails like an unreachable host does in undici.
 *
 * @returns The failing fetch.
 */
export function refusedFetch(): typeof fetch {
  return async () => {
    throw new TypeError("fetch failed", {
      cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), { code: "ECONNREFUSED" }),
    });
  };
}
