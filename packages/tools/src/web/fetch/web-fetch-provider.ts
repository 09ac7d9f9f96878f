/** The `web_fetch` extension point: a URL in, Markdown out. */
import type { ProviderContext } from "../provider-context.js";

/** A page reader. */
export interface WebFetchProvider {
  /** The `use:` id, e.g. `jina`. */
  readonly id: string;
  readonly label: string;
  /** JSON Schema of the provider's own options (beyond `timeout`, `max_chars`, `allow_private_addresses`). */
  readonly optionsSchema: Readonly<Record<string, unknown>>;
  /**
   * Reads one page. The URL has passed the SSRF guard's form check; a provider
   * that fetches it locally uses `ctx.safeFetch`, one that hands it to a remote
   * service vets it with `ctx.vetUrl` first.
   *
   * @returns Markdown, title first (the tool truncates it to `max_chars`)
   * @throws WebToolError or SafeFetchError; the tool turns them into `Error: ...` texts
   */
  fetchPage(url: string, ctx: ProviderContext): Promise<string>;
}
