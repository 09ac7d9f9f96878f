/** The DNS lookup the safe fetcher asks, injectable so tests can play a rebinding resolver. */
import { lookup } from "node:dns/promises";

/** One resolved address. */
export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** Resolves a host name to every address it has (an empty list when it has none). */
export type HostResolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

/** The system resolver (`getaddrinfo` through `dns.lookup`, all addresses). */
export const systemResolver: HostResolver = async (hostname) => {
  const found = await lookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};
