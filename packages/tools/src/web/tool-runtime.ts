/**
 * What the three web tools share: where their options come from (fixed, or
 * read from a {@link ToolConfigStore} at each call), the provider context of
 * one call, and turning failures into texts the model reads.
 */
import { silentLogger, type Logger } from "@deerflow/kernel";
import type { ToolConfigStore } from "./config/tool-config-store.js";
import type { ProviderContext } from "./provider-context.js";
import { systemResolver, type HostResolver } from "./safe-fetch/resolver.js";
import { SafeFetchError } from "./safe-fetch/safe-fetch-error.js";
import { createSafeFetch, type SafeFetch } from "./safe-fetch/safe-fetch.js";
import { vetUrl } from "./safe-fetch/vet-url.js";
import { WebToolError } from "./web-tool-error.js";

/** Dependencies every web tool takes; all optional. */
export interface WebToolDeps {
  /** `fetch` for the providers' own APIs (default the global one). */
  readonly fetch?: typeof fetch;
  /** DNS lookup of the SSRF guard (default the system's). */
  readonly resolver?: HostResolver;
  /** Environment for API key fallbacks (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly logger?: Logger;
  /**
   * PDF bytes to Markdown for the direct `web_fetch` (e.g. pdf.js text per page). Parsing
   * untrusted documents is the host's choice: without it PDFs get a refusal text.
   */
  readonly pdfToMarkdown?: (data: Uint8Array) => Promise<string>;
}

/** Where a tool's options come from, read at each call. */
export type OptionsSource = () =>
  | Readonly<Record<string, unknown>>
  | undefined
  | Promise<Readonly<Record<string, unknown>> | undefined>;

/** Options read from the store's current entry at each call (after its refresh). */
export function storeOptions(store: ToolConfigStore, entryName: string): OptionsSource {
  return async () => (await store.current()).tools.find((t) => t.name === entryName)?.options;
}

/** Builds the provider context of one call. */
export function callContext(
  deps: WebToolDeps,
  options: Readonly<Record<string, unknown>>,
  signal: AbortSignal | undefined,
  safeFetchFor: (allowPrivate: boolean, timeoutMs: number) => SafeFetch,
): ProviderContext {
  const timeoutMs = Math.round(Number(options["timeout"] ?? 30) * 1000);
  const allowPrivateAddresses = options["allow_private_addresses"] === true;
  const resolver = deps.resolver;
  return {
    options,
    fetch: deps.fetch ?? globalThis.fetch,
    safeFetch: safeFetchFor(allowPrivateAddresses, timeoutMs),
    vetUrl: (url) => vetUrl(url, { allowPrivateAddresses }, resolver ?? systemResolver),
    env: deps.env ?? process.env,
    timeoutMs,
    ...(signal === undefined ? {} : { signal }),
    ...(deps.pdfToMarkdown === undefined ? {} : { pdfToMarkdown: deps.pdfToMarkdown }),
    logger: deps.logger ?? silentLogger,
  };
}

/** One safe fetcher per (policy, timeout), kept for the tool's life (each holds a connection pool). */
export function safeFetchCache(
  resolver: HostResolver | undefined,
): (allowPrivate: boolean, timeoutMs: number) => SafeFetch {
  const made = new Map<string, SafeFetch>();
  return (allowPrivate, timeoutMs) => {
    const key = `${allowPrivate}:${timeoutMs}`;
    let f = made.get(key);
    if (f === undefined) {
      f = createSafeFetch({
        allowPrivateAddresses: allowPrivate,
        timeoutMs,
        ...(resolver === undefined ? {} : { resolver }),
      });
      made.set(key, f);
    }
    return f;
  };
}

/**
 * The text of a failure, or a rethrow when the run was cancelled (a cancelled
 * run must stop, not read an error text).
 */
export function failureText(err: unknown, signal: AbortSignal | undefined): string {
  if (signal?.aborted === true) throw signal.reason ?? err;
  if (WebToolError.isInstance(err) || SafeFetchError.isInstance(err)) return err.message;
  return `Unexpected failure: ${err instanceof Error ? err.message : String(err)}`;
}

/** The tool's text when its entry is gone from the config. */
export function notConfiguredText(name: string): string {
  return `Error: ${name} is no longer configured (removed from config.yaml's tools:)`;
}
