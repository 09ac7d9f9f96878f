/**
 * Browser origins: normalising an `Origin` header and the server's own origin
 * for the auth endpoints' cross-site check.
 */
import type { FastifyRequest } from "fastify";

/**
 * @param value - an origin, e.g. `https://Console.Example.com:443`.
 * @returns `scheme://host[:port]` lower-cased without a default port, or
 *   `undefined` for anything that is not a bare http(s) origin (a path,
 *   credentials, `null`, `*`).
 */
export function normalizeOrigin(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
  if (url.username !== "" || url.password !== "" || url.search !== "" || url.hash !== "") return undefined;
  if (!/^[a-z][a-z0-9+.-]*:\/\/[^/?#]+\/?$/i.test(value.trim())) return undefined;
  // URL drops the scheme's default port and lower-cases the host.
  return url.origin;
}

/**
 * @param request - the request.
 * @returns the origin the browser addressed: the request's protocol and
 *   `Host` (forwarded ones only with `trustProxy`, as Fastify reads them).
 */
export function ownOrigin(request: FastifyRequest): string | undefined {
  return normalizeOrigin(`${request.protocol}://${request.host}`);
}

/**
 * Builds the set of configured origins, leaving out `*` and malformed
 * entries: a wildcard CORS setting never vouches for a login.
 *
 * @param origins - configured origins.
 */
export function allowedOriginSet(origins: readonly string[] | undefined): ReadonlySet<string> {
  const set = new Set<string>();
  for (const o of origins ?? []) {
    const n = o.trim() === "*" ? undefined : normalizeOrigin(o);
    if (n !== undefined) set.add(n);
  }
  return set;
}
