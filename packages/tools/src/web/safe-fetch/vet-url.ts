/**
 * The URL half of the SSRF guard: scheme, host names that are never fetched,
 * and the classes of the addresses a host resolves to. The connect half is
 * `pinnedLookup`, which runs the same vetting at connect time and hands the
 * socket exactly the addresses it vetted.
 */
import { isIP } from "node:net";
import { refusedClass, type AddressPolicyOptions } from "./address-policy.js";
import type { HostResolver, ResolvedAddress } from "./resolver.js";
import { SafeFetchError } from "./safe-fetch-error.js";

/** Host names refused by name, whatever they resolve to. */
const METADATA_HOSTS = new Set(["metadata.google.internal", "metadata.goog", "instance-data"]);

/**
 * Parses and checks a URL's form: absolute, http or https, with a host.
 * Obfuscated IPv4 hosts (`0x7f.1`, `0177.0.0.1`, `2130706433`) come out of the
 * WHATWG parser as dotted quads, so they are judged as what they are.
 *
 * @param input - the URL as given
 * @returns the parsed URL
 * @throws SafeFetchError `URL_UNSUPPORTED`
 */
export function parseHttpUrl(input: string | URL): URL {
  let url: URL;
  try {
    url = typeof input === "string" ? new URL(input) : new URL(input.href);
  } catch {
    throw new SafeFetchError("URL_UNSUPPORTED", `Not an absolute URL: ${String(input).slice(0, 200)}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new SafeFetchError("URL_UNSUPPORTED", "Only http:// and https:// URLs are supported");
  if (url.hostname === "") throw new SafeFetchError("URL_UNSUPPORTED", "URL host could not be parsed");
  return url;
}

/** The URL's host as an IP literal (brackets removed), or `undefined` for a name. */
export function literalHost(url: URL): string | undefined {
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  return isIP(host) === 0 ? undefined : host;
}

function normaliseName(hostname: string): string {
  return hostname.trim().replace(/\.$/, "").toLowerCase();
}

function blocked(what: string, cls: string): SafeFetchError {
  return new SafeFetchError(
    "URL_BLOCKED",
    `Refusing to fetch ${what}: it is a ${cls} address (only public addresses are fetched)`,
    { details: { class: cls } },
  );
}

/**
 * Checks one address against the policy.
 *
 * @throws SafeFetchError `URL_BLOCKED`
 */
export function vetAddress(address: string, policy: AddressPolicyOptions, what = address): void {
  const cls = refusedClass(address, policy);
  if (cls !== undefined) throw blocked(what, cls);
}

/**
 * Resolves a host name and checks **every** address it has (one private
 * answer among public ones is enough to refuse: the socket could pick it).
 *
 * @param hostname - a host name (not an IP literal)
 * @param policy - what may be reached
 * @param resolver - the DNS lookup
 * @returns the vetted addresses, the only ones a connection may use
 * @throws SafeFetchError `URL_BLOCKED`, `DNS_FAILED`
 */
export async function resolveVetted(
  hostname: string,
  policy: AddressPolicyOptions,
  resolver: HostResolver,
): Promise<readonly ResolvedAddress[]> {
  const name = normaliseName(hostname);
  if (METADATA_HOSTS.has(name)) throw blocked(name, "metadata");
  if (name === "localhost" || name.endsWith(".localhost")) {
    vetAddress("127.0.0.1", policy, name);
    return [{ address: "127.0.0.1", family: 4 }];
  }
  let found: readonly ResolvedAddress[];
  try {
    found = await resolver(name);
  } catch (cause) {
    throw new SafeFetchError("DNS_FAILED", `URL host could not be resolved: ${name}`, { cause });
  }
  if (found.length === 0) throw new SafeFetchError("DNS_FAILED", `URL host could not be resolved: ${name}`);
  for (const a of found) vetAddress(a.address, policy, `${name} (${a.address})`);
  return found;
}

/**
 * Vets a URL without fetching it: form, then the literal address or every
 * address the host resolves to. Used where a URL is handed to someone else
 * (a Jina or Firecrawl server) rather than fetched here.
 *
 * @param input - the URL
 * @param policy - what may be reached
 * @param resolver - the DNS lookup
 * @returns the parsed URL
 * @throws SafeFetchError `URL_UNSUPPORTED`, `URL_BLOCKED`, `DNS_FAILED`
 */
export async function vetUrl(input: string | URL, policy: AddressPolicyOptions, resolver: HostResolver): Promise<URL> {
  const url = parseHttpUrl(input);
  const literal = literalHost(url);
  if (literal !== undefined) vetAddress(literal, policy);
  else await resolveVetted(url.hostname, policy, resolver);
  return url;
}
