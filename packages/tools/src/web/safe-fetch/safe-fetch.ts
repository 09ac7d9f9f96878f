/**
 * `createSafeFetch`: a `fetch` for URLs nobody vetted (a model's, a redirect's)
 * that can only reach the addresses its policy allows. Every hop is vetted,
 * and the socket connects through a `lookup` that vets what it resolves and
 * returns exactly that, so a DNS answer that changes between check and connect
 * (rebinding) has nothing to change.
 */
import type { LookupAddress } from "node:dns";
import { callbackify } from "node:util";
import { readBodyCapped } from "@deerflow/kernel";
import { Agent, fetch as undiciFetch, type RequestInit as UndiciRequestInit } from "undici";
import type { AddressPolicyOptions } from "./address-policy.js";
import { systemResolver, type HostResolver } from "./resolver.js";
import { SafeFetchError } from "./safe-fetch-error.js";
import { literalHost, parseHttpUrl, resolveVetted, vetAddress } from "./vet-url.js";

/** Options of {@link createSafeFetch}. */
export interface SafeFetchOptions extends AddressPolicyOptions {
  /** DNS lookup (default: the system's `getaddrinfo`). Tests inject a rebinding one. */
  readonly resolver?: HostResolver;
  /** Redirects followed, each vetted like the first URL (default 5). */
  readonly maxRedirects?: number;
  /** Wall clock of the whole exchange, headers and body (default 30 s). */
  readonly timeoutMs?: number;
}

/** The `fetch` shape the safe fetcher has (string or URL input; a `Request` object is not accepted). */
export type SafeFetch = (input: string | URL, init?: RequestInit) => Promise<Response>;

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

const resolveVettedCallback = callbackify(resolveVetted);

/** `net.connect`'s `lookup`, answering only with vetted addresses. */
function pinnedLookup(policy: AddressPolicyOptions, resolver: HostResolver) {
  return (hostname: string, opts: { all?: boolean | undefined }, callback: LookupCallback): void => {
    resolveVettedCallback(hostname, policy, resolver, (err, found) => {
      if (err !== null) callback(err, "");
      else if (opts.all === true)
        callback(
          null,
          found.map((a) => ({ address: a.address, family: a.family })),
        );
      else callback(null, found[0]?.address ?? "", found[0]?.family ?? 4);
    });
  };
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const CREDENTIAL_HEADERS = ["authorization", "cookie", "proxy-authorization"];

function findSafeFetchError(err: unknown): SafeFetchError | undefined {
  for (let e: unknown = err, depth = 0; e !== undefined && e !== null && depth < 5; depth++) {
    if (SafeFetchError.isInstance(e)) return e;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

function isAbort(err: unknown): boolean {
  const name = (err as { name?: unknown } | null)?.name;
  return name === "AbortError" || name === "TimeoutError";
}

/**
 * Creates an SSRF-safe `fetch`. Only http(s); literal and resolved addresses
 * must pass the policy (public only by default; `allowPrivateAddresses` adds
 * loopback and private ranges; cloud metadata never); redirects are followed
 * by hand, each hop vetted, credentials dropped when the origin changes.
 *
 * @param options - policy, resolver, redirect and time limits
 * @returns a `fetch`; it rejects with {@link SafeFetchError} (`URL_UNSUPPORTED`, `URL_BLOCKED`,
 *   `DNS_FAILED`, `REDIRECT_INVALID`, `TIMEOUT`, `NETWORK`) and with the caller's abort reason
 * @example
 * ```ts
 * const safeFetch = createSafeFetch({ timeoutMs: 10_000 });
 * const res = await safeFetch("https://example.com/");
 * const body = await readLimitedBody(res, { maxBytes: 2_000_000 });
 * ```
 */
export function createSafeFetch(options: SafeFetchOptions = {}): SafeFetch {
  const policy: AddressPolicyOptions = { allowPrivateAddresses: options.allowPrivateAddresses === true };
  const resolver = options.resolver ?? systemResolver;
  const maxRedirects = options.maxRedirects ?? 5;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const dispatcher = new Agent({ connect: { lookup: pinnedLookup(policy, resolver) } });

  return async (input, init = {}) => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    let url = parseHttpUrl(input);
    let method = (init.method ?? "GET").toUpperCase();
    let body = init.body;
    const headers = new Headers(init.headers);
    for (let hop = 0; ; hop++) {
      const literal = literalHost(url);
      if (literal !== undefined) vetAddress(literal, policy);
      let res: Response;
      try {
        const request = {
          ...init,
          method,
          headers,
          body,
          redirect: "manual",
          signal,
          dispatcher,
        } as unknown as UndiciRequestInit;
        res = (await undiciFetch(url, request)) as unknown as Response;
      } catch (err) {
        const own = findSafeFetchError(err);
        if (own !== undefined) throw own;
        if (timeout.aborted && isAbort(err))
          throw new SafeFetchError("TIMEOUT", `No complete answer from ${url.host} within ${timeoutMs / 1000}s`);
        if (init.signal?.aborted === true) throw init.signal.reason ?? err;
        const cause = (err as { cause?: { message?: string } }).cause;
        throw new SafeFetchError("NETWORK", `Could not connect to ${url.host}: ${cause?.message ?? String(err)}`, {
          cause: err,
        });
      }
      if (!REDIRECTS.has(res.status)) return withTimeoutBody(res, timeout, timeoutMs, url);
      await res.body?.cancel();
      const location = res.headers.get("location");
      if (location === null) return res;
      if (hop >= maxRedirects)
        throw new SafeFetchError("REDIRECT_INVALID", `More than ${maxRedirects} redirects from ${String(input)}`);
      let next: URL;
      try {
        next = parseHttpUrl(new URL(location, url));
      } catch (err) {
        throw new SafeFetchError("REDIRECT_INVALID", `Redirect to an unsupported URL: ${location.slice(0, 200)}`, {
          cause: err,
        });
      }
      if (next.origin !== url.origin) for (const h of CREDENTIAL_HEADERS) headers.delete(h);
      if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === "POST")) {
        method = method === "HEAD" ? "HEAD" : "GET";
        body = undefined;
        headers.delete("content-type");
        headers.delete("content-length");
      }
      url = next;
    }
  };
}

/**
 * The body keeps running under the exchange's timeout; a read cut by it
 * rejects with a `TIMEOUT` error rather than a bare abort.
 */
function withTimeoutBody(res: Response, timeout: AbortSignal, timeoutMs: number, url: URL): Response {
  Object.defineProperty(res, "safeFetchTimeout", { value: { timeout, timeoutMs, host: url.host } });
  Object.defineProperty(res, "safeFetchUrl", { value: url.href });
  return res;
}

/** The URL a safe fetch ended at, after redirects (`res.url` is empty for manual redirects). */
export function finalUrl(res: Response): string {
  return (res as { safeFetchUrl?: string }).safeFetchUrl ?? res.url;
}

/** Options of {@link readLimitedBody}. */
export interface ReadLimitedBodyOptions {
  /** Largest body accepted, in bytes. */
  readonly maxBytes: number;
}

/**
 * Reads a response body, refusing one larger than `maxBytes` (by its
 * `Content-Length` before reading, and by counting while reading, since the
 * header may lie or be absent).
 *
 * @param res - a response
 * @param options - the size limit
 * @returns the body bytes
 * @throws SafeFetchError `BODY_TOO_LARGE`, or `TIMEOUT` when a safe fetch's time runs out mid-body
 */
export async function readLimitedBody(res: Response, options: ReadLimitedBodyOptions): Promise<Uint8Array> {
  const { maxBytes } = options;
  const tooLarge = (): SafeFetchError =>
    new SafeFetchError("BODY_TOO_LARGE", `The response is larger than ${maxBytes} bytes`, { details: { maxBytes } });
  try {
    return await readBodyCapped(res, maxBytes, tooLarge);
  } catch (err) {
    const t = (res as { safeFetchTimeout?: { timeout: AbortSignal; timeoutMs: number; host: string } })
      .safeFetchTimeout;
    if (t?.timeout.aborted === true && !SafeFetchError.isInstance(err))
      throw new SafeFetchError("TIMEOUT", `No complete answer from ${t.host} within ${t.timeoutMs / 1000}s`);
    throw err;
  }
}
