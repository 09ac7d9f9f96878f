/** The `image_search` extension point. */
import type { ProviderContext } from "../provider-context.js";

/** One image as the model reads it. */
export interface ImageHit {
  readonly title: string;
  readonly image_url: string;
  readonly thumbnail_url: string;
}

/** An image search backend. */
export interface ImageSearchProvider {
  readonly id: string;
  readonly label: string;
  readonly optionsSchema: Readonly<Record<string, unknown>>;
  readonly maxResultsCap?: number;
  /** Runs one query; the tool screens the URLs it returns. */
  search(query: string, maxResults: number, ctx: ProviderContext): Promise<readonly ImageHit[]>;
}
