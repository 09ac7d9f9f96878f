/**
 * The three built-in tools as LangChain tools: `web_search`, `web_fetch` and
 * `image_search`. Usable without the server: give a provider id (or your own
 * provider object) and DeerFlow-style options.
 */
import { tool, type StructuredToolInterface, type ToolRunnableConfig } from "@langchain/core/tools";
import { checkProviderOptions } from "./config/provider-options.js";
import type { WebToolKind } from "./config/tool-entry.js";
import { WEB_FETCH_PROVIDERS } from "./fetch/providers.js";
import type { WebFetchProvider } from "./fetch/web-fetch-provider.js";
import { IMAGE_SEARCH_PROVIDERS } from "./image/providers.js";
import type { ImageHit, ImageSearchProvider } from "./image/image-search-provider.js";
import { screenImageUrl } from "./image/screen-image-url.js";
import { SEARCH_TOOL_DESCRIPTION, FETCH_TOOL_DESCRIPTION, IMAGE_TOOL_DESCRIPTION } from "./tool-descriptions.js";
import { WEB_SEARCH_PROVIDERS } from "./search/providers.js";
import type { WebSearchProvider, WebSearchResult } from "./search/web-search-provider.js";
import { parseHttpUrl } from "./safe-fetch/vet-url.js";
import {
  callContext,
  failureText,
  notConfiguredText,
  safeFetchCache,
  type OptionsSource,
  type WebToolDeps,
} from "./tool-runtime.js";

/** Options of the three tool factories. */
export interface WebToolOptions<P> extends WebToolDeps {
  /** A built-in provider id (`brave`, `fetch`, ...) or a provider object. */
  readonly provider: string | P;
  /** The tool's name (default the kind: `web_search`, `web_fetch`, `image_search`). */
  readonly name?: string;
  /** DeerFlow's option keys (`api_key`, `base_url`, `max_results`, `timeout`, ...), validated now. */
  readonly options?: Readonly<Record<string, unknown>>;
  /**
   * Live options read at each call instead of `options` (the server's
   * {@link ToolConfigStore}); `undefined` means the tool was unconfigured.
   */
  readonly liveOptions?: OptionsSource;
}

/** Thrown by the factories for an unknown provider or bad options; lists every problem. */
export class WebToolConfigError extends TypeError {
  override name = "WebToolConfigError";
}

function pickProvider<P>(kind: WebToolKind, registry: Readonly<Record<string, P>>, provider: string | P): P {
  if (typeof provider !== "string") return provider;
  const found = registry[provider];
  if (found === undefined)
    throw new WebToolConfigError(
      `unknown ${kind} provider '${provider}' (built-in: ${Object.keys(registry).join(", ")})`,
    );
  return found;
}

function optionsSource(
  kind: WebToolKind,
  provider: { readonly optionsSchema: Readonly<Record<string, unknown>> },
  o: WebToolOptions<unknown>,
): OptionsSource {
  if (o.liveOptions !== undefined) return o.liveOptions;
  const checked = checkProviderOptions(kind, provider, o.options ?? {}, "");
  if (checked.problems.length > 0)
    throw new WebToolConfigError(
      `${kind} options: ${checked.problems.map((p) => `${p.path}: ${p.message}`).join("; ")}`,
    );
  return () => checked.options;
}

const capOf = (configured: unknown, providerCap: number | undefined, asked: unknown): number => {
  const limit = Math.min(Number(configured ?? 5), providerCap ?? Number.POSITIVE_INFINITY);
  const wanted = typeof asked === "number" && Number.isInteger(asked) && asked > 0 ? asked : limit;
  return Math.max(1, Math.min(wanted, limit));
};

const queryArgs = {
  type: "object",
  properties: {
    query: { type: "string", description: "What to search for" },
    max_results: {
      type: "integer",
      minimum: 1,
      description: "How many results (capped by the configured max_results)",
    },
  },
  required: ["query"],
} as const;

/**
 * Creates `web_search`: the model gets `{query, total_results, results: [{title, url, content}]}`
 * whatever the provider, or `{error, query}` (quota, auth, timeout, no results).
 *
 * @param options - provider, options (`max_results` caps the model's own value), dependencies
 * @returns the tool
 * @throws WebToolConfigError for an unknown provider or invalid options
 * @example
 * ```ts
 * const search = createWebSearchTool({ provider: "searxng", options: { base_url: "http://localhost:8088", max_results: 5 } });
 * ```
 */
export function createWebSearchTool(options: WebToolOptions<WebSearchProvider>): StructuredToolInterface {
  const provider = pickProvider("web_search", WEB_SEARCH_PROVIDERS, options.provider);
  const current = optionsSource("web_search", provider, options);
  const name = options.name ?? "web_search";
  const safe = safeFetchCache(options.resolver);
  return tool(
    async (input: { query: string; max_results?: number }, config: ToolRunnableConfig) => {
      const opts = await current();
      if (opts === undefined) return notConfiguredText(name);
      const query = String(input.query ?? "").trim();
      if (query === "") return JSON.stringify({ error: "The query is empty", query });
      try {
        const n = capOf(opts["max_results"], provider.maxResultsCap, input.max_results);
        const hits = await provider.search(query, n, callContext(options, opts, config?.signal, safe));
        if (hits.length === 0) return JSON.stringify({ error: "No results found", query });
        const result: WebSearchResult = { query, total_results: hits.length, results: hits.slice(0, n) };
        return JSON.stringify(result, null, 2);
      } catch (err) {
        return JSON.stringify({ error: failureText(err, config?.signal), query });
      }
    },
    { name, description: SEARCH_TOOL_DESCRIPTION, schema: queryArgs },
  ) as unknown as StructuredToolInterface;
}

/**
 * Creates `web_fetch`: Markdown of the page (title first), cut to `max_chars`
 * (4096 by default), or an `Error: ...` text. URLs go through the SSRF guard
 * (`allow_private_addresses: true` opts out for loopback and private ranges).
 *
 * @param options - provider (`fetch`, `jina`, `firecrawl` or your own), options, dependencies
 * @returns the tool
 * @throws WebToolConfigError for an unknown provider or invalid options
 * @example
 * ```ts
 * const fetchTool = createWebFetchTool({ provider: "fetch", options: { max_chars: 8000 } });
 * ```
 */
export function createWebFetchTool(options: WebToolOptions<WebFetchProvider>): StructuredToolInterface {
  const provider = pickProvider("web_fetch", WEB_FETCH_PROVIDERS, options.provider);
  const current = optionsSource("web_fetch", provider, options);
  const name = options.name ?? "web_fetch";
  const safe = safeFetchCache(options.resolver);
  return tool(
    async (input: { url: string }, config: ToolRunnableConfig) => {
      const opts = await current();
      if (opts === undefined) return notConfiguredText(name);
      try {
        const url = parseHttpUrl(String(input.url ?? "").trim()).href;
        const markdown = await provider.fetchPage(url, callContext(options, opts, config?.signal, safe));
        const max = Number(opts["max_chars"] ?? 4096);
        return markdown.length > max ? markdown.slice(0, max) : markdown;
      } catch (err) {
        return `Error: ${failureText(err, config?.signal)}`;
      }
    },
    {
      name,
      description: FETCH_TOOL_DESCRIPTION,
      schema: {
        type: "object",
        properties: { url: { type: "string", description: "The exact URL to fetch, with http:// or https://" } },
        required: ["url"],
      },
    },
  ) as unknown as StructuredToolInterface;
}

/**
 * Creates `image_search`: `{query, total_results, results: [{title, image_url, thumbnail_url}], usage_hint}`;
 * image URLs pointing at loopback, private or otherwise non-public IPs are dropped.
 *
 * @param options - provider (`serper`, `brave` or your own), options, dependencies
 * @returns the tool
 * @throws WebToolConfigError for an unknown provider or invalid options
 */
export function createImageSearchTool(options: WebToolOptions<ImageSearchProvider>): StructuredToolInterface {
  const provider = pickProvider("image_search", IMAGE_SEARCH_PROVIDERS, options.provider);
  const current = optionsSource("image_search", provider, options);
  const name = options.name ?? "image_search";
  const safe = safeFetchCache(options.resolver);
  return tool(
    async (input: { query: string; max_results?: number }, config: ToolRunnableConfig) => {
      const opts = await current();
      if (opts === undefined) return notConfiguredText(name);
      const query = String(input.query ?? "").trim();
      try {
        const n = capOf(opts["max_results"], provider.maxResultsCap, input.max_results);
        const raw = await provider.search(query, n, callContext(options, opts, config?.signal, safe));
        if (raw.length === 0) return JSON.stringify({ error: "No images found", query });
        const results: ImageHit[] = raw
          .map((h) => ({
            title: h.title,
            image_url: screenImageUrl(h.image_url),
            thumbnail_url: screenImageUrl(h.thumbnail_url),
          }))
          .filter((h) => h.image_url !== "" || h.thumbnail_url !== "");
        if (results.length === 0) return JSON.stringify({ error: "No safe image URLs found", query });
        return JSON.stringify(
          {
            query,
            total_results: results.length,
            results,
            usage_hint:
              "Use the 'image_url' values as reference images in image generation. Download them first if needed.",
          },
          null,
          2,
        );
      } catch (err) {
        return JSON.stringify({ error: failureText(err, config?.signal), query });
      }
    },
    { name, description: IMAGE_TOOL_DESCRIPTION, schema: queryArgs },
  ) as unknown as StructuredToolInterface;
}
