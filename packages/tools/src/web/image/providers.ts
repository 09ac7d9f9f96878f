/** The built-in `image_search` providers: Serper images and Brave image search. */
import { arrayAt, baseUrl, parseJson, providerRequest, requireKey, str } from "../provider-http.js";
import type { ImageHit, ImageSearchProvider } from "./image-search-provider.js";

const keyed = { base_url: { type: "string", minLength: 1 }, api_key: { type: "string" } };

/** Serper: `POST {base_url}/images`. */
const serperImages: ImageSearchProvider = {
  id: "serper",
  label: "Serper",
  maxResultsCap: 10,
  optionsSchema: keyed,
  async search(query, maxResults, ctx) {
    const key = requireKey(ctx, "SERPER_API_KEY");
    const text = await providerRequest(
      ctx,
      {
        label: this.label,
        url: `${baseUrl(ctx, "https://google.serper.dev")}/images`,
        headers: { "x-api-key": key },
        json: { q: query, num: maxResults },
      },
      "api_key or SERPER_API_KEY",
    );
    return arrayAt(parseJson(this.label, text), "images")
      .slice(0, maxResults)
      .map((r): ImageHit => {
        const o = r as Record<string, unknown>;
        return { title: str(o["title"]), image_url: str(o["imageUrl"]), thumbnail_url: str(o["thumbnailUrl"]) };
      });
  },
};

/** Brave: `GET {base_url}/images/search`. */
const braveImages: ImageSearchProvider = {
  id: "brave",
  label: "Brave Search",
  maxResultsCap: 200,
  optionsSchema: { ...keyed, country: { type: "string" }, search_lang: { type: "string" } },
  async search(query, maxResults, ctx) {
    const key = requireKey(ctx, "BRAVE_SEARCH_API_KEY");
    const url = new URL(`${baseUrl(ctx, "https://api.search.brave.com/res/v1")}/images/search`);
    url.searchParams.set("q", query);
    url.searchParams.set("count", String(maxResults));
    for (const k of ["country", "search_lang"]) {
      const v = ctx.options[k];
      if (typeof v === "string") url.searchParams.set(k, v);
    }
    const text = await providerRequest(
      ctx,
      { label: this.label, url, headers: { "x-subscription-token": key } },
      "api_key or BRAVE_SEARCH_API_KEY",
    );
    return arrayAt(parseJson(this.label, text), "results")
      .slice(0, maxResults)
      .map((r): ImageHit => {
        const o = r as Record<string, unknown>;
        const props = (o["properties"] ?? {}) as Record<string, unknown>;
        const thumb = (o["thumbnail"] ?? {}) as Record<string, unknown>;
        return { title: str(o["title"]), image_url: str(props["url"]), thumbnail_url: str(thumb["src"]) };
      });
  },
};

/** Every built-in `image_search` provider by `use:` id. */
export const IMAGE_SEARCH_PROVIDERS: Readonly<Record<string, ImageSearchProvider>> = Object.fromEntries(
  [serperImages, braveImages].map((p) => [p.id, p]),
);
