/**
 * One sandbox tracked by `RemoteSandboxProvider`, with the clocks its idle
 * reaper reads.
 */
import type { Clock } from "./clock.js";
import { RemoteSandbox } from "./remote-sandbox.js";
import type { ResolvedProviderOptions } from "./remote-sandbox-provider-options.js";

/** A tracked sandbox. */
export interface PoolEntry {
  readonly id: string;
  readonly threadId: string;
  readonly userId: string;
  readonly sandbox: RemoteSandbox;
  /** Start or end of its latest request (or when it was handed out). */
  lastActive: number;
  /** When it was last parked in the warm pool. */
  releasedAt: number;
}

/**
 * Creates the entry and its {@link RemoteSandbox}, whose requests move `lastActive`.
 *
 * @param identity - Id, thread and user.
 * @param url - The sandbox's base URL.
 * @param options - Key, fetch, timeouts of the provider.
 * @param clock - Time source.
 * @returns The entry.
 */
export function createPoolEntry(
  identity: { readonly id: string; readonly threadId: string; readonly userId: string },
  url: string,
  options: Pick<ResolvedProviderOptions, "apiKey" | "fetch" | "requestTimeoutMs">,
  clock: Clock,
): PoolEntry {
  const now = clock.now();
  const entry: PoolEntry = {
    ...identity,
    lastActive: now,
    releasedAt: now,
    sandbox: new RemoteSandbox({
      id: identity.id,
      url,
      onActivity: () => {
        entry.lastActive = clock.now();
      },
      ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
      ...(options.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: options.requestTimeoutMs }),
    }),
  };
  return entry;
}
