/** The `web_search` extension point: one provider, one normalised answer. */
import type { ProviderContext } from "../provider-context.js";

/** One search hit as the model reads it. */
export interface SearchHit {
  readonly title: string;
  readonly url: string;
  readonly content: string;
}

/** What every `web_search` provider returns to the model (DeerFlow's Serper/Brave shape, for all). */
export interface WebSearchResult {
  readonly query: string;
  readonly total_results: number;
  readonly results: readonly SearchHit[];
}

/** A search backend. */
export interface WebSearchProvider {
  /** The `use:` id, e.g. `brave`. */
  readonly id: string;
  /** Name in error texts, e.g. `Brave Search`. */
  readonly label: string;
  /** JSON Schema of the provider's own options (beyond `max_results`, `timeout`, `allow_private_addresses`). */
  readonly optionsSchema: Readonly<Record<string, unknown>>;
  /** Hard upper bound of results the API gives in one call (Serper 10, Brave 20). */
  readonly maxResultsCap?: number;
  /**
   * Runs one query.
   *
   * @param query - the model's query
   * @param maxResults - already capped by config and {@link WebSearchProvider.maxResultsCap}
   * @returns at most `maxResults` hits
   * @throws WebToolError for HTTP, key and shape failures
   */
  search(query: string, maxResults: number, ctx: ProviderContext): Promise<readonly SearchHit[]>;
}
