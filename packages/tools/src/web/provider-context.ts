/** What a provider gets for one call. */
import type { Logger } from "@deerflow/kernel";
import type { SafeFetch } from "./safe-fetch/safe-fetch.js";

/** The environment and settings of one provider call. */
export interface ProviderContext {
  /** The tool's options as configured (snake_case, DeerFlow's keys), defaults filled in. */
  readonly options: Readonly<Record<string, unknown>>;
  /** Plain `fetch` for the provider's own API (configured, trusted `base_url`). */
  readonly fetch: typeof fetch;
  /** SSRF-safe fetch for URLs the model gave, with the tool's `allow_private_addresses`. */
  readonly safeFetch: SafeFetch;
  /** Vets a URL the model gave before it is handed to a remote fetcher (Jina, Firecrawl). */
  readonly vetUrl: (url: string) => Promise<URL>;
  /** Environment for API key fallbacks. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The tool's `timeout` in milliseconds. */
  readonly timeoutMs: number;
  /** PDF bytes to Markdown, when the host supplies a parser (the direct `web_fetch` refuses PDFs without one). */
  readonly pdfToMarkdown?: (data: Uint8Array) => Promise<string>;
  /** The run's cancellation. */
  readonly signal?: AbortSignal;
  readonly logger: Logger;
}
