/**
 * Finding `http://` URLs in text and classifying their host as local
 * (loopback, unspecified, RFC 1918 private) or external.
 */

/** One cleartext URL occurrence. */
export interface HttpUrlMatch {
  readonly index: number;
  /** `http://host[:port]`, with any userinfo (which may hold credentials) removed. */
  readonly display: string;
  /** Lower-cased host without IPv6 brackets. */
  readonly host: string;
}

const HTTP_URL = /\bhttp:\/\/(?:[^\s/?#@'"<>()[\]]*@)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+)(:\d+)?/gi;

/**
 * Every `http://` URL in `text`, in order.
 *
 * @param text - text to search.
 * @returns the matches.
 */
export function* httpUrls(text: string): Generator<HttpUrlMatch> {
  for (const match of text.matchAll(HTTP_URL)) {
    const rawHost = match[1] ?? "";
    const host = rawHost.replace(/^\[|\]$/g, "").toLowerCase();
    yield { index: match.index, display: `http://${rawHost}${match[2] ?? ""}`, host };
  }
}

/**
 * True for hosts that do not leave the machine or the private network:
 * `localhost` (and `*.localhost`), `127.x`, `0.0.0.0`, `::1`, `10.x`,
 * `192.168.x`, `172.16–31.x`.
 *
 * @param host - lower-cased host.
 * @returns whether the host is local.
 */
export function isLocalHost(host: string): boolean {
  if (host === "localhost" || host.endsWith(".localhost") || host === "0.0.0.0" || host === "::1") return true;
  if (/^127\.\d+\.\d+\.\d+$/.test(host) || /^10\.\d+\.\d+\.\d+$/.test(host) || /^192\.168\.\d+\.\d+$/.test(host))
    return true;
  return /^172\.(?:1[6-9]|2\d|3[01])\.\d+\.\d+$/.test(host);
}
